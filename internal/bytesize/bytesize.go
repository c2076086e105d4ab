// Package bytesize reads and writes sizes in bytes as the command's flags
// take them (--max-input, batch's --memory): a whole number with an
// optional unit KB, MB, GB (powers of 1000) or KiB, MiB, GiB (powers of
// 1024).
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is a size in bytes; *Size is a flag.Value.
type Size int64

var units = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// String writes the size in the largest binary unit that divides it, or
// in bytes: 64MiB, 1536KiB, 1000.
func (s Size) String() string {
	n := int64(s)
	for _, u := range units[:3] {
		if n >= u.mult && n%u.mult == 0 && (u.mult == 1<<30 || n%(u.mult<<10) != 0) {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// Set reads a positive size: 64MiB, 1GB, 500000.
func (s *Size) Set(v string) error {
	num, mult := v, int64(1)
	for _, u := range units {
		if strings.HasSuffix(v, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return fmt.Errorf("want a positive size such as 64MiB or 1000000, not %q", v)
	}
	*s = Size(n * mult)
	return nil
}
