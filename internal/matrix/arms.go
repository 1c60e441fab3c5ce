package matrix

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// PickArms chooses the arms each client runs in, keyed by its spec
// (name@version): sel, from -arms, when given ("default", "all", or arm
// names, of which each client runs those it knows; a name no client knows
// is an error); else the matrix's arms for the client's name (a name the
// client does not know is an error); else its default arm.
func (m *Matrix) PickArms(clients []client.Client, sel []string) (map[string][]client.Arm, error) {
	out := map[string][]client.Arm{}
	if len(sel) > 0 && !slices.Contains(sel, "all") && !slices.Equal(sel, []string{client.DefaultArmName}) {
		known := map[string]bool{}
		for _, c := range clients {
			var mine []string
			for _, a := range client.ArmsOf(c) {
				if slices.Contains(sel, a.Name) || a.Default && slices.Contains(sel, client.DefaultArmName) {
					mine = append(mine, a.Name)
					known[a.Name] = true
				}
			}
			if len(mine) == 0 {
				continue
			}
			arms, err := client.PickArms(c, mine)
			if err != nil {
				return nil, err
			}
			out[c.Spec().String()] = arms
		}
		for _, n := range sel {
			if !known[n] && n != client.DefaultArmName {
				return nil, fmt.Errorf("-arms: no client has an arm %q (%s)", n, armList(clients))
			}
		}
		return out, nil
	}
	for _, c := range clients {
		names := sel
		if len(names) == 0 {
			names = m.Arms[c.Spec().Name]
		}
		arms, err := client.PickArms(c, names)
		if err != nil {
			return nil, err
		}
		out[c.Spec().String()] = arms
	}
	return out, nil
}

// armList names every client's arms, for errors.
func armList(clients []client.Client) string {
	var parts []string
	for _, c := range clients {
		var names []string
		for _, a := range client.ArmsOf(c) {
			names = append(names, a.Name)
		}
		parts = append(parts, c.Spec().String()+": "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}
