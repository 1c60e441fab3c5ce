package streamjson

import (
	"io"

	"github.com/instrlab/instrlab/internal/client"
)

// Read reads the stream-json output rel of the run dir into o: the status
// of server ("absent" when the init event lists servers but not it), the
// model, the answer, the cost and the result's error.
func Read(o *client.Observation, dir, rel, server string) {
	o.Read(dir, rel, func(f io.Reader, name string) []string {
		s, w := Parse(f, name)
		o.ServerStatus = s.Servers[server]
		if s.Servers != nil && o.ServerStatus == "" {
			o.ServerStatus = "absent"
		}
		o.Model, o.Answer, o.CostUSD = s.Model, s.Result, s.CostUSD
		if s.IsError || (s.Subtype != "" && s.Subtype != "success") {
			o.ResultError = s.Subtype
			if o.ResultError == "" {
				o.ResultError = "error"
			}
		}
		if s.Events == 0 {
			w = append(w, name+": no stream-json events")
		}
		return w
	})
}
