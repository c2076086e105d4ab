package boolprog

import (
	"errors"
	"fmt"
	"io"

	"boolprog/conc"
	"boolprog/ir"
	"boolprog/syntax"
)

// SeqOptions say which sequentialisation WriteSequentialisation writes.
type SeqOptions struct {
	// Rounds is the number of round-robin rounds (at least 1).
	Rounds int
	// Lazy asks for conc-lazy's sequentialisation (no guessed globals)
	// instead of conc-eager's.
	Lazy bool
	// MaxThreads bounds the threads, the initial ones included (0: one
	// more per thread-creation site).
	MaxThreads int
	// CommandLine words refusals by the command's flags (`boolprog seq`)
	// instead of by these fields.
	CommandLine bool
}

// Validate refuses options without a meaning: fewer than one round, a
// negative thread bound.
func (o SeqOptions) Validate() error {
	if o.Rounds >= 1 && o.MaxThreads >= 0 {
		return nil
	}
	if o.CommandLine {
		return optionErrorf("Rounds", "--rounds must be at least 1 and --max-threads not negative")
	}
	if o.Rounds < 1 {
		return optionErrorf("Rounds", "want at least 1 round, not %d", o.Rounds)
	}
	return optionErrorf("MaxThreads", "negative thread bound %d", o.MaxThreads)
}

// WriteSequentialisation writes the sequentialisation of the concurrent
// program p (from the file name) that conc-eager, or with Lazy conc-lazy,
// checks: a sequential Boolean program, headed by a comment that says
// what it is, whose error label is reached iff p reaches an error within
// Rounds round-robin rounds (and MaxThreads threads). The text parses and
// checks on its own. A sequential program, or a thread bound the program
// cannot meet, is an *InputError; invalid options an *OptionError.
func WriteSequentialisation(w io.Writer, name string, p *ir.Program, opts SeqOptions) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	inputErr := func(err error) error {
		e := &syntax.Error{Filename: name, Msg: err.Error()}
		var ce *conc.Error
		if errors.As(err, &ce) {
			e.Pos, e.Msg = ce.Pos, ce.Msg
		}
		return &InputError{Diagnostics: diagnostics(syntax.ErrorList{e})}
	}
	if !p.Concurrent {
		hint := "set Options.Threads"
		if opts.CommandLine {
			hint = "name them with --threads"
		}
		return inputErr(fmt.Errorf("the program is sequential: it has no threads to sequentialise (%s)", hint))
	}
	m, err := conc.NewModel(p, conc.Options{})
	if err == nil && opts.MaxThreads > 0 {
		if created := opts.MaxThreads - len(m.Static); created < 1 || m.Convention != conc.Dynamic {
			what := "MaxThreads"
			if opts.CommandLine {
				what = "--max-threads"
			}
			err = fmt.Errorf("%s %d: the program starts with %d threads and creates %d more at most", what, opts.MaxThreads, len(m.Static), max(created, 0))
		} else {
			m, err = conc.NewModel(p, conc.Options{MaxThreads: created})
		}
	}
	if err != nil {
		return inputErr(err)
	}
	build, kind := conc.Eager, "eager"
	if opts.Lazy {
		build, kind = conc.Lazy, "lazy"
	}
	seq, err := build(m, opts.Rounds, conc.GoalError)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "// The %s sequentialisation of %s for %d round-robin rounds (%s convention, %d threads); error label %s; the globals in the BDD order conc-eager and conc-lazy give the sequential engine (--order declaration).\n", kind, name, opts.Rounds, m.Convention, m.Slots(), seq.Prog.Target); err != nil {
		return err
	}
	return conc.Print(w, seq.Prog)
}
