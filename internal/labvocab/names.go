package labvocab

import "strings"

// The lab's own tools (the lab's addTools), which -tools counts first.
var OwnTools = []string{MetaTool, "list_bins", "lab_ping"}

// MetaTool is the tool that -tool-meta gives a _meta, and that
// -tool-desc describes.
const MetaTool = "lookup_part"

// The names of lab.SurfaceNames' tools. NameLong is 60 characters: within
// the 64 many model APIs allow, past it with a client's prefix (mcp__lab__
// is 10 more); NameMax is 128, the most the specification allows.
var (
	NameLong    = padName("name_long_", 60)
	NameMax     = padName("name_max_", 128)
	NameDotted  = "name.dotted.case"
	NameHyphen  = "name-hyphen-case"
	NameUpper   = "NAME_Upper_Case"
	NameUnicode = "name_ünïcødé_名前" // outside the specification's A-Z a-z 0-9 _ - .
	// NamePrefix is the start of NamePrefixed, as list_directory is of
	// server-filesystem's list_directory_with_sizes.
	NamePrefix   = "name_prefix"
	NamePrefixed = "name_prefix_with_more"
	// NamePadded's description is its text between PaddedLead and
	// PaddedTail: white space a client may trim, or keep, at either end
	// (a description written in a template literal). Their lengths differ,
	// so how many characters a client removed says from which end.
	NamePadded = "name_padded"
	PaddedLead = "\n\n  "
	PaddedTail = " \n"
	// NameTwin is lab.SurfaceTwin's tool: every lab of a run of several
	// has it.
	NameTwin = "twin_tool"
)

// LongToolName is the name of -tool-name-length n's tool: "lname" and
// then the alphabet, over and over, cut to n bytes, so that a client's
// cut of it shows where it fell.
func LongToolName(n int) string { return padName("lname", n)[:n] }

// padName pads prefix with letters to n bytes.
func padName(prefix string, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; b.Len() < n; i++ {
		b.WriteByte(letters[i%len(letters)])
	}
	return b.String()
}
