package continuecli

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose help was read: --auto (every
// tool allowed, what every run passes), neither mode flag, and --readonly.
var arms = map[string][]client.Arm{
	"1.5.47": {
		{Name: "default", Default: true, Says: "--auto: \"Start in auto mode (all tools allowed)\""},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "no --auto: its default tool policies (cn -p)"},
		{Name: "approval-plan", Approval: client.ApprovalPlan,
			Says: "--readonly: \"Start in plan mode (read-only tools)\""},
	},
}

// Arms implements client.Armed.
func (c *Continue) Arms() []client.Arm { return arms[c.Version] }
