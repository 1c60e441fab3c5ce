package clients

import (
	"context"
	"fmt"
	"io"

	"github.com/instrlab/instrlab/internal/client"
)

// All stands, among the specs of NewList, for every known client that
// pins a version, at that version.
const All = "all"

// NewList makes the clients specs name (each as New reads it, All, or a
// version word that Resolve reads: NAME@newest, NAME@pinned, newest), in
// order, saying on progress what each newest resolved to: npm is asked
// (Versions) only when a spec names newest.
func NewList(ctx context.Context, specs []string, progress io.Writer) ([]client.Client, error) {
	specs, rs, err := Resolve(ctx, specs, Versions)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		fmt.Fprintf(progress, "-client %s (the newest release npm lists)\n", r)
	}
	var cs []client.Client
	for _, s := range specs {
		if s == All {
			cs = append(cs, pinned()...)
			continue
		}
		c, err := New(s)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}
