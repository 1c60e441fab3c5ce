package main

import (
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
)

// newClients makes the clients -client names; "all" stands for every known
// client that pins a version, at that version.
func newClients(specs []string) ([]client.Client, error) {
	var cs []client.Client
	for _, s := range specs {
		if s != "all" {
			c, err := clients.New(s)
			if err != nil {
				return nil, usageError{"-client: " + err.Error()}
			}
			cs = append(cs, c)
			continue
		}
		for _, n := range clients.Names() {
			if c, err := clients.New(n); err == nil && c.Spec().Version != "" {
				cs = append(cs, c)
			}
		}
	}
	return cs, nil
}
