package main

import (
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
)

// newClients makes the clients -client names (clients.NewList), an unknown
// one a usage error.
func newClients(specs []string) ([]client.Client, error) {
	cs, err := clients.NewList(specs)
	if err != nil {
		return nil, usageError{Msg: "-client: " + err.Error()}
	}
	return cs, nil
}
