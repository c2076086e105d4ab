// The entry-forward algorithm with the split return clause (Getafix
// paper, §4.2).
//
// Summary(u, v): u is the entry state of a procedure that the program
// reaches, v a state of the same procedure reachable from u by a run that
// returns from every call it makes. Only reachable pairs are ever
// computed: a procedure's entry state appears once a reachable call enters
// it.
mu bool Summary(State u, State v) u ~+ v (
     (Init(u) & u = v)
   | (exists State x. (Summary(u, x) & ProgramInt(x, v)))
   | (exists State x, State y. (Summary(x, y) & IntoCall(y, u) & u = v))
   // Across a call, in two halves that meet on a few values: the call's
   // pc (xs.pc), the callee's exit pc (zs.pc) and its entry state y. The
   // caller's half relates u, the call and the return state's locals; the
   // callee's half its exit, the globals and the returned values.
   | (exists State xs, State zs, State y.
        ((exists State x. (Summary(u, x) & IntoCall(x, y) & ReturnA(x, zs, v) & xs.pc = x.pc))
       & (exists State z. (Summary(y, z) & zs.pc = z.pc & Exit(z) & ReturnB(xs, z, v)))))
);

(exists State u, State v. (Summary(u, v) & Target(v)));
