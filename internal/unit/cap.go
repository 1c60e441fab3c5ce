package unit

// CapOf is the cap one cut text s implies, in its unit, given what the
// client's own default cap counts (f, from its plain runs): this is where
// a single cut's unit is decided, for every output that states one.
//
//   - f's unit and cap when s is cut there too: the same cut as the
//     client's default, whatever the run changed (a setting the client
//     ignored, as Claude Code ignores CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH
//     =25,000 and cuts at 4,096 UTF-16 units);
//   - else the unit s alone decides (Infer: the client's own report of the
//     cut, else the one unit in which a round cap keeps what it kept);
//   - else code points, the length kept.
//
// ok is false when s was not cut.
func (f Finding) CapOf(s Sample) (u Unit, cap int, ok bool) {
	if !s.Cut() {
		return "", 0, false
	}
	if d := f.Decided(); d != "" && fits(d, f.Caps[d], []Sample{s}) {
		return d, f.Caps[d], true
	}
	if one := Infer([]Sample{s}); one.Decided() != "" {
		d := one.Decided()
		return d, one.Caps[d], true
	}
	return CodePoint, CodePoint.Count(s.Kept), true
}
