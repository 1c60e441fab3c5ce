package assess

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// A FailureView is what a profile says its client does with a method this
// server failed: a JSON-RPC error to initialize, to the server/discover
// probe, or to tools/list in the era the client is in.
type FailureView struct {
	Method string `json:"method"`
	// Effect is "exits" (the client ends its whole session), "drops" (it
	// goes on without the server: nothing of it reaches the model),
	// "keeps" (it goes on with what the server gave), or NotMeasured.
	Effect string `json:"effect"`
	// Measured is false when the profile did not measure this failure:
	// the view then predicts as if the client went on with what it got.
	Measured bool   `json:"measured"`
	Note     string `json:"note"`
}

// Failure effects.
const (
	EffectExits = "exits"
	EffectDrops = "drops"
	EffectKeeps = "keeps"
)

// failed is the method of r whose JSON-RPC error a client following p
// meets on its way to era e, or "": the probe (when p probes and the error
// is not one of those a probing client expects: -32601, -32022),
// initialize (when no era answered, and not with a modern server's
// -32022), tools/list (in e).
func failed(p profiles.Profile, r probe.Result, probes bool, e probe.EraResult) string {
	switch {
	case probes && r.Modern.Outcome == probe.OutcomeError && r.Modern.Error != nil && !slices.Contains([]int{-32601, -32022}, r.Modern.Error.Code):
		return "server/discover"
	case e.Era == "" && r.Legacy.Outcome == probe.OutcomeError && (r.Legacy.Error == nil || r.Legacy.Error.Code != -32022):
		return "initialize" // -32022 is a modern server's refusal, not a failure
	case e.ToolsError != "" && !noToolsCapability(e):
		return "tools/list"
	}
	return ""
}

// noToolsCapability reports the tools/list error of a server that
// declared no tools and says so with -32601: nothing failed.
func noToolsCapability(e probe.EraResult) bool {
	return !slices.Contains(e.Capabilities, "tools") && strings.Contains(e.ToolsError, "error -32601")
}

// failureView is what p measured of a failure of method, and whether the
// client then drops the server (the view shows nothing).
func failureView(p profiles.Profile, method string) (fv *FailureView, drops bool) {
	f := p.Failure(method)
	if f == nil {
		return &FailureView{Method: method, Effect: NotMeasured,
			Note: fmt.Sprintf("%s failed; what it does then is %s (shown: as if it went on with what it got)", method, NotMeasured)}, false
	}
	fv = &FailureView{Method: method, Measured: true}
	runs := fmt.Sprintf("measured, %d of %d runs", f.Sent, f.Runs)
	switch {
	case f.Sent == 0:
		fv.Effect, fv.Note = EffectKeeps, fmt.Sprintf("%s failed, and it does not send it (%s)", method, fmt.Sprintf("measured, %d runs", f.Runs))
	case f.Exits:
		fv.Effect, fv.Note = EffectExits, fmt.Sprintf("%s failed, and it ends its whole session on it, every server with it (%s)", method, runs)
		return fv, true
	case !f.Instructions && !f.Tools:
		fv.Effect, fv.Note = EffectDrops, fmt.Sprintf("%s failed, and it drops the whole server: nothing of it reaches the model (%s)", method, runs)
		return fv, true
	case method == "server/discover":
		fv.Effect, fv.Note = EffectKeeps, fmt.Sprintf("%s failed, and it falls back to initialize (%s)", method, runs)
	case method == "tools/list" && f.Instructions:
		fv.Effect, fv.Note = EffectKeeps, fmt.Sprintf("%s failed, and it still puts the instructions in the model's context, without the server's tools (%s)", method, runs)
	default:
		fv.Effect, fv.Note = EffectKeeps, fmt.Sprintf("%s failed, and it goes on without the server (%s)", method, runs)
	}
	return fv, false
}
