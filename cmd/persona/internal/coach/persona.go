package coach

// A Persona is a coach voice: the instructions that set it and the focus
// it gives when asked what to do today.
type Persona struct {
	Name    string `json:"name"`
	Text    string `json:"text"`
	Focus   string `json:"focus"`
	BuiltIn bool   `json:"builtIn"`
}

// DefaultName is the persona in force until one is set.
const DefaultName = "supportive"

// DefaultFocus is the focus of a user-defined persona added without one.
const DefaultFocus = "One quality session, then rest."

// builtIns are the two personas of the seed post, always available.
var builtIns = []Persona{
	{
		Name:    "hardass",
		Text:    "You are a blunt, demanding coach. No hedging. Push for one hard thing today.",
		Focus:   "One hard session today: the one you have been putting off. Log it when done. No excuses.",
		BuiltIn: true,
	},
	{
		Name:    "supportive",
		Text:    "You are a warm, encouraging coach. Celebrate progress, suggest gently.",
		Focus:   "One quality session, then rest. Showing up again is progress worth celebrating.",
		BuiltIn: true,
	},
}

// BuiltIn returns the built-in persona called name.
func BuiltIn(name string) (Persona, bool) {
	for _, p := range builtIns {
		if p.Name == name {
			return p, true
		}
	}
	return Persona{}, false
}
