package matrix

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/lab"
)

var twoLabs = Row{Name: "servers", Label: "two", Args: lab.Args{Instr: "ascii:1000"}, Servers: []LabServer{{Name: "beta"}, {Name: "alpha", Instr: "ascii:2000"}, {Name: "gamma"}}}

func TestValidateServers(t *testing.T) {
	for _, tc := range []struct {
		servers []LabServer
		server  string
		want    string
	}{
		{[]LabServer{{Name: ServerName}}, "", "two or more"},
		{[]LabServer{{Name: "a b"}}, "", "name"},
		{[]LabServer{{Name: "a"}, {Name: "a"}}, "", `two servers named "a"`},
		{[]LabServer{{Name: "a"}, {Name: "b c"}}, "", "name"},
		{[]LabServer{{Name: "a"}, {Name: ""}}, "", "name"},
		{[]LabServer{{Name: "a"}, {Name: "b", Instr: "ascii:x"}}, "", `server "b"`},
		{[]LabServer{{Name: "a"}, {Name: "b"}}, "mine", "drop server"},
	} {
		row := Row{Name: "r", Args: lab.Args{Instr: "ascii:1000"}, Servers: tc.servers}
		if tc.server != "" {
			row.Instr, row.Server = "none", tc.server
		}
		m := &Matrix{Name: "m", Prompt: "p", Rows: []Row{row}}
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("servers %+v: error %v, want one naming %q", tc.servers, err, tc.want)
		}
	}
	ok := &Matrix{Name: "m", Prompt: "p", Rows: []Row{twoLabs}}
	if err := ok.Validate(); err != nil {
		t.Errorf("three servers: %v", err)
	}
	renamed := &Matrix{Name: "m", Prompt: "p", Rows: []Row{{Name: "r", Args: lab.Args{Instr: "none"}, Servers: []LabServer{{Name: ServerNameHyphen}}}}}
	if err := renamed.Validate(); err != nil {
		t.Errorf("the lab under another name: %v", err)
	}
}
