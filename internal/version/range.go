package version

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// A Range is a set of versions written the npm way:
//
//	1.2.3  =1.2.3          that version
//	1.2  1.x  1.2.*  *     the versions a partial names (>=1.2.0 <1.3.0, ...)
//	>1.2.3  >=1.2  <2  <=1.4  !=1.2.3
//	                       comparisons (">1.2" is >=1.3.0, "<=1.4" is <1.5.0;
//	                       "=>" and "=<" are taken for >= and <=)
//	~1.2.3  ~1.2  ~1       >=1.2.3 <1.3.0, >=1.2.0 <1.3.0, >=1.0.0 <2.0.0 ("~>" too)
//	^1.2.3  ^0.2.3  ^0.0.3 >=1.2.3 <2.0.0, >=0.2.3 <0.3.0, >=0.0.3 <0.0.4
//	1.2 - 1.4              >=1.2.0 <1.5.0 (spaces around the hyphen)
//
// Comparators separated by spaces or a comma must all hold; sets separated
// by || are alternatives. An operator may be followed by spaces (">= 1.2"),
// a version may start with "v", and a full version may carry a -PRERELEASE
// and +BUILD (the build is ignored). Whether prereleases are wanted is the
// caller's choice: Match compares them by semver precedence.
type Range struct {
	text string
	sets [][]interval // OR of ANDs
}

// ParseRange parses an npm-style range; the error says what is wrong and
// where, without repeating s.
func ParseRange(s string) (Range, error) {
	r := Range{text: s}
	for i, set := range strings.Split(s, "||") {
		ivs, err := parseSet(set)
		if err != nil {
			if strings.Contains(s, "||") {
				return Range{}, fmt.Errorf("alternative %d (%q): %w", i+1, strings.TrimSpace(set), err)
			}
			return Range{}, err
		}
		r.sets = append(r.sets, ivs)
	}
	return r, nil
}

// Match reports whether v is a version in r.
func (r Range) Match(v string) bool {
	sv := semv(v)
	if sv == "" {
		return false
	}
	for _, set := range r.sets {
		ok := true
		for _, iv := range set {
			if !iv.contains(sv) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (r Range) String() string { return r.text }

// An interval is the versions from lo to hi (x/mod/semver forms; "" is no
// bound), or with not the versions outside them.
type interval struct {
	lo, hi         string
	loOpen, hiOpen bool // lo, hi themselves excluded
	not            bool
}

var (
	everything = interval{}
	nothing    = interval{not: true}
)

func (iv interval) contains(v string) bool {
	in := true
	if iv.lo != "" {
		c := semver.Compare(v, iv.lo)
		in = c > 0 || c == 0 && !iv.loOpen
	}
	if in && iv.hi != "" {
		c := semver.Compare(v, iv.hi)
		in = c < 0 || c == 0 && !iv.hiOpen
	}
	return in != iv.not
}

// A partial is a version some of whose numbers may be left out or
// wildcards: "1", "1.2", "1.x", "*", "1.2.3-beta.1".
type partial struct {
	nums [3]uint64
	n    int    // numbers given: 0 (a wildcard) to 3
	pre  string // "-beta.1", only with all three numbers
}

// low is the oldest version p names.
func (p partial) low() string {
	return fmt.Sprintf("v%d.%d.%d%s", p.nums[0], p.nums[1], p.nums[2], p.pre)
}

// above is the oldest version newer than every version p names, for n 1
// or 2 ("1" -> 2.0.0, "1.2" -> 1.3.0).
func (p partial) above() string {
	if p.n == 1 {
		return fmt.Sprintf("v%d.0.0", p.nums[0]+1)
	}
	return fmt.Sprintf("v%d.%d.0", p.nums[0], p.nums[1]+1)
}

// names is the interval of the versions p names.
func (p partial) names() interval {
	switch p.n {
	case 0:
		return everything
	case 3:
		return interval{lo: p.low(), hi: p.low()}
	}
	return interval{lo: p.low(), hi: p.above(), hiOpen: true}
}

// maxDigits bounds a version's numbers so that adding one cannot overflow.
const maxDigits = 18

func parsePartial(s string) (partial, error) {
	var p partial
	core := strings.TrimPrefix(s, "v")
	core, build, hasBuild := strings.Cut(core, "+")
	core, pre, hasPre := strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) > 3 {
		return p, fmt.Errorf("%q: a version has at most three numbers", s)
	}
	wild := false
	for i, part := range parts {
		switch {
		case part == "x" || part == "X" || part == "*":
			wild = true
		case part == "":
			return p, fmt.Errorf("%q: a number is missing", s)
		case strings.Trim(part, "0123456789") != "":
			return p, fmt.Errorf("%q: %q is neither a number nor a wildcard (x, X, *)", s, part)
		case wild:
			return p, fmt.Errorf("%q: a number after a wildcard", s)
		case len(part) > maxDigits:
			return p, fmt.Errorf("%q: %q has more than %d digits", s, part, maxDigits)
		default:
			p.nums[i], _ = strconv.ParseUint(part, 10, 64)
			p.n = i + 1
		}
	}
	if hasPre {
		if p.n < 3 {
			return p, fmt.Errorf("%q: a prerelease needs all three numbers (a hyphen range is written A - B)", s)
		}
		if !semver.IsValid("v0.0.0-" + pre) {
			return p, fmt.Errorf("%q: %q is not a prerelease", s, pre)
		}
		p.pre = "-" + pre
	}
	if hasBuild && !semver.IsValid("v0.0.0+"+build) {
		return p, fmt.Errorf("%q: %q is not build metadata", s, build)
	}
	return p, nil
}

// comparator returns the interval of "op p".
func comparator(op string, p partial) (interval, error) {
	switch op {
	case "", "=":
		return p.names(), nil
	case "!=":
		iv := p.names()
		iv.not = !iv.not
		return iv, nil
	case ">":
		switch p.n {
		case 0:
			return nothing, nil
		case 3:
			return interval{lo: p.low(), loOpen: true}, nil
		}
		return interval{lo: p.above()}, nil
	case ">=", "=>":
		return interval{lo: p.low()}, nil
	case "<":
		return interval{hi: p.low(), hiOpen: true}, nil
	case "<=", "=<":
		switch p.n {
		case 0:
			return everything, nil
		case 3:
			return interval{hi: p.low()}, nil
		}
		return interval{hi: p.above(), hiOpen: true}, nil
	case "~", "~>":
		switch p.n {
		case 0:
			return everything, nil
		case 1:
			return interval{lo: p.low(), hi: p.above(), hiOpen: true}, nil
		}
		q := p
		q.n = 2
		return interval{lo: p.low(), hi: q.above(), hiOpen: true}, nil
	case "^":
		if p.n == 0 {
			return everything, nil
		}
		// The first nonzero number given may not change; a number left
		// out counts as nonzero there (^0 is <1.0.0, ^0.0 is <0.1.0).
		hi := fmt.Sprintf("v%d.0.0", p.nums[0]+1)
		switch {
		case p.nums[0] > 0 || p.n == 1:
		case p.nums[1] > 0 || p.n == 2:
			hi = fmt.Sprintf("v0.%d.0", p.nums[1]+1)
		default:
			hi = fmt.Sprintf("v0.0.%d", p.nums[2]+1)
		}
		return interval{lo: p.low(), hi: hi, hiOpen: true}, nil
	}
	return interval{}, fmt.Errorf("unknown operator %q (want =, !=, >, >=, <, <=, ~, ^)", op)
}

// A token of a set: an operator, a version, a comma or a hyphen.
type token struct {
	kind  byte // 'o' operator, 'v' version, ',' or '-'
	text  string
	space bool // white space before it
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isOp(c byte) bool { return strings.IndexByte("<>=!~^", c) >= 0 }

func isVersionChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte(".+-*", c) >= 0
}

func tokenize(s string) ([]token, error) {
	var toks []token
	space := false
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		var kind byte
		switch {
		case isSpace(c):
			space = true
			i++
			continue
		case c == ',':
			kind = ','
		case c == '-':
			kind = '-'
		case isOp(c):
			kind = 'o'
			for j < len(s) && isOp(s[j]) {
				j++
			}
		case isVersionChar(c):
			kind = 'v'
			for j < len(s) && isVersionChar(s[j]) {
				j++
			}
		default:
			return nil, fmt.Errorf("unexpected %q", s[i:i+1])
		}
		toks = append(toks, token{kind: kind, text: s[i:j], space: space || i == 0})
		space = false
		i = j
	}
	return toks, nil
}

// parseSet parses comparators that must all hold.
func parseSet(s string) ([]interval, error) {
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty range")
	}
	var out []interval
	next := func(what string) (token, error) {
		if len(toks) == 0 {
			return token{}, fmt.Errorf("%s is missing at the end", what)
		}
		t := toks[0]
		toks = toks[1:]
		return t, nil
	}
	for len(toks) > 0 {
		if len(out) > 0 && toks[0].kind == ',' {
			toks = toks[1:]
		}
		t, err := next("a version")
		if err != nil {
			return nil, err
		}
		op := ""
		if t.kind == 'o' {
			op = t.text
			if t, err = next("a version after " + op); err != nil {
				return nil, err
			}
		}
		if t.kind != 'v' {
			return nil, fmt.Errorf("unexpected %q, want a version", t.text)
		}
		p, err := parsePartial(t.text)
		if err != nil {
			return nil, err
		}
		if len(toks) > 0 && toks[0].kind == '-' {
			// A hyphen range: "A - B", both plain versions.
			h := toks[0]
			if op != "" {
				return nil, fmt.Errorf("%s%s - ...: a hyphen range takes versions without an operator", op, t.text)
			}
			toks = toks[1:]
			u, err := next("a version after -")
			if err != nil {
				return nil, err
			}
			if !h.space || !u.space || u.kind != 'v' {
				return nil, fmt.Errorf("%s -%s: a hyphen range is written A - B, with spaces around the hyphen and plain versions", t.text, u.text)
			}
			q, err := parsePartial(u.text)
			if err != nil {
				return nil, err
			}
			lo, _ := comparator(">=", p)
			hi, _ := comparator("<=", q)
			out = append(out, lo, hi)
			continue
		}
		iv, err := comparator(op, p)
		if err != nil {
			return nil, err
		}
		out = append(out, iv)
	}
	return out, nil
}
