package netjail

import (
	"os"
	"strings"
	"testing"
)

// TestSetUpRefusesHostNamespaces runs the jail's setup in this test's own
// namespaces, which are its parent's (go test does not isolate): it must
// refuse before it mounts anything, and leave /etc/resolv.conf as it was.
// Without the check, a root test run bound the jail's resolv.conf over the
// host's and the machine lost name resolution.
func TestSetUpRefusesHostNamespaces(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: as another user the mounts fail anyway")
	}
	before, err := os.ReadFile("/etc/resolv.conf")
	if err != nil {
		t.Skip("no /etc/resolv.conf here")
	}
	err = linuxSetUp(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "namespace of its own") {
		t.Fatalf("linuxSetUp in the host's namespaces = %v, want a refusal", err)
	}
	after, _ := os.ReadFile("/etc/resolv.conf")
	if string(after) != string(before) {
		t.Errorf("/etc/resolv.conf changed:\n%s\nwas:\n%s", after, before)
	}
}

// TestOwnNamespaces: a process is in its own namespaces relative to a
// parent in others (pid 1 is in the same ones here, so only the refusal is
// testable without root and a second namespace).
func TestOwnNamespaces(t *testing.T) {
	if err := ownNamespaces(os.Getpid()); err == nil {
		t.Error("ownNamespaces(self) = nil, want a refusal")
	}
	if err := ownNamespaces(1 << 30); err == nil || !strings.Contains(err.Error(), "parent's") {
		t.Errorf("ownNamespaces(no such pid) = %v, want an error reading the parent's namespace", err)
	}
}
