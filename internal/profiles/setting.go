package profiles

import (
	"math"
	"strconv"
)

// EffectiveCap is the cap l applies when its setting's environment
// variable has the given value (and is set; an empty value counts as
// unset). It also says why: "default", "set", or "ignored" when the value
// is not one the client accepts.
func (l Limit) EffectiveCap(value string, set bool) (int, string) {
	if l.Setting == nil || !set || value == "" {
		return l.Cap, "default"
	}
	n, ok := ParseSetting(l.Setting.Syntax, value)
	if !ok {
		return l.Cap, "ignored"
	}
	return n, "set"
}

// ParseSetting parses a cap setting's value in the given syntax. For
// SyntaxPlainDigits only ASCII digits are accepted, and the number must be
// positive; a number too large for an int is taken as the largest int.
func ParseSetting(syntax, value string) (int, bool) {
	if syntax != SyntaxPlainDigits || value == "" {
		return 0, false
	}
	for i := 0; i < len(value); i++ {
		if value[i] < '0' || value[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(value)
	if err != nil { // only digits, so the number is out of range
		n = math.MaxInt
	}
	if n <= 0 {
		return 0, false
	}
	return n, true
}
