package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStatsSaveAndLine(t *testing.T) {
	dir := t.TempDir()
	st := Stats{Runs: 4, Failed: 1, Wall: 2 * time.Second, ClientTime: 3 * time.Second, RunnerTime: time.Second, RunnerCPU: 500 * time.Millisecond}
	st.addCPU("a@1", 4*time.Second)
	st.addCPU("b@2", 1500*time.Millisecond)
	st.addCPU("a@1", time.Second)
	if err := st.Save(filepath.Join(dir, "stats.json")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Runs, Failed, WallS, ShareOfWall, ClientCPUS float64
		ByClient                                     map[string]float64
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"runs": &got.Runs, "failed": &got.Failed, "wall_s": &got.WallS,
		"runner_cpu_share_of_wall": &got.ShareOfWall, "client_cpu_s": &got.ClientCPUS, "client_cpu_s_by_client": &got.ByClient} {
		if err := json.Unmarshal(raw[k], v); err != nil {
			t.Errorf("stats.json %s: %v", k, err)
		}
	}
	if got.Runs != 4 || got.Failed != 1 || got.WallS != 2 || got.ShareOfWall != 0.25 || got.ClientCPUS != 6.5 ||
		!cmp.Equal(got.ByClient, map[string]float64{"a@1": 5, "b@2": 1.5}) {
		t.Errorf("stats.json = %s", data)
	}
	want := "4 runs (0 skipped, 1 failed, 0 interrupted) in 2s; client processes 3s in all, client CPU 6.5s; runner setup+teardown 1s in all; runner CPU 500ms (25.0% of wall)"
	if line := st.Line(); line != want {
		t.Errorf("Line = %q, want %q", line, want)
	}
}
