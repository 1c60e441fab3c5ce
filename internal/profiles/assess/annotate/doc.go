// Package annotate prints check's report in each of its formats (Formats,
// Write): text for people, JSON, and for code hosts GitHub workflow
// commands (annotations on a pull request) and SARIF 2.1.0 (code
// scanning). It takes the report model only, never the text printer's
// output, and escapes server text (untrusted) for each format.
package annotate
