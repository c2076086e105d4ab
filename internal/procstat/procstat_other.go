//go:build !unix

package procstat

import "time"

func process() (time.Duration, bool) { return 0, false }
