package copilot

import "github.com/instrlab/instrlab/internal/client"

// AllowAllTools is the flag that lets every tool run without a
// confirmation, which copilot --help calls required for non-interactive
// mode; every run passes it but in an approval arm.
const AllowAllTools = "--allow-all-tools"

// arms are the arms of the versions whose help was read: its default,
// with every tool allowed, and its own without the flag.
var arms = map[string][]client.Arm{
	"1.0.102": {
		{Name: "default", Default: true, Says: AllowAllTools + ": every tool runs without a confirmation"},
		{Name: "approval-default", Approval: client.ApprovalDefault,
			Says: "no " + AllowAllTools + " (its help: \"required for non-interactive mode\")"},
	},
}

// Arms implements client.Armed.
func (c *Copilot) Arms() []client.Arm { return arms[c.Version] }
