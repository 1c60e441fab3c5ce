package lab

import "github.com/instrlab/instrlab/internal/labvocab"

// reservedTools are SurfaceReserved: a tool for each of labvocab.ReservedNames,
// each answering a call with its codeword sentence.
func reservedTools(seed string) []SurfaceTool {
	out := make([]SurfaceTool, len(labvocab.ReservedNames))
	for i, name := range labvocab.ReservedNames {
		out[i] = nameTool(seed, name, "a client's own tool name", name+": a server's tool named as a client names a tool of its own.")
	}
	return out
}
