package profiles

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestFieldsDocumented holds docs/profiles.md's list of a profile's fields
// (from "Every profile names its evidence" to the
// next heading) to the profile format: every member of a profile, and of
// the parts that list spells out (a limit, its _meta limits and setting,
// the render, a failure, the handshake, the start-up, a variant, the
// evidence, a budget, an approval, the protocol facts, the HTTP view), is
// named in it in backquotes, each of those parts with the page that says
// how it is measured; the surface, whose members its own page lists, too. A member added to the format fails it until the
// manual says what it is.
func TestFieldsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/profiles.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "Every profile names its evidence")
	if start < 0 {
		t.Fatal(`docs/profiles.md has no "Every profile names its evidence"`)
	}
	list := doc[start:]
	list = list[:strings.Index(list, "\n#")]
	spelled := []reflect.Type{reflect.TypeFor[Profile](), reflect.TypeFor[Limit](), reflect.TypeFor[MetaLimit](), reflect.TypeFor[Setting](),
		reflect.TypeFor[Render](), reflect.TypeFor[Failure](), reflect.TypeFor[Handshake](), reflect.TypeFor[Startup](),
		reflect.TypeFor[Variant](), reflect.TypeFor[Evidence](), reflect.TypeFor[Budget](), reflect.TypeFor[SecondLimit](),
		reflect.TypeFor[Approval](), reflect.TypeFor[ToolApproval](), reflect.TypeFor[Protocol](), reflect.TypeFor[ProtocolFact](),
		reflect.TypeFor[HTTPView]()}
	for _, typ := range spelled {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !strings.Contains(list, "`"+name+"`") {
				t.Errorf("docs/profiles.md's list of a profile's fields does not name %s's member `%s`", typ.Name(), name)
			}
		}
	}
	for name, page := range map[string]string{"surface": "surface.md", "budgets": "budgets.md", "approvals": "arms.md", "protocol": "protocol.md", "http": "clients.md"} {
		i := strings.Index(list, "`"+name+"`")
		if i < 0 || !strings.Contains(list[i:min(len(list), i+400)], page) {
			t.Errorf("docs/profiles.md's list of a profile's fields names `%s` without the page that lists its members (%s)", name, page)
		}
	}
}
