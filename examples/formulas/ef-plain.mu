// Entry-forward summaries (the Getafix paper, §4.2) with the return clause
// as first written: one conjunction of the caller's summary, the call, the
// callee's summary and Return, before the paper splits it in two halves.
//
// Run it against any sequential program:
//
//	boolprog check --engine ef --formula examples/formulas/ef-plain.mu examples/bebop-fig1.bp
//
// The program is never seen here, only its relations over States (see
// package engine/fixpoint): Init, ProgramInt, IntoCall, Exit, Return and
// Target. The file must end with a query that is true iff an error
// location is reachable.

// Summary(u, v): u is the entry state of a reachable procedure, v a state
// of it reachable from u by a run that returns from every call.
mu bool Summary(State u, State v) u ~+ v (
     (Init(u) & u = v)
   | (exists State x. (Summary(u, x) & ProgramInt(x, v)))
   | (exists State x, State y. (Summary(x, y) & IntoCall(y, u) & u = v))
   | (exists State x, State y, State z.
        (Summary(u, x) & IntoCall(x, y) & Summary(y, z) & Exit(z) & Return(x, z, v)))
);

(exists State u, State v. (Summary(u, v) & Target(v)));
