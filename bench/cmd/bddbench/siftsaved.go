package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"boolprog/bdd"
	"boolprog/bench"
)

// buddySiftSaved sifts saved BDDs in BuDDy (set by buddy_on.go).
var buddySiftSaved func(s *bdd.Saved) (bench.SavedSift, error)

// siftSavedTable prints, for each file of saved BDDs (bdd.Manager.Save),
// its variables and blocks, the nodes of its BDDs before and after one
// sifting in ours and in BuDDy, each under the saved order and blocks,
// and the times. It fails if a file cannot be read or if a sifting
// changed a function or the two packages disagree on one.
func siftSavedTable(files []string) error {
	if len(files) == 0 {
		return fmt.Errorf("-sift-saved: no files")
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BDDs\tvars\tblocks\tnodes before\tours after\tours time\tbuddy after\tbuddy time\tours/buddy time\t")
	for _, file := range files {
		s, err := readSaved(file)
		if err != nil {
			return err
		}
		cfg := bench.DefaultConfig
		cfg.Vars = s.Vars
		ro, err := bench.SiftSaved[bdd.Node](bench.NewOurs(cfg), s)
		if err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		rb := bench.SavedSift{}
		bt, bafter := "-", "-"
		if buddySiftSaved != nil {
			if rb, err = buddySiftSaved(s); err != nil {
				return fmt.Errorf("%s: %v", file, err)
			}
			for i := range ro.Count {
				if !bench.SameCount(ro.Count[i], rb.Count[i]) {
					return fmt.Errorf("%s: root %d: ours counts %g satisfying assignments, buddy %g", file, i, ro.Count[i], rb.Count[i])
				}
			}
			bt, bafter = fmtDur(rb.Live.Time), fmt.Sprint(rb.After)
			if rb.Before != ro.Before {
				bafter += fmt.Sprintf(" (before: %d)", rb.Before)
			}
		}
		name := strings.TrimSuffix(filepath.Base(file), ".bdd")
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", name, s.Vars, len(s.Blocks), ro.Before, ro.After, fmtDur(ro.Live.Time), bafter, bt, ratio(ro.Live.Time, rb.Live.Time))
	}
	return tw.Flush()
}

func readSaved(file string) (*bdd.Saved, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := bdd.ReadSaved(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return s, nil
}
