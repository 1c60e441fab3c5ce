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
	c, err := New(name)
	if err != nil {
		return nil, err
	}
	p, ok := c.(client.Published)
	if !ok {
		return nil, fmt.Errorf("%s is not installed from npm: its versions cannot be listed", name)
	}
	return npm.Versions(ctx, p.Package())
}
