package clients

import (
	"regexp"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
)

// TestArmsOfEveryPinnedClient: each client at its pinned version has one
// default arm, which sets nothing; every other arm sets something and
// says what the code says it does; names are unique and fit -arms.
func TestArmsOfEveryPinnedClient(t *testing.T) {
	name := regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	for _, n := range Names() {
		c, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		defaults := 0
		for _, a := range client.ArmsOf(c) {
			if !name.MatchString(a.Name) || seen[a.Name] || a.Name == "all" {
				t.Errorf("%s: arm name %q (bad or repeated)", c.Spec(), a.Name)
			}
			seen[a.Name] = true
			switch {
			case a.Default:
				defaults++
				if a.How() != "nothing set" {
					t.Errorf("%s: default arm %s sets %s", c.Spec(), a.Name, a.How())
				}
			case a.How() == "nothing set" || a.Says == "":
				t.Errorf("%s: arm %s sets %q and says %q", c.Spec(), a.Name, a.How(), a.Says)
			}
		}
		if defaults != 1 {
			t.Errorf("%s: %d default arms", c.Spec(), defaults)
		}
	}
}
