// Package table is the one model of every table instrlab prints, and its
// renderers. A command computes a Table once (columns in groups, rows of
// cells, notes) and renders it with Markdown, CSV, Text (the terminal) or
// HTML (a fragment for a page); JSON is the Table itself. The renderers
// take the model only, as benchstat's do.
package table
