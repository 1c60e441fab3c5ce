package profiles

// An Approval is what a client did with calls of a server's tools in one
// approval mode, measured on the surface-approval row (the lab's meta
// group, each tool called once per run): per tool, by its annotations,
// whether the call ran, was refused (and what the model got instead), or
// got no result before the run ended.
type Approval struct {
	// Arm is the client's arm of the runs, "" for its default arm; Mode
	// is the arm's approval mode (client.Approval*), "" where every tool
	// of the run's servers was approved beforehand.
	Arm  string `json:"arm,omitempty"`
	Mode string `json:"mode,omitempty"`
	// Model is the model the runs' requests named, when not the
	// profile's.
	Model string `json:"model,omitempty"`
	Runs  int    `json:"runs"`
	// Failed counts the runs that ended in failure (the client exited
	// with an error, or the run's timeout); Ended is how the first of them
	// ended, in the client's words when it printed any.
	Failed int            `json:"failed,omitempty"`
	Ended  string         `json:"ended,omitempty"`
	Tools  []ToolApproval `json:"tools"`
}

// The approval modes an Approval may be in besides "" (Mode), as the
// clients' arms name them (client.ApprovalDefault, client.ApprovalPlan).
const (
	ModeDefault = "default"
	ModePlan    = "plan"
)

// Approval is what p measured in approval mode mode ("" for the matrix's
// way, every tool approved beforehand, in the client's default arm), nil
// when it did not.
func (p Profile) Approval(mode string) *Approval {
	for i, a := range p.Approvals {
		if a.Mode == mode && (mode != "" || a.Arm == "") {
			return &p.Approvals[i]
		}
	}
	return nil
}

// A ToolApproval is what became of the calls of one tool.
type ToolApproval struct {
	Tool string `json:"tool"`
	// Hints is the class of the tool's annotations (Hints*).
	Hints string `json:"hints"`
	// Fate is Approval* when every run agrees, else FateVaries.
	Fate string `json:"fate"`
	// Told is how the result the model got in place of the tool's
	// begins, when it was refused: the client's words, the name the
	// client gave the tool replaced by ToolPlaceholder, a number with a
	// fraction (a duration) by N.
	Told string `json:"told,omitempty"`
	// Ran counts the runs in which the call ran, when the fate varies.
	Ran int `json:"ran,omitempty"`
}

// What became of the calls of a tool in an approval mode
// (ToolApproval.Fate).
const (
	ApprovalRan        = "ran"         // the server got the call, the model its result
	ApprovalRefused    = "refused"     // the server never got it; the model got the client's words
	ApprovalNoResult   = "no result"   // no result reached the model before the run ended
	ApprovalNotOffered = "not offered" // the client never offered the tool to the model
	ApprovalNotCalled  = "not called"  // offered, and no request led to the call
	ApprovalNotListed  = "not listed"  // the server's tools/list did not name it
)

// ToolPlaceholder stands for the tool's name in ToolApproval.Told.
const ToolPlaceholder = "{tool}"

// The classes of a tool's annotations a client may decide a call by
// (Hints): MCP's defaults make a tool without them one that may write and
// destroy.
const (
	HintsReadOnly       = "read-only"       // readOnlyHint true
	HintsDestructive    = "destructive"     // destructiveHint true, not read-only
	HintsNotDestructive = "not destructive" // destructiveHint false, not read-only
	HintsNone           = "none"            // neither hint set
)

// Hints classes a tool's annotations, as a tools/list result holds them
// (nil for none): read-only first, since MCP says destructiveHint means
// nothing for a read-only tool.
func Hints(annotations map[string]any) string {
	if ro, _ := annotations["readOnlyHint"].(bool); ro {
		return HintsReadOnly
	}
	switch d, ok := annotations["destructiveHint"].(bool); {
	case !ok:
		return HintsNone
	case d:
		return HintsDestructive
	default:
		return HintsNotDestructive
	}
}
