package lab

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
)

// TestManyToolsAndALongName: -tools 7 serves seven tools in all, the
// lab's own three first, and -tool-name-length 70 one more whose name is
// 70 characters; each answers a call. The flags go through Args and back.
func TestManyToolsAndALongName(t *testing.T) {
	a, err := ParseArgs([]string{"-tools", "7", "-tool-name-length", "70"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(a.Args(), " "); !strings.Contains(got, "-tools 7 -tool-name-length 70") {
		t.Errorf("Args() = %q, want -tools 7 -tool-name-length 70 among them", got)
	}
	cfg, err := a.Config()
	if err != nil {
		t.Fatal(err)
	}
	p := startPipeServer(t, cfg)
	io.WriteString(p.in, initialize+"\n")
	p.next(5 * time.Second)
	io.WriteString(p.in, initialized+"\n"+toolsList+"\n")
	var list struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(p.next(5*time.Second)), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Result.Tools {
		names = append(names, tl.Name)
		if tl.Name == "tool_0004" && (len(tl.Description) < 300 || !strings.Contains(tl.Description, "codeword")) {
			t.Errorf("tool_0004's description %q: want about 350 characters with a codeword", tl.Description)
		}
	}
	long := labvocab.LongToolName(70)
	want := []string{"lookup_part", "list_bins", "lab_ping", "tool_0004", "tool_0005", "tool_0006", "tool_0007", long}
	slices.Sort(want)
	slices.Sort(names) // the SDK lists them by name
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("tools/list names mismatch (-want +got):\n%s", diff)
	}
	if len(long) != 70 || !strings.HasPrefix(long, "lnameabc") {
		t.Errorf("labvocab.LongToolName(70) = %q (%d bytes)", long, len(long))
	}
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"`+long+`","arguments":{}}}`+"\n")
	if got := p.next(5 * time.Second); !strings.Contains(got, "codeword") || strings.Contains(got, `"isError":true`) {
		t.Errorf("tools/call of the long name: %s", got)
	}
}

// TestManyToolsBounds: a count below the lab's own three or past
// maxTools, and a name length past maxToolNameLength, are refused,
// naming the flag.
func TestManyToolsBounds(t *testing.T) {
	for _, args := range [][]string{{"-tools", "2"}, {"-tools", "5000"}, {"-tools", "-1"}, {"-tool-name-length", "1025"}, {"-tool-name-length", "-3"}} {
		a, err := ParseArgs(args)
		if err == nil {
			err = a.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%q: error %v, want one naming %s", args, err, args[0])
		}
	}
}
