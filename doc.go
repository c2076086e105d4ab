// Package boolprog is the check pipeline, and the one import for embedding
// the Boolean-program checker in a Go program: Check parses, checks and
// lowers a program, chooses the engine (on a concurrent program without
// one named, a portfolio of engines run at once), builds the observer
// product of a specification, runs the engine, replays its trace in the
// concrete interpreter, writes a witness if asked, and returns a Result
// that prints exactly as `boolprog check` prints (text, the JSON report or
// the HTML page): the command is a thin layer that turns its flags into
// Options and writes the Result, and the playground calls Check too.
//
//	res, err := boolprog.Check(ctx, src, boolprog.Options{Filename: "f.bp", Target: "R"})
//	var in *boolprog.InputError
//	switch {
//	case errors.As(err, &in):
//		// in.Diagnostics: file:line:col: message, one per problem
//	case err != nil:
//		// a bad option (an unknown engine, a flag the engine does not have)
//	default:
//		res.Verdict // boolprog.Safe, Unsafe or Unknown (res.Reason says why)
//		res.Trace   // the steps to the error: line, procedure, thread, values
//		res.WriteText(os.Stdout)
//	}
//
// The promises are the command's (README, "check"): a verdict is a promise.
// Unsafe comes with a trace that interp.Replay has accepted (unless
// Options.NoReplay, or a time limit cut the trace, which TraceCut and Note
// say); Safe with a zero Bound is a proof, with a Bound only for the
// executions within it. Bad input never panics: it is an *InputError whose
// diagnostics say where. Resource limits (Timeout, MaxNodes, an engine's own
// budget) and the end of ctx are not errors but an Unknown result with its
// reason ("timeout (5s)", "interrupted", the engine's words), as are
// programs an engine does not handle.
//
// Every engine of the command is linked in; Engines lists them with their
// own flags, which Options.EngineFlags sets. The package builds for
// GOOS=js GOARCH=wasm too (the playground, see playground/), where a time
// limit is enforced by the engines' own polling, since WebAssembly has no
// preemption that would let a timer fire during a search.
package boolprog
