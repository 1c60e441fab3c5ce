//go:build !linux

package netjail

// host has no namespaces: every entry point returns ErrNotLinux.
var host = noNamespaces
