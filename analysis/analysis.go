// Package analysis holds the whole-program analyses that the engines share
// (call graph, its strongly connected components, the reverse postorder of
// each procedure's locations, MOD/REF, live variables), each computed at
// most once per program, behind a small registry in the spirit of
// golang.org/x/tools/go/analysis: an Analysis declares the analyses it
// requires, and a Cache computes each one on first use, its requirements
// first, and keeps the result.
//
//	c := analysis.NewCache(prog)
//	mr := analysis.Of(c, analysis.ModRef) // computes CallGraph, then ModRef
//	lv := analysis.Of(c, analysis.Liveness) // reuses both
//
// Results are shared: a caller must not modify them.
//
// Variables are numbered by slots (see Slots): globals first, then the
// locals of the executing procedure, then the returned values, the
// numbering of package symbolic's BDD layout.
package analysis

import (
	"fmt"
	"sync"

	"boolprog/ir"
)

// Key is what an analysis is known by in a Cache and in the Requires of
// another analysis: an *Analysis[T] of any result type T.
type Key interface {
	// Name returns the analysis's name.
	Name() string
	requires() []Key
	run(*Pass) any
}

// Analysis is a computation over a program with a result of type T.
type Analysis[T any] struct {
	// Title is the analysis's name (for errors and documentation).
	Title string
	// Doc says what the result is.
	Doc string
	// Requires lists the analyses whose results Run reads (with Result):
	// they are computed first.
	Requires []Key
	// Run computes the result.
	Run func(*Pass) T
}

// Name returns a.Title.
func (a *Analysis[T]) Name() string    { return a.Title }
func (a *Analysis[T]) requires() []Key { return a.Requires }
func (a *Analysis[T]) run(p *Pass) any { return a.Run(p) }

// Pass is what Run receives: the program, and the results of the required
// analyses.
type Pass struct {
	Prog  *ir.Program
	Slots Slots // the slot numbering of Prog
	of    Key
	cache *Cache
}

// Result returns the result of analysis a, which the running analysis must
// require (it panics otherwise: a missing declaration is a bug).
func Result[T any](p *Pass, a *Analysis[T]) T {
	for _, r := range p.of.requires() {
		if r == Key(a) {
			return Of(p.cache, a)
		}
	}
	panic(fmt.Sprintf("analysis: %s reads %s without requiring it", p.of.Name(), a.Name()))
}

// Cache holds the results of the analyses of one program. It is safe for
// concurrent use: each analysis runs once, whoever asks first.
type Cache struct {
	prog  *ir.Program
	slots Slots
	mu    sync.Mutex
	res   map[Key]*entry
}

type entry struct {
	once sync.Once
	val  any
}

// NewCache returns an empty cache for p.
func NewCache(p *ir.Program) *Cache {
	return &Cache{prog: p, slots: SlotsOf(p), res: make(map[Key]*entry)}
}

// CacheFor returns c if it is a cache of p, and a new cache of p otherwise
// (c nil, or another program's): how a function that may be given the
// check's cache (an optional parameter) gets one.
func CacheFor(c *Cache, p *ir.Program) *Cache {
	if c != nil && c.prog == p {
		return c
	}
	return NewCache(p)
}

// Prog returns the program of the cache.
func (c *Cache) Prog() *ir.Program { return c.prog }

// Of returns the result of a on c's program, computing it (and, first,
// what it requires) if no one has yet.
func Of[T any](c *Cache, a *Analysis[T]) T {
	return c.get(a).(T)
}

func (c *Cache) get(k Key) any {
	c.mu.Lock()
	e := c.res[k]
	if e == nil {
		e = &entry{}
		c.res[k] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		for _, r := range k.requires() {
			c.get(r)
		}
		e.val = k.run(&Pass{Prog: c.prog, Slots: c.slots, of: k, cache: c})
	})
	return e.val
}
