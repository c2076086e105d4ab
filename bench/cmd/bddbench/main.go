// Command bddbench runs the benchmark workloads on boolprog/bdd, BuDDy
// (when built with -tags libbdd) and rudd, and prints one table of times
// and ratios taken in a single run. Each time is the minimum over -reps
// repetitions (the machine is shared and noisy). With -sift it compares
// one sifting of the same synthetic BDDs in ours and BuDDy instead, and
// with -sift-saved FILE... one sifting of saved BDDs (bdd.Manager.Save),
// e.g. the summary engine's on the hard set.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"text/tabwriter"
	"time"

	"boolprog/bench"
)

// runner runs one workload on one engine and returns a result string used
// to check that all engines agree.
type runner func() string

type row struct {
	name              string
	ours, buddy, rudd runner
	perOp             bool // the runner measures itself: parse duration from the result
}

var buddyRows func(name string) runner // set by buddy_on.go

func main() {
	reps := flag.Int("reps", 3, "repetitions per measurement (minimum is reported)")
	quick := flag.Bool("quick", false, "small instances only")
	sift := flag.Bool("sift", false, "compare one sifting of the same BDDs in ours and BuDDy instead")
	siftSaved := flag.Bool("sift-saved", false, "compare one sifting of the saved BDDs of each FILE argument (bdd.Manager.Save) in ours and BuDDy instead")
	flag.Parse()
	if *sift {
		siftTable()
		return
	}
	if *siftSaved {
		if err := siftSavedTable(flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "bddbench:", err)
			os.Exit(1)
		}
		return
	}

	cfg := bench.DefaultConfig
	var rows []row
	maxQ := 12
	milnerN := []int{64, 128}
	renameK := 200000
	if *quick {
		maxQ, milnerN, renameK = 9, []int{8}, 20000
	}
	for n := 8; n <= maxQ; n++ {
		c := cfg
		c.Vars = n * n
		nq := func(e interface {
			Close()
		}, f func() (float64, int)) string {
			defer e.Close()
			s, nodes := f()
			return fmt.Sprintf("%g solutions, %d nodes", s, nodes)
		}
		rows = append(rows, row{
			name: fmt.Sprintf("nqueens %d", n),
			ours: func() string {
				e := bench.NewOurs(c)
				return nq(e, func() (float64, int) { return bench.NQueens(e, n) })
			},
			rudd: func() string {
				e := bench.NewRudd(c)
				return nq(e, func() (float64, int) { return bench.NQueens(e, n) })
			},
		})
	}
	for _, n := range milnerN {
		c := cfg
		c.Vars = bench.MilnerVars(n)
		ml := func(e interface{ Close() }, f func() (float64, int, int)) string {
			defer e.Close()
			s, it, nodes := f()
			return fmt.Sprintf("%g states, %d iterations, %d nodes", s, it, nodes)
		}
		rows = append(rows, row{
			name: fmt.Sprintf("milner %d (AndExists+Replace)", n),
			ours: func() string {
				e := bench.NewOurs(c)
				return ml(e, func() (float64, int, int) { return bench.Milner(e, n) })
			},
			rudd: func() string {
				e := bench.NewRudd(c)
				return ml(e, func() (float64, int, int) { return bench.Milner(e, n) })
			},
		})
	}
	for _, newObj := range []bool{false, true} {
		for _, vars := range []int{10, 10000} {
			name := fmt.Sprintf("rename 4 vars, manager of %d vars (per op)", vars)
			if newObj {
				name = fmt.Sprintf("rename, new renaming object, %d vars (per op)", vars)
			}
			rows = append(rows, row{
				name:  name,
				perOp: true,
				ours:  func() string { return bench.RenameOurs(vars, renameK, newObj).String() },
				rudd:  func() string { return bench.RenameRudd(vars, renameK/20).String() },
			})
		}
	}
	if buddyRows != nil {
		for i := range rows {
			rows[i].buddy = buddyRows(rows[i].name)
		}
	}

	host, _ := os.Hostname()
	fmt.Printf("bddbench: %s, %s/%s, %d CPUs (GOMAXPROCS %d), min of %d runs, one process\n\n",
		host, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), *reps)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workload\tours\tbuddy\trudd\tours/buddy\trudd/ours\tresult\t")
	for _, r := range rows {
		to, ro := measure(r.ours, r.perOp, *reps)
		tb, rb := measure(r.buddy, r.perOp, *reps)
		tr, rr := measure(r.rudd, r.perOp, *reps)
		res := ro
		for _, x := range []string{rb, rr} {
			if x != "" && res != "" && x != res && !r.perOp {
				res = "MISMATCH: " + ro + " / " + rb + " / " + rr
			}
			if res == "" {
				res = x
			}
		}
		if r.perOp {
			res = ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, fmtDur(to), fmtDur(tb), fmtDur(tr),
			ratio(to, tb), ratio(tr, to), res)
	}
	tw.Flush()
}

func measure(run runner, perOp bool, reps int) (time.Duration, string) {
	if run == nil {
		return 0, ""
	}
	best := time.Duration(-1)
	var res string
	for i := 0; i < reps; i++ {
		if i > 0 && best > 20*time.Second {
			break // long runs are measured once
		}
		runtime.GC()
		start := time.Now()
		out := run()
		d := time.Since(start)
		if perOp {
			d, _ = time.ParseDuration(out)
		}
		if best < 0 || d < best {
			best = d
		}
		res = out
	}
	return best, res
}

func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1fµs", float64(d.Nanoseconds())/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d.Nanoseconds())/1e6)
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "-"
	}
	r := float64(a) / float64(b)
	if r < 0.1 {
		return fmt.Sprintf("%.4fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}
