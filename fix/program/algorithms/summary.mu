// The simple summary algorithm (Getafix paper, §4.1).
//
// Summary(u, v): u is the entry state of a procedure, v a state of the same
// procedure reachable from u by a run that returns from every call it
// makes. Every entry state is a start, reachable or not: this is the
// classical algorithm that computes summaries of unreachable contexts too.
mu bool Summary(State u, State v) u ~+ v (
     (Entry(u) & u = v)
   | (exists State x. (Summary(u, x) & ProgramInt(x, v)))
   | (exists State x, State y, State z.
        (Summary(u, x) & IntoCall(x, y) & Summary(y, z) & Exit(z) & Return(x, z, v)))
);

// Reachable(u, v): Summary restricted to the contexts that are reached:
// the initial state of main, and the entries that reachable calls enter.
mu bool Reachable(State u, State v) u ~+ v (
     (Init(u) & Summary(u, v))
   | (exists State x, State y. (Reachable(x, y) & IntoCall(y, u) & Summary(u, v)))
);

(exists State u, State v. (Reachable(u, v) & Target(v)));
