package evidence

import (
	"path/filepath"
	"strings"
)

// Names inside a run directory, relative to it with forward slashes, as
// they appear in warnings and in an Observation's Files.
const (
	RecordFile   = "run.json"           // the runner's Record, written when the run ends
	ResultFile   = "result.json"        // the Result, derived from the evidence
	LabLogFile   = "lab.jsonl"          // the lab server's message log
	APIDir       = "api"                // the fake model API's recordings
	RequestsName = "requests.jsonl"     // the fake API's requests, in APIDir
	RequestsFile = "api/requests.jsonl" // RequestsName in APIDir
	TLSName      = "tls.jsonl"          // the fake API's TLS handshakes (the direct arm), in APIDir
	TLSFile      = "api/tls.jsonl"      // TLSName in APIDir
	CAFile       = "jail/ca.pem"        // the run's certificate authority (the direct arm), which the client trusts
	ClientDir    = "client"             // the client's configs, debug logs and output
	StdoutFile   = "client/stdout.txt"  // the client's standard output
	StderrFile   = "client/stderr.txt"  // the client's standard error
	DNSLogFile   = "dns.jsonl"          // every name a jailed client asked the resolver
	JailDir      = "jail"               // the jail's resolv.conf and nsswitch.conf
	HomeDir      = "home"               // the client's HOME
	TmpDir       = "tmp"                // the client's TMPDIR
	WorkDir      = "work"               // the client's working directory
)

// A RunDir is the directory holding the evidence of one run.
type RunDir string

// File is the path of rel, a slash-separated name inside d.
func (d RunDir) File(rel string) string {
	return filepath.Join(string(d), filepath.FromSlash(rel))
}

// Rel is path relative to d, with forward slashes, for warnings.
func (d RunDir) Rel(path string) string {
	rel, err := filepath.Rel(string(d), path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// Record is the runner's record of the run.
func (d RunDir) Record() string { return d.File(RecordFile) }

// Result is the analysis of the run's evidence.
func (d RunDir) Result() string { return d.File(ResultFile) }

// LabLog is the lab server's message log.
func (d RunDir) LabLog() string { return d.File(LabLogFile) }

// ServerLog is the message log of a run's i-th lab server of several
// (0-based), named name: the first one's is LabLog, the others'
// lab.NAME.jsonl beside it.
func (d RunDir) ServerLog(i int, name string) string {
	if i == 0 {
		return d.LabLog()
	}
	return d.File(strings.TrimSuffix(LabLogFile, ".jsonl") + "." + name + ".jsonl")
}

// API is the fake model API's directory.
func (d RunDir) API() string { return d.File(APIDir) }

// Requests is the fake model API's record of requests.
func (d RunDir) Requests() string { return d.File(RequestsFile) }

// TLSLog is the fake model API's record of TLS handshakes (the direct
// arm).
func (d RunDir) TLSLog() string { return d.File(TLSFile) }

// CA is the certificate of the run's certificate authority (the direct
// arm): PEM, no key.
func (d RunDir) CA() string { return d.File(CAFile) }

// Client is where a client keeps its own evidence (configs, debug logs).
func (d RunDir) Client(name ...string) string {
	return filepath.Join(append([]string{d.File(ClientDir)}, name...)...)
}

// Stdout holds the client's standard output.
func (d RunDir) Stdout() string { return d.File(StdoutFile) }

// Stderr holds the client's standard error.
func (d RunDir) Stderr() string { return d.File(StderrFile) }

// DNSLog is a jailed run's log of names asked.
func (d RunDir) DNSLog() string { return d.File(DNSLogFile) }

// Jail holds a jailed run's resolver configuration.
func (d RunDir) Jail() string { return d.File(JailDir) }

// Home is the client's HOME; name, when given, a path under it.
func (d RunDir) Home(name ...string) string {
	return filepath.Join(append([]string{d.File(HomeDir)}, name...)...)
}

// Tmp is the client's TMPDIR.
func (d RunDir) Tmp() string { return d.File(TmpDir) }

// Work is the client's working directory.
func (d RunDir) Work() string { return d.File(WorkDir) }

// Sandbox reports whether name, a directory name inside a run dir, is one
// of the client's own directories (HOME, TMPDIR, working directory), which
// hold no run of their own.
func Sandbox(name string) bool {
	return name == HomeDir || name == TmpDir || name == WorkDir
}

// HomeRel is a slash-separated name under HomeDir, for warnings.
func HomeRel(name ...string) string {
	return strings.Join(append([]string{HomeDir}, name...), "/")
}
