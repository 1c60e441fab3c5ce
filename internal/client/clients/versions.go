package clients

import (
	"context"
	"fmt"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
)

// Versions lists what npm serves of the package of the client name, the
// versions a sweep selects from.
func Versions(ctx context.Context, name string) ([]string, error) {
	p, err := published(name, "its versions")
	if err != nil {
		return nil, err
	}
	return npm.Versions(ctx, p.Package())
}

// Released is the day npm says each version of the package of the client
// name was published (npm.Released), the dates a sweep keeps.
func Released(ctx context.Context, name string) (map[string]string, error) {
	p, err := published(name, "its release dates")
	if err != nil {
		return nil, err
	}
	return npm.Released(ctx, p.Package())
}

// published is the adapter of the client name as an npm package; what
// names what cannot be listed otherwise.
func published(name, what string) (client.Published, error) {
	c, err := New(name)
	if err != nil {
		return nil, err
	}
	p, ok := c.(client.Published)
	if !ok {
		return nil, fmt.Errorf("%s is not installed from npm: %s cannot be listed", name, what)
	}
	return p, nil
}
