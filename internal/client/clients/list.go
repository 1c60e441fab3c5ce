package clients

import "github.com/instrlab/instrlab/internal/client"

// All stands, among the specs of NewList, for every known client that
// pins a version, at that version.
const All = "all"

// NewList makes the clients specs name (each as New reads it, or All), in
// order.
func NewList(specs []string) ([]client.Client, error) {
	var cs []client.Client
	for _, s := range specs {
		if s != All {
			c, err := New(s)
			if err != nil {
				return nil, err
			}
			cs = append(cs, c)
			continue
		}
		for _, n := range Names() {
			if c, err := New(n); err == nil && c.Spec().Version != "" {
				cs = append(cs, c)
			}
		}
	}
	return cs, nil
}
