//go:build !unix

package analyze

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs") }
