package runner

import (
	"fmt"
	"os"
	"time"

	"github.com/instrlab/instrlab/internal/table"
)

// Stats are the runner's own measurements of a matrix run.
type Stats struct {
	Runs, Skipped, Failed, Interrupted int
	Wall                               time.Duration
	// ClientTime sums the wall time of the client processes; RunnerTime
	// sums each run's setup and teardown (fake API, analysis).
	ClientTime, RunnerTime time.Duration
	// ClientCPU sums the CPU time of the client processes
	// (analyze.Record.ClientCPUMS), ClientCPUBy per client (name@version, and
	// ~arm when not its default).
	ClientCPU   time.Duration
	ClientCPUBy map[string]time.Duration
	// RunnerCPU is this process's CPU time during the run: the fake APIs
	// and the analysis (the clients and lab servers are other processes).
	RunnerCPU time.Duration
}

// addCPU counts cpu, one run's client CPU time, for client who.
func (st *Stats) addCPU(who string, cpu time.Duration) {
	if st.ClientCPUBy == nil {
		st.ClientCPUBy = map[string]time.Duration{}
	}
	st.ClientCPU += cpu
	st.ClientCPUBy[who] += cpu
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// Save keeps the runner's own measurements of the run (an output
// directory's stats.json): wall time, the client processes' summed wall
// time and CPU time (in all and per client), the runner's setup and
// teardown, and the runner process's own CPU time (RunnerCPU).
func (st Stats) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing stats: %w", err)
	}
	by := map[string]float64{}
	for who, d := range st.ClientCPUBy {
		by[who] = d.Seconds()
	}
	err = table.JSON(f, map[string]any{
		"runs": st.Runs, "skipped": st.Skipped, "failed": st.Failed, "interrupted": st.Interrupted,
		"wall_s": st.Wall.Seconds(), "client_s": st.ClientTime.Seconds(), "runner_setup_teardown_s": st.RunnerTime.Seconds(),
		"client_cpu_s": st.ClientCPU.Seconds(), "client_cpu_s_by_client": by,
		"runner_cpu_s": st.RunnerCPU.Seconds(), "runner_cpu_share_of_wall": st.RunnerCPU.Seconds() / st.Wall.Seconds(),
	})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Line is the one-line account of the run printed at its end.
func (st Stats) Line() string {
	cpu := st.RunnerCPU
	return fmt.Sprintf("%d runs (%d skipped, %d failed, %d interrupted) in %s; client processes %s in all, client CPU %.1fs; runner setup+teardown %s in all; runner CPU %s (%.1f%% of wall)",
		st.Runs, st.Skipped, st.Failed, st.Interrupted, st.Wall.Round(time.Millisecond), st.ClientTime.Round(time.Millisecond), st.ClientCPU.Seconds(),
		st.RunnerTime.Round(time.Millisecond), cpu.Round(time.Millisecond), 100*cpu.Seconds()/st.Wall.Seconds())
}
