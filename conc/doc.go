// Package conc is the library of concurrent Boolean programs that the
// concurrent engines share (conc-eager and conc-lazy in engine/conc,
// conc-fix in engine/concfix): the thread model of a program, and its
// sequentialisations, which turn context-bounded reachability of a
// concurrent program into plain reachability of a sequential one that any
// sequential engine decides.
//
// # Thread models
//
// NewModel reads which threads a lowered program runs, by its convention
// (Convention):
//
//   - Getafix: procedures thread0, thread1, … (and main) run as threads
//     over the shared globals after init runs alone; the global atomic,
//     while T, forbids a context switch;
//   - Dynamic (SATABS): main is thread 0 and creates threads at run time
//     with start_thread and ASYNC_n calls, at most Model.MaxThreads of
//     them; atomic_begin/atomic_end make sections atomic;
//   - Named: the threads named on the command line (WithThreads);
//   - Sequential: no threads.
//
// A program that mixes the conventions is an *Error at the construct that
// does it; one the sequentialisations cannot express is *Unsupported.
//
// AtomicCalls makes the calls of procedures named __VERIFIER_atomic_*
// atomic, as SV-COMP's C runs those functions, by the convention's own
// means (the global atomic, or atomic sections); the pipeline applies it
// to every concurrent program unless told not to.
//
// # Sequentialisations
//
// Build (Eager, Lazy) writes, with package ir's builder, a sequential
// program that simulates the model's runs within a number of round-robin
// rounds (round by round, the threads in order, one context each per
// round, possibly empty), or within a number of non-empty contexts
// (SeqOptions.Contexts, which is how a bound in context switches is
// asked). Eager is Lal and Reps's: copies of the globals per round, the
// later rounds' values guessed at the start and checked at the end. Lazy
// is La Torre, Madhusudan and Parlato's: every context recomputed from the
// recorded states of the ones before, so that every state the program
// reaches is reachable in the concurrent program. The procedures of the
// program are copied per thread (and round), each copy's locations and
// edges keeping the ir.Origin of what they copy, with its thread and
// round; Print writes the result as a program that parses on its own
// (`boolprog seq`).
//
// Threads created at run time get slots in the order of their creation.
// Asked about runs of at most k context switches (SeqOptions.Switches,
// Contexts), a sequentialisation has only the slots of the threads that
// can step, at most k created ones (Model.SwitchSlots): a creation takes
// the next free slot or makes a thread that never steps. The creation
// counter, which cuts a run at Model.MaxThreads, is kept only when a run
// may create more (Model.Creations); the lazy records of a thread's
// contexts share the variables of the components it never writes.
//
// A trace of the sequential program maps back (Seq.Trace) to a trace of
// the concurrent program that interp.Replay accepts: its own steps, each
// with its thread, context switches marked.
package conc
