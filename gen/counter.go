package gen

import (
	"fmt"
	"strings"
)

// Counter returns a program whose error needs 2^n turns of one loop: an
// n-bit counter in globals b0..b(n-1), counted up from zero one step per
// turn, with SLIC_ERROR reached when every bit is set. Its BDDs stay
// small (14K nodes at n = 40 in the summary engine) while its search
// takes 2^n turns: at n = 40 no engine decides it within any time limit
// a test sets, and at n = 10 it is decided after 1,024 turns, which
// exercises what a long fixed point accumulates per turn (the worklists,
// the rings) without exhausting anything else.
func Counter(n int) string {
	var bits, zero, inc []string
	for i := 0; i < n; i++ {
		b := fmt.Sprintf("b%d", i)
		carry := "T"
		if i > 0 {
			carry = strings.Join(bits, " & ")
		}
		// Bit i flips where every lower bit is set (the carry).
		inc = append(inc, fmt.Sprintf("(%s & !(%s)) | (!%s & (%s))", b, carry, b, carry))
		bits = append(bits, b)
		zero = append(zero, "F")
	}
	all, lhs := strings.Join(bits, " & "), strings.Join(bits, ", ")
	return fmt.Sprintf("decl %s;\n\nvoid main()\nbegin\n  %s := %s;\n  while (T) do\n    if (%s) then\n      SLIC_ERROR: skip;\n    fi\n    %s := %s;\n  od\nend\n",
		lhs, lhs, strings.Join(zero, ", "), all, lhs, strings.Join(inc, ", "))
}
