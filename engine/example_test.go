package engine_test

import (
	"context"
	"fmt"
	"time"

	"boolprog/engine"
	_ "boolprog/engine/explicit" // registers the explicit engine
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// Example looks an engine up in the registry, sets one of its own flags,
// and runs it with a timeout whose expiry Run reports as "timeout".
func Example() {
	src := "decl g;\nvoid main() begin g := *; assert(!g); end\n"
	f, err := syntax.ParseFile("ex.bp", []byte(src), syntax.CProver)
	if err != nil {
		panic(err)
	}
	info, _, _ := sema.Check(f)
	p, err := ir.Lower(f, info, ir.Options{})
	if err != nil {
		panic(err)
	}

	entry, ok := engine.Lookup("explicit")
	if !ok {
		panic("no explicit engine")
	}
	fs, build := entry.FlagSet()
	if err := fs.Parse([]string{"-max-vars", "8"}); err != nil {
		panic(err)
	}
	eng, err := build()
	if err != nil {
		panic(err) // a usage error: a value the engine cannot honour
	}

	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Minute, engine.ErrTimeout)
	defer cancel()
	res := engine.Run(ctx, eng, p, engine.Query{})
	fmt.Println(res.Banner())
	fmt.Println(res.Property.Kind, res.Property.Text, res.Trace.Len(), "steps")
	// Output:
	// VERIFICATION FAILED
	// assertion assert(!g) 2 steps
}
