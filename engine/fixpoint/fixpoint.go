// Package fixpoint checks sequential Boolean programs with the algorithms
// of the Getafix paper (La Torre, Madhusudan, Parlato, 2009), written as
// formulas of the fixed-point calculus and solved by package fix.
//
// The program never appears in a formula's text. Its states are values
// of the type State, and the program is a handful of relations between
// states (Entry, Exit, Target, Init, Across, ProgramInt, IntoCall, Return,
// ReturnA, ReturnB), built as BDDs by package fix/program and handed to
// the solver (fix.Solver.Provide).
//
// An algorithm is the rest of a formula file: relations over States and a
// query that is true iff an error location is reachable. The built-in ones
// (program.Algorithm) are the paper's simple summary algorithm (§4.1),
// entry-forward with the split return clause (§4.2, engine "ef") and
// optimised entry-forward with the frontier bit (§4.3, engine "efopt");
// the engines' --formula flag runs a user's file instead. program.WriteModel
// writes a whole model (the relations as formulas, then the algorithm)
// that `boolprog mucke` evaluates on its own.
//
// When the error is reachable, the trace is built from the rounds of the
// summary relation (fix.Solver.Track): a pair found in round k comes from
// pairs of earlier rounds (or, for efopt, from pairs of the same round by
// internal steps), and walking back through them with concrete states
// gives an execution that interp.Replay accepts. A user's formula has no
// known summary relation: its traces come from the ef algorithm.
package fixpoint

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/ir"
	"boolprog/result"
)

// Options configure an engine.
type Options struct {
	// Algorithm is the name of a built-in algorithm (Algorithms).
	Algorithm string
	// Formula, if not empty, is the text of a user's algorithm, and
	// FormulaFile its file name (for messages); it replaces Algorithm.
	Formula, FormulaFile string
}

// Engine runs one algorithm.
type Engine struct {
	name string
	opts Options
	alg  *fix.File // the parsed algorithm
}

// New returns an engine named name running the algorithm opts asks for.
// A user's formula that does not parse, or that does not check against
// the program relations' declarations, is an error (file:line:col:
// message lines).
func New(name string, opts Options) (*Engine, error) {
	src, file := opts.Formula, opts.FormulaFile
	if src == "" {
		var err error
		if src, err = program.Algorithm(opts.Algorithm); err != nil {
			return nil, err
		}
		file = opts.Algorithm + ".mu"
	}
	f, err := fix.ParseFile(file, []byte(src))
	if err != nil {
		return nil, err
	}
	e := &Engine{name: name, opts: opts, alg: f}
	// Check the formula now against a small program's declarations, so
	// that a mistake in it is reported before any program is read (the
	// declarations do not depend on the program, only the sizes do).
	if _, err := e.file(program.NewEncoding(tinyProgram)); err != nil {
		return nil, err
	}
	return e, nil
}

// tinyProgram is a program with one empty procedure.
var tinyProgram = func() *ir.Program {
	b := ir.NewBuilder("tiny.bp", "")
	pb := b.Proc("main", ir.Location{}.Pos, nil, 0)
	l := pb.Loc(ir.Location{Kind: ir.ExitLoc})
	pb.SetEntry(l)
	pb.SetExit(l)
	b.SetMain(pb.Index())
	p, err := b.Build()
	if err != nil {
		panic("fixpoint: " + err.Error())
	}
	return p
}()

// file returns the algorithm preceded by the program's declarations.
// The algorithm's declarations come first (the checker resolves types
// wherever they are declared), so that its positions are its own file's.
func (e *Engine) file(enc *program.Encoding) (*fix.File, error) {
	var buf bytes.Buffer
	src := e.opts.Formula
	if src == "" {
		src, _ = program.Algorithm(e.opts.Algorithm)
	}
	if err := program.WritePrelude(&buf, enc, src); err != nil {
		return nil, err
	}
	pre, err := fix.ParseFile("program relations", buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("fixpoint: internal error: the declarations do not parse: %v", err)
	}
	alg, err := fix.ParseFile(e.alg.Name, []byte(src))
	if err != nil {
		return nil, err
	}
	hasQuery := false
	for _, d := range alg.Decls {
		_, isQuery := d.(*fix.Query)
		hasQuery = hasQuery || isQuery
	}
	if !hasQuery {
		return nil, fmt.Errorf("%s: the algorithm has no query (a final formula, true iff an error location is reachable)", alg.Name)
	}
	f := &fix.File{Name: e.alg.Name, Decls: append(alg.Decls, pre.Decls...)}
	if err := fix.Check(f); err != nil {
		return nil, err
	}
	return f, nil
}

// Name returns the engine's name.
func (e *Engine) Name() string { return e.name }

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// ReasonConcurrent is the Unknown reason for concurrent programs.
const ReasonConcurrent = "concurrent program: the fixed-point engines check sequential programs"

// Supports refuses concurrent programs and bounded queries.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	return engine.SupportsSequential(e.name, ReasonConcurrent, p, q)
}

func init() {
	for _, alg := range []struct{ name, doc string }{
		{"ef", "Getafix entry-forward summaries (§4.2) as a fixed-point formula, solved by package fix"},
		{"efopt", "Getafix optimised entry-forward with the frontier bit (§4.3) as a fixed-point formula"},
	} {
		alg := alg
		engine.Register(engine.Info{
			Names: []string{alg.name},
			Doc:   alg.doc,
			Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
				// Read once, when the flag is parsed: the constructor
				// runs more than once.
				formula := &engine.FileFlag{}
				fs.Var(formula, "formula", "run the algorithm of this formula file against the program's relations")
				return func() (engine.Engine, error) {
					opts := Options{Algorithm: alg.name}
					if formula.IsFile() {
						if formula.Err != nil {
							return nil, fmt.Errorf("--formula: %v", formula.Err)
						}
						if len(bytes.TrimSpace(formula.Data)) == 0 {
							// Never the built-in algorithm in its place.
							return nil, &engine.InputError{Err: fmt.Errorf("%s: empty formula file", formula.Value)}
						}
						opts.Formula, opts.FormulaFile = string(formula.Data), formula.Value
					}
					e, err := New(alg.name, opts)
					if err != nil && opts.Formula != "" {
						// The user's file is wrong, not the command line.
						return nil, &engine.InputError{Err: err}
					}
					return e, err
				}
			},
			NodeLimited: true,
		})
	}
}

// maxNodes is the node limit of a query.
func maxNodes(q engine.Query) int {
	if q.MaxNodes > 0 {
		return q.MaxNodes
	}
	return 1 << 26
}

// Check decides whether an error location of p is reachable. Stats
// counters: rounds (of the summary relation, when known), peak_bdd_nodes,
// bdd_vars, time_build_ns (the program's relations), time_solve_ns, and
// for unsafe programs trace_steps.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	if err := q.Validate(p); err != nil {
		return nil, err
	}
	if why := e.Supports(p, q); why != nil {
		return result.NewUnknown(e.name, why.Error()), nil
	}
	if res := engine.ErrorUnreachable(p, q); res != nil {
		res.Engine = e.name
		return res, nil
	}
	res, err := e.check(ctx, p, q)
	if res != nil {
		res.Engine = e.name
	}
	return res, err
}

// run is one solution of an algorithm on a program.
type run struct {
	enc  *program.Encoding
	sv   *fix.Solver
	rels *program.Relations
	ans  *fix.Answer
}

func (r *run) release() { r.sv.Release() }

// solve solves the algorithm of e on the program, tracking the summary
// relation track (if not empty).
func (e *Engine) solve(ctx context.Context, enc *program.Encoding, q engine.Query, track string) (*run, *result.Result, error) {
	start := time.Now()
	f, err := e.file(enc)
	if err != nil {
		return nil, nil, err
	}
	sv, err := fix.NewSolver(f, fix.Options{MaxNodes: q.MaxNodes})
	if err != nil {
		return nil, nil, err
	}
	r := &run{enc: enc, sv: sv, rels: program.NewRelations(sv.Manager(), enc)}
	res := &result.Result{Verdict: result.Safe}
	if err := r.provide(ctx); err != nil {
		res.Stats.Set("peak_bdd_nodes", int64(sv.Manager().Stats().PeakNodes))
		r.release()
		if u := e.stopped(ctx, q, res, err); u != nil {
			return nil, u, nil
		}
		return nil, nil, err
	}
	res.Stats.Set("time_build_ns", int64(time.Since(start)))
	if track != "" {
		if err := sv.Track(track); err != nil {
			r.release()
			return nil, nil, err
		}
	}
	t0 := time.Now()
	q.Report(result.PhaseReach, "")
	r.ans, err = sv.Solve(ctx)
	// Solve leaves the manager without an interrupt; the trace's
	// operations need one as much as the relations' did.
	sv.Manager().SetInterrupt(func() bool { return ctx.Err() != nil })
	res.Stats.Set("time_solve_ns", int64(time.Since(t0)))
	res.Stats.AddPhase(result.PhaseReach, time.Since(start))
	st := sv.Manager().Stats()
	res.Stats.Set("peak_bdd_nodes", int64(st.PeakNodes))
	res.Stats.Set("bdd_vars", int64(st.Vars))
	if err != nil {
		r.release()
		if u := e.stopped(ctx, q, res, err); u != nil {
			return nil, u, nil
		}
		return nil, nil, err
	}
	return r, res, nil
}

// stopped turns an error of the solver into an Unknown verdict, or nil if
// it is an internal error.
func (e *Engine) stopped(ctx context.Context, q engine.Query, res *result.Result, err error) *result.Result {
	var reason string
	switch {
	case ctx.Err() != nil:
		reason = engine.StopReason(ctx)
	case errors.Is(err, bdd.ErrNodeLimit):
		reason = bdd.LimitReason(err, maxNodes(q))
	case errors.Is(err, fix.ErrNoFixedPoint):
		reason = err.Error()
	default:
		return nil
	}
	r := result.NewUnknown(e.name, reason)
	r.Stats = res.Stats
	return r
}

// provide builds and provides every program relation the file declares.
// The manager polls ctx inside operations: building the relations of a
// large program takes longer than a time limit (ef on 200 globals and 100
// procedures ran 12 s past a 2 s limit, and did not answer SIGINT); an
// interrupted operation fails with bdd.ErrInterrupted, and every later one
// returns at once.
func (r *run) provide(ctx context.Context) error {
	m := r.sv.Manager()
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	for _, name := range r.sv.Declared() {
		if err := ctx.Err(); err != nil {
			return err
		}
		params, err := r.sv.Params(name)
		if err != nil {
			return err
		}
		sts := make([]program.StateVars, len(params))
		for i, p := range params {
			if sts[i], err = r.stateVars(name, p); err != nil {
				return err
			}
		}
		var v bdd.Node
		switch name {
		case "Entry":
			v = r.rels.Entry(sts[0])
		case "Exit":
			v = r.rels.Exit(sts[0])
		case "Target":
			v = r.rels.Target(sts[0])
		case "Init":
			v = r.rels.Init(sts[0])
		case "Across":
			v = r.rels.Across(sts[0], sts[1])
		case "ProgramInt":
			v = r.rels.Internal(sts[0], sts[1])
		case "IntoCall":
			v = r.rels.IntoCall(sts[0], sts[1])
		case "Return":
			v = r.rels.Return(sts[0], sts[1], sts[2])
		case "ReturnA":
			v = r.rels.ReturnA(sts[0], sts[1], sts[2])
		case "ReturnB":
			v = r.rels.ReturnB(sts[0], sts[1], sts[2])
		default:
			return fmt.Errorf("fixpoint: internal error: no relation %s", name)
		}
		if err := m.Err(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := r.sv.Provide(name, v); err != nil {
			return err
		}
	}
	return nil
}

// stateVars returns the bits of a State variable of a relation.
func (r *run) stateVars(rel, name string) (program.StateVars, error) {
	var sv program.StateVars
	var err error
	if sv.PC, err = r.sv.Bits(rel, name, "pc"); err != nil {
		return sv, err
	}
	sv.Slots = make([]int, r.enc.Slots.N())
	for s := range sv.Slots {
		b, err := r.sv.Bits(rel, name, r.enc.FieldName(s))
		if err != nil {
			return sv, err
		}
		sv.Slots[s] = b[0]
	}
	return sv, nil
}

func (e *Engine) check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	enc := program.NewEncoding(p)
	track := ""
	if e.opts.Formula == "" && e.opts.Algorithm != "summary" {
		track = "Summary"
	}
	r, res, err := e.solve(ctx, enc, q, track)
	if err != nil || r == nil {
		return res, err
	}
	defer r.release()
	for _, rs := range r.ans.Relations {
		if rs.Name == track {
			res.Stats.Set("rounds", int64(rs.Iterations))
		}
	}
	if !r.ans.Value {
		return res, nil
	}
	start := time.Now()
	q.Report(result.PhaseTrace, "")
	defer func() { res.Stats.AddPhase(result.PhaseTrace, time.Since(start)) }()
	tr := r
	if track == "" {
		// No known summary relation: the trace comes from ef's rounds.
		ef, err := New("ef", Options{Algorithm: "ef"})
		if err != nil {
			return nil, err
		}
		var efRes *result.Result
		tr, efRes, err = ef.solve(ctx, enc, q, "Summary")
		if err != nil || tr == nil {
			if efRes != nil {
				efRes.Engine = e.name
			}
			return efRes, err
		}
		defer tr.release()
		track = "Summary"
	}
	trace, err := newTracer(ctx, tr, track).run()
	if err != nil {
		if u := e.stopped(ctx, q, res, err); u != nil {
			u.Verdict, u.TraceCut = result.Unsafe, true
			return u, nil
		}
		if errors.Is(err, errNoError) && e.opts.Formula != "" {
			// The user's formula says an error is reachable; ef finds
			// none: the formula is wrong.
			return result.NewUnknown(e.name, fmt.Sprintf("%s says an error is reachable, but no execution reaches one", e.opts.FormulaFile)), nil
		}
		return nil, err
	}
	res.Verdict = result.Unsafe
	res.Trace = trace
	res.Stats.Set("trace_steps", int64(len(trace.Steps)))
	return res, nil
}
