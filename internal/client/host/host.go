// Package host is what the agent frameworks' adapters share with the host
// programs that drive them (internal/client/FRAMEWORK/host): the run's
// config a host reads, and the JSON lines it prints. A framework is not a
// program; its host is the smallest app its getting-started documentation
// shows, and the host says only what the framework gave it.
package host

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// ConfigFile is the run's config, in the client dir; the host's first
// argument names it.
const ConfigFile = "host.json"

// Config writes the run's config for a host: its servers in order, the
// prompt, the model (model when the row names none) and the most steps
// (steps when the row names no turns), with the arm's settings set at
// their keys (as "instructions": true) and its approval mode as
// "approval" (client.Arm.Approval; absent where the app allows every tool
// of its servers, as the documentation's app does). It returns the file's
// path.
func Config(r *client.Run, model string, steps int) (string, error) {
	if err := client.CheckServers(r.Servers); err != nil {
		return "", err
	}
	if r.Model != "" {
		model = r.Model
	}
	if r.MaxTurns > 0 {
		steps = r.MaxTurns
	}
	cfg := map[string]any{"servers": r.Servers, "prompt": r.Prompt, "model": model, "maxSteps": steps}
	if r.Arm.Approval != "" {
		cfg["approval"] = r.Arm.Approval
	}
	if err := r.Arm.SetIn(cfg); err != nil {
		return "", err
	}
	b, err := client.EncodeConfig(cfg, "the host's config")
	if err != nil {
		return "", err
	}
	path := filepath.Join(r.ClientDir(), ConfigFile)
	return path, r.WriteConfig(path, ConfigFile, b)
}

// An event is one line a host prints.
type event struct {
	// Event is "server" (a server connected or failed, with its tools'
	// count or the error), "result" (the model's final text and the
	// model the framework reports) or "error" (the run failed).
	Event  string `json:"event"`
	Server string `json:"server"`
	Status string `json:"status"`
	Tools  *int   `json:"tools"`
	Text   string `json:"text"`
	Model  string `json:"model"`
	Error  string `json:"error"`
}

// Read reads a host's output, the file rel of the run dir, into o: the
// status of server ("absent" when the host reported others but not it),
// the answer, the model and the error of a failed run. A server that
// failed to connect is a warning with the framework's error; a line that
// is not an event is a warning and skipped.
func Read(o *client.Observation, dir, rel, server string) {
	o.Read(dir, rel, func(f io.Reader, name string) []string {
		events, w := jsonl.Decode[event](f, name)
		servers, results := 0, 0
		for _, e := range events {
			switch e.Event {
			case "server":
				servers++
				if e.Server == server {
					o.ServerStatus = e.Status
				}
				if e.Error != "" {
					w = append(w, fmt.Sprintf("%s: server %s: %s", name, e.Server, e.Error))
				}
			case "result":
				results++
				o.Answer, o.Model = e.Text, e.Model
			case "error":
				o.ResultError = e.Error
			default:
				b, _ := json.Marshal(e.Event)
				w = append(w, fmt.Sprintf("%s: unknown event %s", name, b))
			}
		}
		if servers > 0 && o.ServerStatus == "" {
			o.ServerStatus = "absent"
		}
		if results == 0 && o.ResultError == "" {
			w = append(w, name+": the host printed no result")
		}
		return w
	})
}

// Sub is the folder dir of an adapter's embedded files: its host's.
func Sub(f fs.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // an embedded folder
	}
	return s
}
