// Package untrusted makes text that a server controls safe to show a person.
//
// Escape and EscapeLine turn control characters (C0, DEL, C1), the bytes of
// invalid UTF-8 and invisible characters into visible escapes, so that an
// escape sequence cannot recolour, move or retitle a terminal and a hidden
// character cannot pass unseen. Invisible reports where the invisible
// characters are (Unicode tags, zero-width, bidi controls and other format
// characters), because they are how instructions are smuggled past a reader.
package untrusted
