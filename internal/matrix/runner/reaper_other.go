//go:build !unix

package runner

// A reaper does nothing where there are no process groups (Windows).
type reaper struct{}

func startReaper() *reaper { return nil }
func (*reaper) add(int)    {}
func (*reaper) done(int)   {}
func (*reaper) close()     {}
