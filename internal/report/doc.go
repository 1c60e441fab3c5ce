// Package report turns the results of a matrix run into tables: one row
// per row, one group of columns per client, differences between
// clients marked. It renders them as markdown, CSV, JSON and one self-contained HTML page. Every figure
// comes from analyze.Result values, which come from evidence alone, so a
// report can be rebuilt from one evidence directory or from the shards of
// one run (Load).
package report
