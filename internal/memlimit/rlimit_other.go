//go:build !unix

package memlimit

// addressSpaceLimit returns 0: no address-space limit is known here.
func addressSpaceLimit() int64 { return 0 }
