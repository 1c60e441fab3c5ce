package runner

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
	"github.com/instrlab/instrlab/lab"
)

// TestRunnerCountsDescendantsCPU: a run's client CPU time covers the lab
// server the client started and waited for (its descendant), in and out
// of the network jail, and the stats sum it per client.
func TestRunnerCountsDescendantsCPU(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a Windows process's times do not include its children's")
	}
	const burn = 600 * time.Millisecond
	for _, netns := range []bool{false, true} {
		if netns && netjail.Supported() != nil {
			t.Logf("no jail here: %v", netjail.Supported())
			continue
		}
		m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Env: map[string]string{fakeclient.LabCPUEnv: burn.String()}})
		m.Repeats = 1
		r := newRunner(t, m, fakeClient("1", nil))
		r.Netns = netns
		results, st, err := r.Run(context.Background())
		if err != nil || st.Failed != 0 || len(results) != 1 {
			t.Fatalf("netns %v: %v, stats %+v", netns, err, st)
		}
		rec, err := analyze.ReadRecord(results[0].Dir)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Netns != netns {
			t.Errorf("record netns %v, want %v", rec.Netns, netns)
		}
		cpu := ms(rec.ClientCPUMS)
		if cpu < burn || cpu > burn+10*time.Second {
			t.Errorf("netns %v: client CPU %s in run.json, want at least the lab's %s", netns, cpu, burn)
		}
		if results[0].ClientCPUMS != rec.ClientCPUMS {
			t.Errorf("netns %v: result says %vms, record %vms", netns, results[0].ClientCPUMS, rec.ClientCPUMS)
		}
		if st.ClientCPU != cpu || st.ClientCPUBy["fake@1"] != cpu {
			t.Errorf("netns %v: stats %s, by client %v, want %s", netns, st.ClientCPU, st.ClientCPUBy, cpu)
		}
	}
}
