package gen

import (
	"math/rand/v2"
)

// This file holds a small random simulator for the generator's own tree. It
// is no model checker: it runs a program many times, resolving every
// nondeterministic choice at random, and reports whether some run reached an
// error. "Found" is thus a lower bound on "reachable"; the tests use it to
// measure the mix of reachable and unreachable errors that Random produces.

type opcode int

const (
	opNop opcode = iota
	opAssign
	opCall
	opBranch // if !cond goto target
	opJump   // goto one of targets
	opAssume
	opAssert
	opDead
	opReturn
)

type instr struct {
	op      opcode
	s       *st   // the statement (operands)
	cond    *ex   // opBranch
	targets []int // opBranch (one), opJump
	isError bool  // labelled SLIC_ERROR
}

type simProc struct {
	p    *proc
	code []instr
}

func compileProc(p *proc) *simProc {
	sp := &simProc{p: p}
	at := map[*st]int{}
	type fix struct {
		pc int
		s  *st
	}
	var fixes []fix
	emit := func(in instr) int {
		sp.code = append(sp.code, in)
		return len(sp.code) - 1
	}
	var block func(ss []*st)
	block = func(ss []*st) {
		for _, s := range ss {
			at[s] = len(sp.code)
			isErr := false
			for _, l := range s.labels {
				if l == "SLIC_ERROR" {
					isErr = true
				}
			}
			start := len(sp.code)
			switch s.kind {
			case sSkip:
				emit(instr{op: opNop})
			case sAssign:
				emit(instr{op: opAssign, s: s})
			case sCall:
				emit(instr{op: opCall, s: s})
			case sAssume:
				emit(instr{op: opAssume, s: s})
			case sAssert:
				emit(instr{op: opAssert, s: s})
			case sDead:
				emit(instr{op: opDead, s: s})
			case sReturn:
				emit(instr{op: opReturn, s: s})
			case sGoto:
				fixes = append(fixes, fix{emit(instr{op: opJump, s: s}), s})
			case sIf:
				br := emit(instr{op: opBranch, cond: s.cond, targets: []int{-1}})
				block(s.then)
				j := emit(instr{op: opJump, targets: []int{-1}})
				sp.code[br].targets[0] = len(sp.code)
				block(s.els)
				sp.code[j].targets[0] = len(sp.code)
			case sWhile:
				br := emit(instr{op: opBranch, cond: s.cond, targets: []int{-1}})
				block(s.body)
				emit(instr{op: opJump, targets: []int{br}})
				sp.code[br].targets[0] = len(sp.code)
			}
			if isErr {
				sp.code[start].isError = true
			}
		}
	}
	block(p.body)
	emit(instr{op: opReturn, s: &st{kind: sReturn}})
	for _, f := range fixes {
		for _, t := range f.s.targets {
			sp.code[f.pc].targets = append(sp.code[f.pc].targets, at[t])
		}
	}
	return sp
}

type frame struct {
	proc int
	pc   int
	vars map[string]bool
	call *st // the call statement in the caller that created this frame
}

type sim struct {
	prog    *program
	procs   []*simProc
	r       *rand.Rand
	globals map[string]bool
	stack   []*frame
}

func (m *sim) lookup(name string) bool {
	f := m.stack[len(m.stack)-1]
	if v, ok := f.vars[name]; ok {
		return v
	}
	return m.globals[name]
}

func (m *sim) set(name string, v bool) {
	f := m.stack[len(m.stack)-1]
	if _, ok := f.vars[name]; ok {
		f.vars[name] = v
		return
	}
	m.globals[name] = v
}

func (m *sim) eval(x *ex, primed map[string]bool) bool {
	switch x.kind {
	case eConst:
		return x.val
	case eNondet:
		return m.r.IntN(2) == 0
	case eVar:
		if x.primed {
			return primed[x.name]
		}
		return m.lookup(x.name)
	case eNot:
		return !m.eval(x.x, primed)
	case eSchoose:
		if m.eval(x.x, primed) {
			return true
		}
		if m.eval(x.y, primed) {
			return false
		}
		return m.r.IntN(2) == 0
	}
	a, b := m.eval(x.x, primed), m.eval(x.y, primed)
	switch x.op {
	case "&":
		return a && b
	case "|":
		return a || b
	case "^", "!=":
		return a != b
	case "=":
		return a == b
	case "=>":
		return !a || b
	}
	panic("bad op")
}

// enforced reports whether the current procedure's enforce holds.
func (m *sim) enforced() bool {
	f := m.stack[len(m.stack)-1]
	e := m.prog.procs[f.proc].enforce
	return e == nil || m.eval(e, nil)
}

// push enters procedure i with the given argument values; it reports false
// if no initial local valuation satisfying enforce was found.
func (m *sim) push(i int, args []bool, call *st) bool {
	p := m.prog.procs[i]
	f := &frame{proc: i, vars: map[string]bool{}, call: call}
	m.stack = append(m.stack, f)
	for try := 0; try < 8; try++ {
		for k, name := range p.params {
			f.vars[name] = args[k]
		}
		for _, name := range p.locals {
			f.vars[name] = m.r.IntN(2) == 0
		}
		if m.enforced() {
			return true
		}
	}
	return false
}

// run executes one random run of at most maxSteps steps and reports whether
// it reached an error.
func (m *sim) run(maxSteps, maxDepth int) bool {
	m.globals = map[string]bool{}
	for _, g := range m.prog.globals {
		m.globals[g] = m.r.IntN(2) == 0
	}
	m.stack = m.stack[:0]
	if !m.push(0, nil, nil) {
		return false
	}
	for step := 0; step < maxSteps; step++ {
		f := m.stack[len(m.stack)-1]
		in := m.procs[f.proc].code[f.pc]
		if in.isError {
			return true
		}
		next := f.pc + 1
		switch in.op {
		case opAssign:
			s := in.s
			ok := false
			for try := 0; try < 8 && !ok; try++ {
				vals := make([]bool, len(s.rhs))
				primed := map[string]bool{}
				for k, x := range s.rhs {
					vals[k] = m.eval(x, nil)
					primed[s.lhs[k]] = vals[k]
				}
				if s.constrain == nil || m.eval(s.constrain, primed) {
					for k, name := range s.lhs {
						m.set(name, vals[k])
					}
					ok = true
				}
			}
			if !ok {
				return false
			}
		case opCall:
			if len(m.stack) >= maxDepth {
				return false
			}
			args := make([]bool, len(in.s.args))
			for k, x := range in.s.args {
				args[k] = m.eval(x, nil)
			}
			f.pc = next
			if !m.push(in.s.callee, args, in.s) {
				return false
			}
			continue
		case opBranch:
			if !m.eval(in.cond, nil) {
				next = in.targets[0]
			}
		case opJump:
			next = in.targets[m.r.IntN(len(in.targets))]
		case opAssume:
			if !m.eval(in.s.cond, nil) {
				return false
			}
		case opAssert:
			if !m.eval(in.s.cond, nil) {
				return true
			}
		case opDead:
			for _, name := range in.s.vars {
				m.set(name, m.r.IntN(2) == 0)
			}
		case opReturn:
			vals := make([]bool, len(in.s.results))
			for k, x := range in.s.results {
				vals[k] = m.eval(x, nil)
			}
			m.stack = m.stack[:len(m.stack)-1]
			if len(m.stack) == 0 {
				return false
			}
			if f.call != nil {
				for k, name := range f.call.lhs {
					if name != "_" {
						m.set(name, vals[k])
					}
				}
			}
			if !m.enforced() {
				return false
			}
			continue
		}
		f.pc = next
		if !m.enforced() {
			return false
		}
	}
	return false
}

// simulate runs prog n times and reports whether some run reached an error.
func simulate(prog *program, seed uint64, n int) bool {
	m := &sim{prog: prog, r: rand.New(rand.NewPCG(seed, 1))}
	for _, p := range prog.procs {
		m.procs = append(m.procs, compileProc(p))
	}
	for i := 0; i < n; i++ {
		if m.run(2000, 64) {
			return true
		}
	}
	return false
}
