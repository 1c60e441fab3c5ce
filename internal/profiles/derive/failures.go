package derive

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// failureRuns are the runs whose server failed one method on purpose
// (the row's fail) and changed nothing else the client sees: no
// environment, flags or delays.
func failureRuns(runs []run, method string) []run {
	var out []run
	for _, r := range runs {
		if r.Row.Fail == method && len(r.Row.Env) == 0 && len(r.Row.Flags) == 0 && r.Row.InitDelay == 0 && r.Row.DiscoverDelay == 0 {
			out = append(out, r)
		}
	}
	return out
}

// deriveFailures reads what the client did when the server answered a
// method with an error (rows with fail): whether it sent the method, how
// often, whether it ended its session, and what of the server still
// reached the first model request, for each method of
// profiles.FailureMethods that a run measured.
func deriveFailures(runs []run) ([]profiles.Failure, []string) {
	var out []profiles.Failure
	var un []string
	for _, m := range profiles.FailureMethods {
		rs := failureRuns(runs, m)
		if len(rs) == 0 {
			un = append(un, profiles.FailureUnmeasured(m))
			continue
		}
		out = append(out, failure(m, rs))
	}
	return out, un
}

func failure(method string, rs []run) profiles.Failure {
	f := profiles.Failure{Method: method, Runs: len(rs)}
	var exits, instr, tools int
	eras := map[string]int{}
	var reasons []string
	for _, r := range rs {
		n := 0
		for _, x := range r.Handshake.Methods {
			if x == method {
				n++
			}
		}
		if n == 0 {
			continue
		}
		f.Sent++
		f.Tries = max(f.Tries, n)
		if r.Status != "ok" || r.First == nil {
			exits++
			if r.Reason != "" && !slices.Contains(reasons, r.Reason) {
				reasons = append(reasons, r.Reason)
			}
			continue
		}
		if b := r.First.Best(); b != nil {
			instr++
			eras[string(b.Reply)]++
		}
		if slices.ContainsFunc(r.Tools, func(t analyze.ToolFacts) bool { return t.Via != "" }) {
			tools++
		}
	}
	switch {
	case f.Sent == 0:
		f.Note = fmt.Sprintf("None of %d runs sent %s: the failure never reached the client.", len(rs), method)
		return f
	case exits == f.Sent:
		f.Exits = true
		f.Note = fmt.Sprintf("%d of %d runs sent %s and every one ended the session: %s.", f.Sent, len(rs), method, strings.Join(reasons, "; "))
		return f
	}
	ok := f.Sent - exits
	f.Instructions, f.Tools = instr == ok, tools == ok
	if f.Instructions {
		f.Reply = mostOf(eras)
	}
	var parts []string
	parts = append(parts, fmt.Sprintf("%d of %d runs sent %s (at most %s in one)", f.Sent, len(rs), method, timesWord(f.Tries)))
	if exits > 0 {
		parts = append(parts, fmt.Sprintf("%d ended the session (%s), the others went on", exits, strings.Join(reasons, "; ")))
	} else {
		parts = append(parts, "the session went on")
	}
	parts = append(parts, reachedWords("its instructions", instr, ok, eras), reachedWords("its tools", tools, ok, nil))
	f.Note = capitalize(strings.Join(parts, "; ")) + "."
	return f
}

// reachedWords say in how many of n runs what reached the first model
// request.
func reachedWords(what string, k, n int, eras map[string]int) string {
	switch {
	case k == n && len(eras) > 0:
		return fmt.Sprintf("%s reached the first model request (the %s reply's)", what, strings.Join(sortedKeys(keysOf(eras)), " and "))
	case k == n:
		return what + " reached the first model request"
	case k == 0:
		return what + " did not reach the model"
	}
	return fmt.Sprintf("%s reached the first model request in %d of %d runs only", what, k, n)
}

func timesWord(n int) string {
	if n == 1 {
		return "once"
	}
	return table.Num(n) + " times"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// deriveToolMeta reads what became of the one tool whose _meta held a key
// (rows with a tool_meta of one key, nothing else changed): per key and
// value, the limit of that tool's description, as toolLimit reads it.
// The lab puts the _meta on lookup_part.
func deriveToolMeta(runs []run) []profiles.MetaLimit {
	type keyed struct {
		key   string
		value json.RawMessage
		runs  []run
	}
	var out []*keyed
	for _, r := range runs {
		var meta map[string]json.RawMessage
		if len(r.Row.ToolMeta) == 0 || json.Unmarshal([]byte(r.Row.ToolMeta), &meta) != nil || len(meta) != 1 ||
			r.Row.Fail != "" || len(r.Row.Env) > 0 || len(r.Row.Flags) > 0 || r.Row.InitDelay != 0 || r.Row.DiscoverDelay != 0 || r.First == nil {
			continue
		}
		for k, v := range meta {
			i := slices.IndexFunc(out, func(x *keyed) bool { return x.key == k && string(x.value) == string(v) })
			if i < 0 {
				out = append(out, &keyed{key: k, value: v})
				i = len(out) - 1
			}
			r.Tools = slices.DeleteFunc(slices.Clone(r.Tools), func(t analyze.ToolFacts) bool { return t.Name != labvocab.MetaTool })
			out[i].runs = append(out[i].runs, r)
		}
	}
	slices.SortFunc(out, func(a, b *keyed) int { return strings.Compare(a.key+string(a.value), b.key+string(b.value)) })
	var ms []profiles.MetaLimit
	for _, k := range out {
		l, _ := toolLimit(k.runs)
		l.Note = fmt.Sprintf("The tool %s with _meta %s: %s: %s", labvocab.MetaTool, strconv.Quote(k.key), k.value, l.Note)
		ms = append(ms, profiles.MetaLimit{Key: k.key, Value: k.value, Runs: len(k.runs), Limit: l})
	}
	return ms
}
