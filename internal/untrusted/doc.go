// Package untrusted makes text that a server controls safe in every output
// instrlab writes. It owns one escaper per kind of output, and every command
// goes through them:
//
//   - a terminal (and so a CI log): Escape, EscapeLine;
//   - Markdown (table.md, atlas.md, a step summary): Markdown;
//   - HTML made by html/template (report.html, atlas.html): HTML, HTMLLine;
//   - JSON (-json, -format json, results.json, SARIF): JSON, Marshal, RawJSON;
//   - GitHub workflow commands (check -format github): WorkflowData,
//     WorkflowProperty.
//
// Each turns control characters (C0, DEL, C1), the bytes of invalid UTF-8
// and invisible characters into visible escapes (JSON into \u escapes, the
// same value), so an escape sequence cannot recolour, move or retitle a
// terminal and a hidden character cannot pass unseen; and each defuses what
// a CI runner would read as a workflow command (a line starting with "::",
// "##[" anywhere), because any output may end up in a CI log. Invisible
// reports where the invisible characters are (Unicode tags, zero-width,
// bidi controls, variation selectors and other format characters), because
// they are how instructions are smuggled past a reader. docs/hardening.md
// lists what each output escapes and the test that holds it.
package untrusted
