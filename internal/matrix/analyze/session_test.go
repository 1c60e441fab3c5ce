package analyze

import (
	"testing"
)

// TestJudgeOrder: the lab's tools as offered, against its listings.
func TestJudgeOrder(t *testing.T) {
	byName := []string{"a", "b", "c"}
	rot1, rot2 := []string{"b", "c", "a"}, []string{"c", "a", "b"}
	for _, tt := range []struct {
		offered  []string
		listings [][]string
		want     string
	}{
		{rot2, [][]string{rot1, rot2}, ToolOrderServer}, // the second listing's
		{byName, [][]string{rot1}, ToolOrderName},
		{[]string{"c", "b", "a"}, [][]string{rot1}, ToolOrderOther},
		{byName, [][]string{byName}, ""},                                   // keeping and sorting look alike
		{[]string{"b", "a"}, [][]string{{"b", "x", "a"}}, ToolOrderServer}, // a tool not offered
		{[]string{"a"}, [][]string{rot1}, ""},
		{byName, nil, ""},
	} {
		if got := judgeOrder(tt.offered, tt.listings); got != tt.want {
			t.Errorf("judgeOrder(%q, %q) = %q, want %q", tt.offered, tt.listings, got, tt.want)
		}
	}
}

// TestMovedText: where the instructions went from one request to the next.
func TestMovedText(t *testing.T) {
	at := func(paths ...string) []Placement {
		var ps []Placement
		for _, p := range paths {
			ps = append(ps, Placement{Path: p})
		}
		return ps
	}
	for _, tt := range []struct {
		a, b []Placement
		want string
	}{
		{nil, nil, ""},
		{at("system"), at("system"), "same place"},
		{at("system"), nil, "dropped"},
		{nil, at("system"), "added"},
		{at("messages[0].content"), at("messages[0].content", "messages[4].content"), "re-sent: also at messages[4].content"},
		{at("messages[1].content"), at("messages[2].content"), "moved: messages[1].content → messages[2].content"},
		{at("messages[1].content[0].text"), at("messages[1].content"), "same message, another form: messages[1].content[0].text → messages[1].content"},
	} {
		if got := movedText(tt.a, tt.b); got != tt.want {
			t.Errorf("movedText(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestToolsText: what became of the lab's tool definitions.
func TestToolsText(t *testing.T) {
	a, b, b2 := labDef{"a", "A"}, labDef{"b", "B"}, labDef{"b", "B2"}
	for _, tt := range []struct {
		x, y []labDef
		want string
	}{
		{nil, nil, ""},
		{[]labDef{a, b}, []labDef{a, b}, "same"},
		{[]labDef{a, b}, []labDef{b, a}, "reordered"},
		{[]labDef{a, b}, []labDef{a, b2}, "changed"},
		{[]labDef{a}, []labDef{a, b}, "1 → 2"},
		{[]labDef{a}, nil, "dropped"},
		{nil, []labDef{a}, "added"},
	} {
		if got := toolsText(tt.x, tt.y); got != tt.want {
			t.Errorf("toolsText(%v, %v) = %q, want %q", tt.x, tt.y, got, tt.want)
		}
	}
}
