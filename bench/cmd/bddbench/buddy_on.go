//go:build libbdd

package main

import (
	"fmt"
	"strings"
	"time"

	"boolprog/bdd"
	"boolprog/bench"
)

func init() {
	buddyRows = buddyRunner
	buddySift = func(c bench.SiftCase) bench.SiftResult {
		cfg := bench.DefaultConfig
		cfg.Vars = c.Vars
		e := bench.NewBuddy(cfg)
		defer e.Close()
		bench.SiftBuild(e, c)
		return e.Sift()
	}
	buddySiftSaved = func(s *bdd.Saved) (bench.SavedSift, error) {
		cfg := bench.DefaultConfig
		cfg.Vars = s.Vars
		e := bench.NewBuddy(cfg)
		defer e.Close()
		return bench.SiftSaved[bench.BuddyNode](e, s)
	}
}

// buddyRunner maps a row name to the BuDDy run of the same workload.
func buddyRunner(name string) runner {
	cfg := bench.DefaultConfig
	var n int
	switch {
	case strings.HasPrefix(name, "nqueens"):
		fmt.Sscanf(name, "nqueens %d", &n)
		return func() string {
			c := cfg
			c.Vars = n * n
			e := bench.NewBuddy(c)
			defer e.Close()
			s, nodes := bench.NQueens(e, n)
			return fmt.Sprintf("%g solutions, %d nodes", s, nodes)
		}
	case strings.HasPrefix(name, "milner"):
		fmt.Sscanf(name, "milner %d", &n)
		return func() string {
			c := cfg
			c.Vars = bench.MilnerVars(n)
			e := bench.NewBuddy(c)
			defer e.Close()
			s, it, nodes := bench.Milner(e, n)
			return fmt.Sprintf("%g states, %d iterations, %d nodes", s, it, nodes)
		}
	case strings.HasPrefix(name, "rename 4 vars"):
		fmt.Sscanf(name, "rename 4 vars, manager of %d vars", &n)
		return func() string { return renameBuddy(n, false) }
	case strings.HasPrefix(name, "rename, new"):
		fmt.Sscanf(name, "rename, new renaming object, %d vars", &n)
		return func() string { return renameBuddy(n, true) }
	}
	return nil
}

func renameBuddy(vars int, newPair bool) string {
	const k = 200000
	e := bench.NewBuddy(bench.Config{Vars: vars, Nodes: 1 << 16, Cache: 1 << 14})
	defer e.Close()
	f := bench.RenameFunc[bench.BuddyNode](e)
	kk := k
	if newPair {
		kk = k / 10
	}
	start := time.Now()
	e.RenameLoop(f, kk, bench.RenameFrom, bench.RenameTo, newPair)
	return (time.Since(start) / time.Duration(kk)).String()
}
