package assess

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
)

// merge makes one finding of those that say the same (severity, code,
// rule, tool, message) of different clients or ways of running them,
// naming them all, and drops repeats of a finding about the server;
// those that fail first, then by severity, each in the order found.
func merge(l []Finding, views []View) []Finding {
	type key struct {
		severity                         loss.Severity
		fails                            bool
		code, rule, tool, message, about string
	}
	var out []Finding
	at := map[key]int{}
	for _, f := range l {
		k := key{f.Severity, f.Fails, string(f.Code), f.Rule, f.Tool, f.Message, f.about}
		i, seen := at[k]
		if !seen {
			i = len(out)
			at[k] = i
			g := f
			g.For = nil
			out = append(out, g)
		}
		out[i].For = mergeHolders(out[i].For, f.For)
	}
	for i := range out {
		summarize(out[i].For, views)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		if a.Fails != b.Fails {
			return boolInt(b.Fails) - boolInt(a.Fails)
		}
		return a.Severity.Rank() - b.Severity.Rank()
	})
	for i := range out {
		out[i].Level = out[i].level()
	}
	return out
}

// Whom names the clients a finding holds for, each with the ways it
// holds in: "Claude Code 2.1.285 (v2, reminder); Codex CLI 0.169.0"; ""
// for a finding about the server alone.
func (f Finding) Whom() string {
	var parts []string
	for _, h := range f.For {
		parts = append(parts, h.String())
	}
	return strings.Join(parts, "; ")
}

// String is the client with the ways it holds in, in words: "Claude
// Code 2.1.285 (v2, reminder)"; the client alone when it has one way.
func (h Holder) String() string {
	if h.Summary == "" {
		return h.Client
	}
	return h.Client + " (" + h.Summary + ")"
}

// A way is a way of running a client as a view shows it: its name
// (View.Way), its arm and the rest (a model, a flag), each "" for the
// client's default.
type way struct{ name, arm, rest string }

// waysOf lists the ways of the views of one client version, in order.
func waysOf(views []View, profile, client string) []way {
	var u []way
	for _, v := range views {
		if v.Profile == profile && v.Client == client {
			rest := v.Way
			if v.Arm != "" && strings.HasPrefix(rest, v.Arm) {
				rest = strings.TrimPrefix(strings.TrimPrefix(rest, v.Arm), " + ")
			}
			u = append(u, way{v.Way, v.Arm, rest})
		}
	}
	return u
}

// waysSummary says in words in which of the client's ways u the ways
// named hold: "" when the client has one way; "every way measured" when
// all; else, per rest (a model, a flag), the arms it holds in ("every
// arm", "every arm but" the few others, or a list), rests with the same
// arms said together ("every arm but seed, with the default model or
// model gpt-5.5").
func waysSummary(names []string, u []way) string {
	if len(u) <= 1 {
		return ""
	}
	switch {
	case len(names) == len(u):
		return "every way measured"
	case len(names) == 1 && names[0] != "":
		return names[0]
	}
	var arms, rests []string
	for _, w := range u {
		if !slices.Contains(arms, w.arm) {
			arms = append(arms, w.arm)
		}
		if !slices.Contains(rests, w.rest) {
			rests = append(rests, w.rest)
		}
	}
	models := !slices.ContainsFunc(rests, func(r string) bool { return r != "" && !strings.HasPrefix(r, "model ") })
	var phrases, withs []string
	for _, r := range rests {
		var in, all []string
		for _, w := range u {
			if w.rest != r {
				continue
			}
			all = append(all, w.arm)
			if slices.Contains(names, w.name) {
				in = append(in, w.arm)
			}
		}
		if len(in) == 0 {
			continue
		}
		ph := armsPhrase(in, all, len(arms) > 1)
		if i := slices.Index(phrases, ph); i >= 0 {
			withs[i] += " or " + restName(r, models)
			continue
		}
		phrases, withs = append(phrases, ph), append(withs, restName(r, models))
	}
	var parts []string
	for i, ph := range phrases {
		switch {
		case len(rests) == 1:
			parts = append(parts, ph)
		case ph == "":
			parts = append(parts, strings.TrimPrefix(withs[i], "the "))
		case ph == armName(""):
			parts = append(parts, "the default arm, with "+withs[i])
		default:
			parts = append(parts, ph+", with "+withs[i])
		}
	}
	return strings.Join(parts, "; ")
}

// armsPhrase names the arms in, of all: every one, every one but a few,
// or a list; "" when the client declares no arms.
func armsPhrase(in, all []string, hasArms bool) string {
	switch {
	case !hasArms:
		return ""
	case len(in) == len(all) && len(all) > 1:
		return "every arm"
	case len(in) > 2 && 2*(len(all)-len(in)) < len(in):
		var out []string
		for _, a := range all {
			if !slices.Contains(in, a) {
				out = append(out, armName(a))
			}
		}
		return "every arm but " + strings.Join(out, ", ")
	}
	names := make([]string, len(in))
	for i, a := range in {
		names[i] = armName(a)
	}
	return strings.Join(names, ", ")
}

func armName(a string) string {
	if a == "" {
		return "default"
	}
	return a
}

// restName names a rest of a way (a model, a flag), "" its default: the
// default model when every other rest names a model.
func restName(r string, models bool) string {
	switch {
	case r != "":
		return r
	case models:
		return "the default model"
	}
	return "the default"
}

// Text is the finding's message with the clients it holds for first, as
// one line: "Codex CLI 0.169.0 (default, model gpt-5.5): keeps 247 of
// ...", "Cline CLI 3.0.65: tool echo: ...".
func (f Finding) Text() string {
	if w := f.Whom(); w != "" {
		return w + ": " + f.Said()
	}
	return f.Said()
}

// Said is the finding's message with its tool first: "tool echo: ...".
func (f Finding) Said() string {
	if f.Tool != "" {
		return "tool " + f.Tool + ": " + f.Message
	}
	return f.Message
}

// Fingerprint identifies the finding on server from one check to the
// next, whatever its numbers (a time, a length): its code, rule, the
// clients and ways it holds for, and what tells it from another finding
// of its code for them (an era, a tool, a phrase).
func (f Finding) Fingerprint(server string) string {
	h := sha256.New()
	parts := []string{"v1", server, string(f.Code), f.Rule, f.about}
	for _, c := range f.For {
		parts = append(parts, c.Profile, strings.Join(c.Ways, ","))
	}
	h.Write([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h.Sum(nil))
}
