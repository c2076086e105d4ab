package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"boolprog/bench"
)

// buddySift sifts a case's BDDs in BuDDy (set by buddy_on.go).
var buddySift func(c bench.SiftCase) bench.SiftResult

// siftTable prints, for each sifting case, the live nodes before and after
// one sifting and its time, in ours and in BuDDy, on the same BDDs.
func siftTable() {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BDDs\tvars\tnodes before\tours after\tours time\tbuddy after\tbuddy time\tours/buddy time\t")
	for _, c := range bench.SiftCases {
		cfg := bench.DefaultConfig
		cfg.Vars = c.Vars
		o := bench.NewOurs(cfg)
		bench.SiftBuild(o, c)
		ro := o.Sift()
		rb := bench.SiftResult{}
		bt, bafter := "-", "-"
		if buddySift != nil {
			rb = buddySift(c)
			bt, bafter = fmtDur(rb.Time), fmt.Sprint(rb.After)
			if rb.Before != ro.Before {
				bafter += fmt.Sprintf(" (before: %d)", rb.Before)
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", c.Name, c.Vars, ro.Before, ro.After, fmtDur(ro.Time), bafter, bt, ratio(ro.Time, rb.Time))
	}
	tw.Flush()
}
