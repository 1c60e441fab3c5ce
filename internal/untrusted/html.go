package untrusted

// HTML returns s as text for an html/template, which escapes the markup
// (<, >, &, quotes) in whatever context it lands; HTML makes visible what
// the template keeps as it is and a browser would hide or act on: control
// and invisible characters, bidi overrides that reorder what is shown,
// invalid UTF-8 (all as Escape writes them), and workflow commands, for a
// page printed in a CI log. Line breaks and tabs are kept, for a <pre>.
func HTML(s string) string { return Escape(s) }

// HTMLLine is HTML for text shown on one line (a table cell, a name): line
// breaks and tabs are escaped too.
func HTMLLine(s string) string { return EscapeLine(s) }
