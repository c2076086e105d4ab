package main

import (
	"bufio"
	"context"
	"fmt"

	"boolprog"
	"boolprog/syntax"
)

// emitFlags are the flags of `boolprog mucke --emit MODEL FILE.bp`.
type emitFlags struct {
	model  string
	bound  boundFlag
	target string
}

func (ef *emitFlags) register(c *command) {
	c.fs.StringVar(&ef.model, "emit", "", "instead of evaluating FILE.mu, write the model of the Boolean program FILE.bp for algorithm `ALG`: summary, ef, efopt or a formula file (sequential programs), or conc (conc-fix's context-bounded reachability, with --bound cs:K or rounds:K)")
	c.fs.Var(&ef.bound, "bound", "with --emit conc: the bound, cs:K or rounds:K (default rounds:4, conc-fix's default)")
	c.fs.StringVar(&ef.target, "target", "", "with --emit: the error label (default SLIC_ERROR); failing assertions are always errors")
	c.fs.StringVar(&ef.target, "l", "", "shorthand for --target")
}

// runEmit writes conc-fix's fixed-point model of a concurrent Boolean
// program (--emit conc; the sequential algorithms are emitModel's).
func runEmit(ef *emitFlags, lf *loadFlags, c *command, file string, s *streams) int {
	b := ef.bound.b // none: conc-fix's default, the model check --engine conc-fix solves
	l, prog, ok := loadProgram(context.Background(), file, lf, ef.target, nil, s)
	if !ok {
		return exitInput
	}
	w := bufio.NewWriter(s.stdout)
	if err := boolprog.WriteModel(w, "conc-fix", prog, b); err != nil {
		boolprog.WriteErrors(s.stderr, syntax.ErrorList{{Filename: l.Name, Msg: "--emit conc: " + err.Error()}})
		return exitInput
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(s.stderr, "boolprog mucke: %v\n", err)
		return exitUsage
	}
	return exitOK
}
