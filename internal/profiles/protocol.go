package profiles

// A Protocol is what a client did with what a server asked and announced
// while its tools ran, measured on the protocol matrix (docs/protocol.md):
// per feature (labvocab.Feature*), in the order of labvocab.ProtocolFeatures,
// what the client does, in the words of surface.ProtocolLines
// (labvocab.Does*).
type Protocol struct {
	Runs int `json:"runs"`
	// Failed counts the runs that ended in failure; Ended is how the
	// first of them ended.
	Failed int            `json:"failed,omitempty"`
	Ended  string         `json:"ended,omitempty"`
	Facts  []ProtocolFact `json:"facts"`
	// Modern are the facts over the 2026-07-28 protocol, from a server of
	// both eras, when the client spoke it (asks in input_required
	// results); nil when it did not, or was not measured.
	Modern []ProtocolFact `json:"modern,omitempty"`
	// HTTP are the facts of the lab over Streamable HTTP in the 2025 era
	// (the protocol-http row); nil when not measured. A server checked
	// by URL is judged by them (Profile.OverHTTP).
	HTTP []ProtocolFact `json:"http,omitempty"`
	// ModernHTTP are Modern's over Streamable HTTP (the protocol-dual-http
	// row), when the client spoke 2026-07-28 there; nil when it did not,
	// or was not measured.
	ModernHTTP []ProtocolFact `json:"modern_http,omitempty"`
	// Alone is what became of the client's turn over 2026-07-28 after
	// each ask alone, in a turn of its own (the protocol-asks row), per
	// ask feature: labvocab.DoesAloneGoesOn, DoesAloneEnds or
	// DoesAloneNeverEnds; an ask after one that never ended is not
	// measured. nil when the client did not speak 2026-07-28 there, or
	// was not measured.
	Alone []ProtocolFact `json:"alone,omitempty"`
}

// A ProtocolFact is what a client does with one feature.
type ProtocolFact struct {
	Feature string `json:"feature"`
	// Does is the same in every run, else FateVaries, and Held says
	// what each run did.
	Does string   `json:"does"`
	Held []string `json:"held,omitempty"`
}

// Fact is the fact of feature, and whether p has one.
func (p *Protocol) Fact(feature string) (ProtocolFact, bool) {
	if p == nil {
		return ProtocolFact{}, false
	}
	return factOf(p.Facts, feature)
}

// FactIn is the fact of feature over the 2026-07-28 protocol when modern
// (none when the client was not measured speaking it), else Fact's.
func (p *Protocol) FactIn(modern bool, feature string) (ProtocolFact, bool) {
	if p != nil && modern {
		return factOf(p.Modern, feature)
	}
	return p.Fact(feature)
}

// AloneFact is what became of the client's turn over 2026-07-28 after
// the ask of feature alone (Alone), and whether p measured it.
func (p *Protocol) AloneFact(feature string) (ProtocolFact, bool) {
	if p == nil {
		return ProtocolFact{}, false
	}
	return factOf(p.Alone, feature)
}

func factOf(facts []ProtocolFact, feature string) (ProtocolFact, bool) {
	for _, f := range facts {
		if f.Feature == feature {
			return f, true
		}
	}
	return ProtocolFact{}, false
}
