package conc

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/ir"
	"boolprog/syntax"
)

// Convention is the way a program says which threads it runs.
type Convention int

// DefaultRounds is the bound, in round-robin rounds, of a context-bounded
// query that names none: conc-eager and conc-lazy deepen up to it and
// conc-fix solves it, so that the three answer the same question.
const DefaultRounds = 4

// The conventions (see the package doc).
const (
	Sequential Convention = iota // no threads: main alone
	Dynamic                      // SATABS: main is thread 0, start_thread and ASYNC_n calls create threads
	Getafix                      // init alone as thread 0, then main and thread<N> procedures
	Named                        // threads named on the command line (WithThreads)
)

var conventionNames = [...]string{"sequential", "dynamic (start_thread, ASYNC_n)", "Getafix (init, thread<N>)", "named threads (--threads)"}

func (c Convention) String() string {
	if c >= 0 && int(c) < len(conventionNames) {
		return conventionNames[c]
	}
	return fmt.Sprintf("Convention(%d)", int(c))
}

// Site is a thread creation site: a StartThread edge.
type Site struct {
	Proc int // the procedure holding the edge
	Edge int // the edge id there
	Op   *ir.StartThread
}

// Model is the thread model of a lowered program: which threads exist
// from the start, where threads are created, and what forbids a context
// switch.
type Model struct {
	Prog       *ir.Program
	Convention Convention
	// Init is Getafix's init (or -1): it runs alone as thread 0 before
	// the threads start.
	Init int
	// Static are the procedures of the threads that exist from the start
	// (after init): thread i runs Static[i].
	Static []int
	// Sites are the creation sites of the program, in procedure and edge
	// order; a thread created at Sites[s] runs Sites[s].Op.Proc, or, for
	// `start_thread goto L`, a copy of the creator's frame from L.
	Sites []Site
	// MaxThreads bounds the threads created at run time (besides the
	// Static ones): a run that would create one more is cut, and the
	// engines say so (see Options.MaxThreads).
	MaxThreads int
	// Creations is the most threads a run creates at run time, the
	// threads' own creations included, as the program's control flow
	// bounds them (each branch counted as if it could be taken), or -1
	// when a creation lies in a loop or in a recursion. A model whose
	// MaxThreads is at least Creations never cuts a run.
	Creations int
	// AtomicGlobal is the index of Getafix's global `atomic` (T forbids a
	// context switch), or -1.
	AtomicGlobal int
	// AtomicSections says that the program uses atomic_begin/atomic_end.
	AtomicSections bool
}

// Cuts reports whether a run of the model may create more threads than
// MaxThreads (see Creations).
func (m *Model) Cuts() bool { return m.Creations < 0 || m.Creations > m.MaxThreads }

// Slots returns the number of threads a run of the model can have.
func (m *Model) Slots() int { return len(m.Static) + m.MaxThreads }

// SwitchSlots returns the number of threads that can step in a run of at
// most k context switches: its k+1 contexts are run by at most k+1
// threads, and when threads are created at run time one of them is a
// static thread (one steps to create the first), so at most k of the
// created threads step, whatever the thread limit. A sequentialisation
// for such runs gives a slot to each static thread and to at most k of the
// created ones; a thread created beyond them gets no slot and never
// steps (it still counts towards MaxThreads).
func (m *Model) SwitchSlots(k int) int { return len(m.Static) + min(m.MaxThreads, k) }

// Options configure NewModel.
type Options struct {
	// MaxThreads bounds the threads created at run time; 0 means the
	// number of creation sites (each site creating at most one thread
	// per run is then covered).
	MaxThreads int
}

// Error is a problem with the thread structure of a program: a bad input,
// reported at the construct that causes it.
type Error struct {
	Pos syntax.Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return e.Msg
}

// Unsupported is returned by NewModel for a well-formed program whose
// threads the sequentialisations cannot express.
type Unsupported struct{ Msg string }

func (e *Unsupported) Error() string { return e.Msg }

// NewModel returns the thread model of p, or an *Error for a program
// whose threads are ill-formed: one that mixes the Getafix convention with
// start_thread, ASYNC_n or atomic sections, starts a thread inside
// Getafix's init, or declares `atomic` as a local of a Getafix program
// (where only the global blocks context switches), or an *Unsupported.
func NewModel(p *ir.Program, opt Options) (*Model, error) {
	if opt.MaxThreads < 0 {
		return nil, fmt.Errorf("negative thread limit %d", opt.MaxThreads)
	}
	m := &Model{Prog: p, Init: -1, AtomicGlobal: -1}
	// Without creation sites no run creates a thread.
	m.Creations = 0
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			switch op := e.Op.(type) {
			case *ir.StartThread:
				m.Sites = append(m.Sites, Site{Proc: pr.Index, Edge: e.ID, Op: op})
			case *ir.AtomicBegin, *ir.AtomicEnd:
				m.AtomicSections = true
			}
		}
	}
	switch {
	case len(p.Threads) > 0:
		m.Convention = Getafix
		if strings.HasPrefix(p.ConcurrentWhy, namedWhy) {
			m.Convention = Named
		}
		m.Init = p.Init
		if m.Init >= 0 && p.Procs[m.Init].Entry == p.Procs[m.Init].Exit {
			m.Init = -1
		}
		m.Static = slices.Clone(p.Threads)
		for i, g := range p.Globals {
			if g == "atomic" {
				m.AtomicGlobal = i
			}
		}
		if len(m.Sites) > 0 || m.AtomicSections && m.Convention == Getafix {
			pos, what := m.threadStmt()
			return nil, &Error{pos, fmt.Sprintf("%s in a program of the %s convention: the conventions cannot be mixed (use the global `atomic` and the thread procedures, or start_thread and atomic sections)", what, m.Convention)}
		}
		for _, pr := range p.Procs {
			if slices.Contains(pr.Locals, "atomic") {
				return nil, &Error{pr.Pos, fmt.Sprintf("procedure %s declares a local `atomic`: in the %s convention only the global `atomic` forbids context switches", pr.Name, m.Convention)}
			}
		}
	case len(m.Sites) > 0:
		m.Convention = Dynamic
		m.Static = []int{p.Main}
	default:
		m.Convention = Sequential
		if p.Main >= 0 {
			m.Static = []int{p.Main}
		}
	}
	if m.Convention == Dynamic {
		m.MaxThreads = opt.MaxThreads
		if m.MaxThreads == 0 {
			m.MaxThreads = len(m.Sites)
		}
		m.Creations = creationBound(p, m.Static)
		called := calledProcs(p)
		for _, s := range m.Sites {
			if s.Op.Goto >= 0 && called[s.Proc] {
				pr := p.Procs[s.Proc]
				return nil, &Unsupported{fmt.Sprintf("start_thread goto at line %d of %s, a procedure that is called: the new thread would copy its callers' frames, which the sequentialisations do not model", pr.Edges[s.Edge].Pos.Line, pr.Name)}
			}
		}
	} else if opt.MaxThreads > 0 {
		return nil, &Error{Msg: fmt.Sprintf("--max-threads %d: the program creates no threads at run time (%s convention)", opt.MaxThreads, m.Convention)}
	}
	return m, nil
}

// threadStmt returns the position and name of the first SATABS thread
// construct of the program.
func (m *Model) threadStmt() (syntax.Pos, string) {
	for _, pr := range m.Prog.Procs {
		for _, e := range pr.Edges {
			switch e.Op.(type) {
			case *ir.StartThread:
				return e.Pos, "start_thread (or an ASYNC_n call)"
			case *ir.AtomicBegin:
				return e.Pos, "atomic_begin"
			case *ir.AtomicEnd:
				return e.Pos, "atomic_end"
			}
		}
	}
	return syntax.Pos{}, "a thread statement"
}

// calledProcs returns the procedures that some Call edge calls.
func calledProcs(p *ir.Program) []bool {
	called := make([]bool, len(p.Procs))
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			if c, ok := e.Op.(*ir.Call); ok {
				called[c.Proc] = true
			}
		}
	}
	return called
}

// namedWhy starts the Program.ConcurrentWhy of a WithThreads program.
const namedWhy = "threads named by --threads "

// WithThreads returns a copy of p whose threads are the named procedures,
// in order (a name may repeat: `--threads f,g,g` runs two copies of g), as
// the Getafix convention runs thread procedures: from nondeterministic
// globals and locals (parameters too), main not run unless named. The copy
// shares p's procedures. It reports an *Error for a name that is no
// procedure, and for a program that already says which threads it runs
// (the Getafix convention, start_thread or ASYNC_n calls) or has global
// initialisers (they run at main's entry, which the named threads skip).
func WithThreads(p *ir.Program, names []string) (*ir.Program, error) {
	if len(names) == 0 {
		return nil, &Error{Msg: "--threads: no thread named"}
	}
	if p.Concurrent {
		return nil, &Error{p.ConcurrentPos, fmt.Sprintf("--threads names the threads, but the program already starts threads (%s): the conventions cannot be mixed", p.ConcurrentWhy)}
	}
	var threads []int
	for _, n := range names {
		pr := p.Proc(n)
		if pr == nil {
			var have []string
			for _, q := range p.Procs {
				have = append(have, q.Name)
			}
			return nil, &Error{Msg: fmt.Sprintf("--threads: no procedure %q (the program has %s)", n, strings.Join(have, ", "))}
		}
		threads = append(threads, pr.Index)
	}
	if p.Main >= 0 {
		main := p.Procs[p.Main]
		if l := main.Locations[main.Entry]; strings.HasPrefix(l.Text, "decl ") {
			return nil, &Error{l.Pos, "--threads: the program has global initialisers, which run at main's entry; named threads start from nondeterministic globals (write an init() and thread procedures instead)"}
		}
	}
	q := *p
	q.Threads = threads
	q.Init = -1
	q.Concurrent = true
	q.ConcurrentPos = syntax.Pos{}
	q.ConcurrentWhy = namedWhy + strings.Join(names, ",")
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			if _, ok := e.Op.(*ir.StartThread); ok {
				return nil, &Error{e.Pos, "--threads names the threads, but the program starts threads itself: the conventions cannot be mixed"}
			}
		}
	}
	return &q, nil
}
