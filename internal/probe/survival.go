package probe

// Survival is what a server does with server/discover when it is not
// modern, and what a probing client gets next on the same connection. A
// dual-era client probes first, so a legacy server that exits on the probe
// is lost to it, and one that stays silent costs it the client's whole
// probe timeout.
type Survival struct {
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
	// Wait is how long a probing client waits before it knows to fall
	// back: until the reply or the exit, or, for silence, its own timeout
	// (this probe's timeout here).
	Wait Millis `json:"wait_ms"`
	// Fallback is initialize sent on the same process after the probe
	// (stdio only).
	Fallback *Fallback `json:"fallback,omitempty"`
}

// Survival verdicts.
const (
	SurvivalModern         = "modern"           // a DiscoverResult: nothing to survive
	SurvivalMethodNotFound = "method-not-found" // -32601, the answer the specification expects
	SurvivalOtherError     = "other-error"      // another error: clients fall back, the spec allows it
	SurvivalExit           = "exit"             // the server exited: a client probing on it loses it
	SurvivalExitAtStart    = "exit-at-start"    // it exits whatever it is sent: initialize too
	SurvivalSilent         = "silent"           // no answer: a client waits out its timeout
	SurvivalInvalid        = "invalid"          // not JSON-RPC
	SurvivalNoStart        = "no-start"         // nothing to probe
)

// A Fallback is the reply to initialize sent after the probe.
type Fallback struct {
	Outcome      Outcome `json:"outcome"`
	Detail       string  `json:"detail,omitempty"`
	Elapsed      Millis  `json:"elapsed_ms"`
	Instructions *string `json:"instructions,omitempty"`
}

// survival classifies the modern era's first reply.
func survival(r EraResult) Survival {
	s := Survival{Detail: r.Detail, Wait: r.FirstReply}
	switch r.Outcome {
	case OutcomeOK:
		s.Verdict = SurvivalModern
	case OutcomeError:
		s.Verdict = SurvivalOtherError
		if r.Error != nil && r.Error.Code == -32601 {
			s.Verdict = SurvivalMethodNotFound
		}
	case OutcomeExit:
		s.Verdict = SurvivalExit
		s.Wait = r.Elapsed
	case OutcomeSilent:
		s.Verdict = SurvivalSilent
		s.Wait = r.Elapsed
	case OutcomeInvalid:
		s.Verdict = SurvivalInvalid
		s.Wait = r.Elapsed
	default:
		s.Verdict = SurvivalNoStart
	}
	return s
}
