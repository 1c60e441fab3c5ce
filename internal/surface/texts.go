package surface

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

// The lists whose texts Texts looks for (TextFact.List).
const (
	ListPrompts   = "prompts/list"
	ListResources = "resources/list"
	ListTemplates = "resources/templates/list"
	ListTools     = "tools/list"
)

// A TextFact says whether one text a server listed, beside its
// instructions and tool descriptions, reached the model, and where: a
// prompt's name, title, description or argument description; a resource's
// or template's name, URI, title or description; a tool's title,
// annotations title, string _meta value or icon.
type TextFact struct {
	// List is the method whose reply carried the text (List*), Item the
	// name of its prompt, resource, template or tool; Found.Part names the
	// text ("title", "argument part description", "_meta lab/note").
	List string `json:"list"`
	Item string `json:"item"`
	// Found is where the text was in the first main request (the first
	// that defines tools), or, when not there, in the first later request
	// that carries it (a deferred tool's text after the client's loader);
	// Request is that request, 0 when none does; First says it is the
	// first main request.
	Found
	Request int  `json:"request,omitempty"`
	First   bool `json:"first,omitempty"`
	// Undefined says the text is a tool's whose definition no request
	// sent (deferred and never loaded, or not offered): a text not found
	// is then not measured, rather than dropped.
	Undefined bool `json:"undefined,omitempty"`
}

// Texts looks for each text of the last prompts/list, resources/list,
// resources/templates/list and tools/list reply in log, from the first
// main request of reqs on; defs are Tools(reqs, log), which say whether a
// tool was defined at all. A name is looked for with the item's other
// texts taken out of the request (the lab's texts start with the item's
// name, as "lab_prompt title codeword: …"), so it is found only where the
// client names the item on its own.
func Texts(reqs []Request, log []lab.Entry, defs []ToolDef) []TextFact {
	first := slices.IndexFunc(reqs, func(r Request) bool { return hasDefinitions(r.Context) })
	if first < 0 {
		return nil
	}
	var out []TextFact
	for _, it := range listedTexts(log) {
		var others []string
		for _, p := range it.parts {
			if p.Name != "name" {
				others = append(others, p.Needle)
			}
		}
		for _, p := range it.parts {
			t := TextFact{List: it.list, Item: it.name, Found: Found{Part: p.Name, SentForm: p.Form, Sent: p.Sent}}
			if it.list == ListTools {
				t.Undefined = !slices.ContainsFunc(defs, func(d ToolDef) bool { return d.Tool == it.name && d.Via != ViaNone })
			}
			for i := first; i < len(reqs); i++ {
				ctx := reqs[i].Context
				if p.Name == "name" {
					ctx = without(ctx, others)
				}
				if f := Locate(ctx, "", p); f.Reached {
					t.Found, t.Request, t.First = f, reqs[i].Seq, i == first
					break
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// Unasked are the lists a server declared in its handshake's capabilities
// (prompts: ListPrompts; resources: ListResources and ListTemplates) that
// the client never asked for: their texts cannot have reached the model.
func Unasked(log []lab.Entry) []string {
	asked := map[string]bool{}
	var caps struct {
		Result struct {
			Capabilities struct {
				Prompts, Resources json.RawMessage
			}
		}
	}
	declared := false
	for _, e := range log {
		switch {
		case e.Dir == lab.Recv:
			asked[e.Method] = true
		case !declared && e.Dir == lab.Send && e.Kind == lab.KindResponse && (e.Method == "initialize" || e.Method == "server/discover"):
			declared = json.Unmarshal(e.Body, &caps) == nil
		}
	}
	var out []string
	c := caps.Result.Capabilities
	for _, l := range []struct {
		list string
		has  bool
	}{{ListPrompts, len(c.Prompts) > 0}, {ListResources, len(c.Resources) > 0}, {ListTemplates, len(c.Resources) > 0}} {
		if l.has && !asked[l.list] {
			out = append(out, l.list)
		}
	}
	return out
}

// without is ctx with each of texts taken out of its segments' text.
func without(ctx fakeapi.Context, texts []string) fakeapi.Context {
	out := make(fakeapi.Context, len(ctx))
	for i, s := range ctx {
		for _, t := range texts {
			for _, f := range fakeapi.Forms(t) {
				s.Text = strings.ReplaceAll(s.Text, f.Text, "")
			}
		}
		out[i] = s
	}
	return out
}

// A listedItem is one prompt, resource, template or tool of a list reply,
// with its texts as Parts.
type listedItem struct {
	list, name string
	parts      []Part
}

// listReply is the part of a list method's reply listedTexts reads.
type listReply struct {
	Result struct {
		Prompts []struct {
			Name, Title, Description string
			Arguments                []struct{ Name, Description string }
		}
		Resources []struct {
			Name, Title, Description, URI string
		}
		ResourceTemplates []struct {
			Name, Title, Description, URITemplate string
		}
		Tools []struct {
			Name, Title string
			Annotations map[string]any
			Meta        map[string]any `json:"_meta"`
			Icons       []struct {
				Src string `json:"src"`
			}
		}
	}
}

// listedTexts reads the texts of the last reply of each list method in
// log, in the order of ListPrompts, ListResources, ListTemplates,
// ListTools and of each reply. An icon is its base64 data, looked for as
// an image is.
func listedTexts(log []lab.Entry) []listedItem {
	last := map[string]json.RawMessage{}
	for _, e := range log {
		if e.Dir == lab.Send && e.Kind == lab.KindResponse && len(e.Body) > 0 {
			last[e.Method] = e.Body
		}
	}
	var out []listedItem
	add := func(list, name string, parts ...Part) {
		it := listedItem{list: list, name: name}
		for _, p := range parts {
			if p.Needle != "" {
				it.parts = append(it.parts, p)
			}
		}
		if len(it.parts) > 0 {
			out = append(out, it)
		}
	}
	txt := func(name, value string) Part { return part(name, FormText, value) }
	for _, list := range []string{ListPrompts, ListResources, ListTemplates, ListTools} {
		var reply listReply
		if json.Unmarshal(last[list], &reply) != nil {
			continue
		}
		r := reply.Result
		for _, p := range r.Prompts {
			parts := []Part{txt("name", p.Name), txt("title", p.Title), txt("description", p.Description)}
			for _, a := range p.Arguments {
				parts = append(parts, txt("argument "+a.Name+" description", a.Description))
			}
			add(list, p.Name, parts...)
		}
		for _, x := range r.Resources {
			add(list, x.Name, txt("name", x.Name), txt("uri", x.URI), txt("title", x.Title), txt("description", x.Description))
		}
		for _, x := range r.ResourceTemplates {
			add(list, x.Name, txt("name", x.Name), txt("uri", x.URITemplate), txt("title", x.Title), txt("description", x.Description))
		}
		for _, t := range r.Tools {
			title, _ := t.Annotations["title"].(string)
			parts := []Part{txt("title", t.Title), txt("annotations title", title)}
			// A boolean has no text of its own: it is looked for by its
			// key (readOnlyHint, anthropic/alwaysLoad), which a client
			// that passed it on would name.
			for _, k := range slices.Sorted(maps.Keys(t.Annotations)) {
				if _, ok := t.Annotations[k].(bool); ok {
					parts = append(parts, txt("annotations "+k, k))
				}
			}
			for _, k := range slices.Sorted(maps.Keys(t.Meta)) {
				switch v := t.Meta[k].(type) {
				case string:
					parts = append(parts, txt("_meta "+k, v))
				case bool:
					parts = append(parts, txt("_meta "+k, k))
				}
			}
			if len(t.Icons) > 0 {
				if _, data, ok := strings.Cut(t.Icons[0].Src, ";base64,"); ok {
					parts = append(parts, part("icon", FormImage, data))
				}
			}
			add(list, t.Name, parts...)
		}
	}
	return out
}
