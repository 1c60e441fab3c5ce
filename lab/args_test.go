package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestArgsRoundTrip: what Args writes, ParseArgs reads back, for every
// field set away from its default.
func TestArgsRoundTrip(t *testing.T) {
	a := Args{Instr: "japanese:1200", ToolDesc: "ascii:3000", Eras: ModeBoth, InitDelay: 1500 * time.Millisecond, DiscoverDelay: 2 * time.Second,
		ReadyAfter: 700 * time.Millisecond, OnUnknown: UnknownHang, Fail: "tools/list,server/discover", ToolMeta: `{"k":1}`, Log: "/x/lab.jsonl", HTTP: "127.0.0.1:0", AllowRemote: true, Seed: "b",
		Surface: "results,names", ResultSize: "japanese:5000", ToolOrder: OrderRotate}
	got, err := ParseArgs(a.Args())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	want := []string{"-instr", "ascii:1000", "-eras", "legacy", "-init-delay", "8s", "-log", "/x/lab.jsonl"}
	if diff := cmp.Diff(want, Args{Instr: "ascii:1000", Eras: ModeLegacy, InitDelay: 8 * time.Second, Log: "/x/lab.jsonl"}.Args()); diff != "" {
		t.Errorf("Args mismatch (-want +got):\n%s", diff)
	}
}

func TestParseArgsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-instr", "none", "-instr-file", "x.md"}, "-instr and -instr-file are exclusive"},
		{[]string{"-tool-desc", "ascii:10", "-tool-desc-file", "x.md"}, "-tool-desc and -tool-desc-file are exclusive"},
		{[]string{"-print", "-log", "x"}, "-print serves nothing"},
		{[]string{"-allow-remote"}, "-allow-remote applies to -http only"},
		{[]string{"-init-delay", "8"}, `invalid value "8" for flag -init-delay`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		_, err := ParseArgs(tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseArgs(%q) = %v, want %q", tt.args, err, tt.want)
		}
	}
	if err := (Args{ToolOrder: "random"}).Validate(); err == nil || err.Error() != `-tool-order "random": want name or rotate` {
		t.Errorf("Validate with a bad -tool-order: %v", err)
	}
	if _, err := (Args{Instr: "ascii:x"}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-instr: ") {
		t.Errorf("Config with a bad -instr: %v", err)
	}
	if _, err := (Args{Instr: "none", ToolDesc: "ascii:x"}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-tool-desc: ") {
		t.Errorf("Config with a bad -tool-desc: %v", err)
	}
	if _, err := (Args{Instr: "none", ToolDescFile: "/no/such/file"}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-tool-desc: ") {
		t.Errorf("Config with a missing -tool-desc-file: %v", err)
	}
}

// TestArgsZeroIsDefault: a zero field means the flag's default in Config
// too, as in Args, so Args{} configures the lab "serve lab" starts with
// no flags.
func TestArgsZeroIsDefault(t *testing.T) {
	got, err := Args{}.Config()
	if err != nil {
		t.Fatalf("Args{}.Config(): %v", err)
	}
	want, err := ParseArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	wantCfg, err := want.Config()
	if err != nil {
		t.Fatal(err)
	}
	if got.Instructions != wantCfg.Instructions || got.Eras != ModeLegacy || got.OnUnknown != UnknownError {
		t.Errorf("Args{}.Config() = %+v, want the flags' defaults %+v", got, wantCfg)
	}
}

// TestArgsValidate: Validate makes Config's checks without reading the
// instructions file.
func TestArgsValidate(t *testing.T) {
	if err := (Args{InstrFile: "/no/such/file.md"}).Validate(); err != nil {
		t.Errorf("Validate read the instructions file: %v", err)
	}
	if _, err := (Args{InstrFile: "/no/such/file.md"}).Config(); err == nil {
		t.Error("Config of a missing instructions file: no error")
	}
	for _, a := range []Args{{Instr: "ascii:x"}, {Eras: "future"}, {OnUnknown: "explode"}, {InitDelay: -time.Second}} {
		if err := a.Validate(); err == nil {
			t.Errorf("Validate(%+v): no error", a)
		}
	}
}

// TestArgsJSON: what JSONMembers writes, SetFromJSON reads back, for every
// flag a matrix row sets; the runner's flags are not a row's; a row
// written before the glossary ("era": "dual") reads as legacy,modern; a
// bad duration is an error naming its key.
func TestArgsJSON(t *testing.T) {
	a := Args{Instr: "japanese:1200", InstrFile: "/x/t.txt", ToolDesc: "ascii:3000", ToolDescFile: "/x/d.txt", Eras: ModeBoth,
		InitDelay: 1500 * time.Millisecond, DiscoverDelay: 2 * time.Second, ReadyAfter: 700 * time.Millisecond, DiscoverTTL: 50 * time.Millisecond,
		CacheScope: "private", DropSession: 3, DropAfterCalls: 1, SessionTexts: true, OnUnknown: UnknownHang, Fail: "tools/list",
		ToolMeta: `{"k":1}`, Surface: "results,names", ResultSize: "japanese:5000", Tools: 40, NameLength: 64, ToolOrder: OrderRotate}
	members, err := a.JSONMembers()
	if err != nil {
		t.Fatal(err)
	}
	obj := "{" + string(members) + "}"
	if !strings.Contains(obj, `"init_delay":"1.5s"`) || !strings.Contains(obj, `"tool_meta":{"k":1}`) || !strings.Contains(obj, `"tool_name_length":64`) {
		t.Errorf("JSONMembers: %s", obj)
	}
	var got Args
	if err := got.SetFromJSON([]byte(obj)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	runner := Args{Log: "/x/lab.jsonl", HTTP: "127.0.0.1:0", Seed: "b", Print: true, AllowRemote: true}
	if m, err := runner.JSONMembers(); err != nil || len(m) != 0 {
		t.Errorf("the runner's flags as a row's: %s, %v", m, err)
	}
	var old Args
	if err := old.SetFromJSON([]byte(`{"name": "r", "instr": "ascii:1000", "era": "dual", "init_delay": "8s"}`)); err != nil || old.Eras != ModeBoth || old.InitDelay != 8*time.Second {
		t.Errorf("a row before the glossary: %+v, %v", old, err)
	}
	if err := new(Args).SetFromJSON([]byte(`{"ready_after": "soon"}`)); err == nil || !strings.Contains(err.Error(), "ready_after") {
		t.Errorf("a bad duration: %v, want an error naming ready_after", err)
	}
}
