package runner

import (
	"errors"
	"time"
)

// CheckLimits checks the numbers a run is given, as their flags name them:
// -j, -repeats, -repeat-sensitive, -timeout and -load-wait.
func CheckLimits(jobs, repeats, repeatSensitive int, timeout, loadWait time.Duration) error {
	switch {
	case jobs < 1:
		return errors.New("-j must be at least 1")
	case timeout <= 0:
		return errors.New("-timeout must be positive")
	case repeats < 0:
		return errors.New("-repeats must be at least 1")
	case repeatSensitive < 0:
		return errors.New("-repeat-sensitive must not be negative")
	case loadWait < 0:
		return errors.New("-load-wait must not be negative")
	}
	return nil
}
