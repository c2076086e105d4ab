package gen

// The generator builds a small private tree before printing it. The tree is
// independent of package syntax on purpose: the generator is a test input
// source for the parser and must not share its bugs.

type exKind int

const (
	eConst exKind = iota
	eNondet
	eVar
	eNot
	eBin
	eSchoose
)

// ex is an expression.
type ex struct {
	kind   exKind
	val    bool   // eConst
	name   string // eVar
	primed bool   // eVar
	op     string // eBin: one of & | ^ = != =>
	x, y   *ex    // eNot (x), eBin (x op y), eSchoose (schoose[x, y])
}

type stKind int

const (
	sSkip stKind = iota
	sAssign
	sCall
	sIf
	sWhile
	sAssume
	sAssert
	sDead
	sGoto
	sReturn
	sStart       // start_thread callee(args); or, with a target, start_thread goto L;
	sAtomicBegin // atomic_begin;
	sAtomicEnd   // atomic_end;
)

// st is a statement.
type st struct {
	kind      stKind
	label     string   // goto target label, printed first; "" if none
	labels    []string // further labels (SLIC_ERROR)
	lhs       []string // sAssign, sCall ("_" discards)
	rhs       []*ex    // sAssign
	constrain *ex      // sAssign, or nil
	callee    int      // sCall, sStart: index into program.procs
	args      []*ex    // sCall, sStart
	cond      *ex      // sIf, sWhile, sAssume, sAssert
	then      []*st    // sIf
	els       []*st    // sIf: nil, a block, or one sIf with elsif set
	elsif     bool     // sIf printed as `elsif`
	body      []*st    // sWhile
	vars      []string // sDead
	results   []*ex    // sReturn
	targets   []*st    // sGoto, resolved after the procedure is built; sStart: the goto's one target
}

// proc is a procedure.
type proc struct {
	name    string
	returns int
	params  []string
	locals  []string
	enforce *ex
	body    []*st
}

// program is a whole Boolean program.
type program struct {
	header  string
	globals []string
	procs   []*proc // procs[0] is main
}
