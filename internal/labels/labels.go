// Package labels checks the target label a user names against a lowered
// program, and says what a check looks for (the "checked:" line), for the
// command and the Go API alike.
package labels

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/ir"
)

// maxListed bounds the labels an unknown-target error lists, and the lines
// the "checked:" line lists: a generated program has thousands.
const maxListed = 10

// CheckTarget rejects a target label the user named (-l, Options.Target)
// that occurs nowhere in p: a misspelled label would otherwise prove the
// program safe. The default target (SLIC_ERROR), given as "", may be
// absent. The message lists the labels that do occur, closest to the one
// named first.
func CheckTarget(p *ir.Program, target string) error {
	if target == "" || p.HasLabel(target) {
		return nil
	}
	labels := p.Labels()
	if len(labels) == 0 {
		return fmt.Errorf("target label %s occurs nowhere: the program has no labels", target)
	}
	closest := closestFirst(target, labels)
	more := ""
	if len(closest) > maxListed {
		more = fmt.Sprintf(" (and %d more)", len(closest)-maxListed)
		closest = closest[:maxListed]
	}
	return fmt.Errorf("target label %s occurs nowhere; the program's labels, closest first: %s%s", target, strings.Join(closest, ", "), more)
}

// closestFirst returns labels sorted by edit distance to name (ties: the
// case-insensitive match first, then alphabetically).
func closestFirst(name string, labels []string) []string {
	type scored struct {
		label string
		d     int
	}
	s := make([]scored, len(labels))
	for i, l := range labels {
		s[i] = scored{l, editDistance(strings.ToLower(name), strings.ToLower(l))*2 + btoi(!strings.EqualFold(l, name) && l != name)}
	}
	slices.SortStableFunc(s, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.label, b.label)
	})
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.label
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// editDistance is the Levenshtein distance between a and b (insertions,
// deletions and substitutions of bytes), in O(len(a)·len(b)) time and
// O(len(b)) space.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Checked says which errors a check looks for: the assertions (how
// many) and the target label (where it occurs), e.g.
// "checked: 2 assertions, label R (line 12)". It is printed on its own line
// just before the verdict, which stays exactly "VERIFICATION SUCCESSFUL" or
// "VERIFICATION FAILED" for the tools that match it.
func Checked(p *ir.Program) string {
	asserts, lines := errorSites(p)
	var b strings.Builder
	b.WriteString("checked: ")
	switch asserts {
	case 0:
		b.WriteString("no assertions")
	case 1:
		b.WriteString("1 assertion")
	default:
		fmt.Fprintf(&b, "%d assertions", asserts)
	}
	if len(lines) == 0 {
		fmt.Fprintf(&b, " (label %s occurs nowhere)", p.Target)
		return b.String()
	}
	word := "line"
	if len(lines) > 1 {
		word = "lines"
	}
	if len(lines) > maxListed {
		lines = append(lines[:maxListed], "...")
	}
	fmt.Fprintf(&b, ", label %s (%s %s)", p.Target, word, strings.Join(lines, ", "))
	return b.String()
}

// NothingToCheck reports whether p has nothing a check could find: no
// assertion, and its target label occurs nowhere (the default SLIC_ERROR
// may be absent). Such a program is trivially safe.
func NothingToCheck(p *ir.Program) bool {
	asserts, lines := errorSites(p)
	return asserts == 0 && len(lines) == 0
}

// errorSites returns the number of p's assertions and the lines where its
// target label occurs.
func errorSites(p *ir.Program) (asserts int, lines []string) {
	for _, pr := range p.Procs {
		for _, l := range pr.Locations {
			if l.Kind == ir.FailLoc {
				asserts++
			}
			if slices.Contains(l.Labels, p.Target) {
				lines = append(lines, fmt.Sprint(l.Pos.Line))
			}
		}
	}
	return asserts, lines
}
