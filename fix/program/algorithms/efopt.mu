// The optimised entry-forward algorithm with the frontier bit (Getafix
// paper, §4.3).
//
// Summary(true, u, v) is entry-forward's Summary(u, v). Each round,
// Summary(false, .) holds what Summary(true, .) held the round before, so
// the pairs new in the last round are Summary(true, .) & !Summary(false, .),
// and Relevant holds their program counters. A round then works only from
// the pairs at relevant program counters (all of them, not just the new
// ones: the set of all pairs at a few pcs has a small BDD where the exact
// frontier often does not).
mu bool Summary(bool fr, State u, State v) fr < u, u ~+ v (
     (fr & Init(u) & u = v)
   | Summary(true, u, v)
   | (fr & (New1(u, v) | New2(u, v)))
);

// Relevant(p): p's program counter is that of a pair found in the last round.
mu bool Relevant(State p) (
   exists State u, State v. (Summary(true, u, v) & !Summary(false, u, v) & v.pc = p.pc)
);

// New1: internal moves from the relevant pairs, to a fixed point.
mu bool New1(State u, State v) u ~+ v (
     (Summary(true, u, v) & Relevant(v))
   | (exists State x. (New1(u, x) & ProgramInt(x, v)))
);

// New2: entries of procedures called from relevant states, and returns
// where the call or the callee's exit is relevant.
mu bool New2(State u, State v) u ~+ v (
     (exists State x, State y. (Relevant(y) & Summary(true, x, y) & IntoCall(y, u) & u = v))
   | (exists State x, State y, State z.
        (Summary(true, u, x) & IntoCall(x, y) & Summary(true, y, z) & Exit(z)
         & Return(x, z, v) & (Relevant(x) | Relevant(z))))
);

(exists State u, State v. (Summary(true, u, v) & Target(v)));
