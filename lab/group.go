package lab

import "sync"

// A groupCommit is the bookkeeping of a group commit, which the message log
// and the stdio transport's writes share: callers add work under their
// owner's mutex, and the first to find no commit under way commits all the
// work added so far in one write, while work added meanwhile waits for the
// next. A busy server pays one write for the work of several callers, and
// every caller still returns only once its own work is committed.
type groupCommit struct {
	cond   *sync.Cond // on the owner's mutex; broadcast when a commit ends
	queued uint64     // the callers that added work
	done   uint64     // of those, the ones whose work is committed
	busy   bool       // a commit is under way
}

func newGroupCommit(mu *sync.Mutex) groupCommit {
	return groupCommit{cond: sync.NewCond(mu)}
}

// join is called with the mutex held, once the caller has added its work.
// It waits while a commit is under way that does not hold that work, and
// returns true when the caller is to commit (with begin and end), false
// when its work is committed or stopped reports that no commit will come.
func (g *groupCommit) join(stopped func() bool) bool {
	g.queued++
	mine := g.queued
	for g.busy && g.done < mine && !stopped() {
		g.cond.Wait()
	}
	return g.done < mine && !stopped()
}

// begin marks a commit of all the work added so far under way, and returns
// how far it goes, for end.
func (g *groupCommit) begin() uint64 {
	g.busy = true
	return g.queued
}

// end marks the commit begun at upto over, done if ok, and wakes those
// waiting. It is called with the mutex held.
func (g *groupCommit) end(upto uint64, ok bool) {
	g.busy = false
	if ok {
		g.done = upto
	}
	g.cond.Broadcast()
}

// wait waits, with the mutex held, until no commit is under way.
func (g *groupCommit) wait() {
	for g.busy {
		g.cond.Wait()
	}
}
