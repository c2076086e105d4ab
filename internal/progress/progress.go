// Package progress shows the phase of a long run on a terminal: one line,
// rewritten in place, that says which phase the run is in, what it has
// done so far, how long it has taken and the live heap; where standard
// error is not a terminal (asked for with check -v), one line per second.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"boolprog/internal/procstat"
)

// progressDelay is how long a run stays silent before its progress line
// appears: short runs print nothing extra.
const progressDelay = time.Second

// progressEvery is the refresh interval of the progress line.
const progressEvery = 250 * time.Millisecond

// Line shows the phase of a long run on stderr: on a terminal one line
// rewritten in place, elsewhere (with -v) one line per second. Its methods
// are safe to call on a nil Line.
type Line struct {
	w     io.Writer
	tty   bool
	start time.Time

	mu      sync.Mutex
	phase   string // result.PhaseParse, PhaseLower, PhaseReach, PhaseTrace, PhaseReplay
	detail  string // what the phase works on or has done: the file, the engine's figures, the steps
	since   time.Time
	shown   bool // a line is on the terminal and must be cleared
	stopped bool
	done    chan struct{}
	wg      sync.WaitGroup
}

// New returns a progress line on w if it is wanted: when stderr is a
// terminal (tty) or verbose asks for it, and not quiet. It returns nil
// otherwise.
func New(w io.Writer, tty, verbose, quiet bool) *Line {
	if quiet || !(tty || verbose) {
		return nil
	}
	p := &Line{w: w, tty: tty, start: time.Now(), done: make(chan struct{})}
	p.wg.Add(1)
	go p.loop()
	return p
}

// Set enters a phase, or (for the phase it is in) updates what the line
// says of the work so far. It is safe to call from any goroutine.
func (p *Line) Set(phase, detail string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if phase != p.phase {
		p.since = time.Now()
	}
	p.phase, p.detail = phase, detail
	p.mu.Unlock()
}

// Clear erases the progress line from a terminal so that other output
// (warnings) starts on a clean line; the next refresh draws it again.
func (p *Line) Clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// Stop ends the progress line (clearing it on a terminal). It may be called
// more than once.
func (p *Line) Stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	close(p.done)
	p.mu.Unlock()
	p.wg.Wait()
	p.Clear()
}

func (p *Line) loop() {
	defer p.wg.Done()
	every := progressEvery
	if !p.tty {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	heap := procstat.NewHeap()
	for {
		select {
		case <-p.done:
			return
		case now := <-t.C:
			if now.Sub(p.start) < progressDelay {
				continue
			}
			p.mu.Lock()
			line := "boolprog: " + p.phase
			if p.detail != "" {
				line += ": " + p.detail
			}
			line += fmt.Sprintf("; %v in phase, %v total, heap %d MB",
				now.Sub(p.since).Round(100*time.Millisecond), now.Sub(p.start).Round(100*time.Millisecond), heap.Bytes()>>20)
			if p.tty {
				fmt.Fprintf(p.w, "\r\033[K%s", line)
			} else {
				fmt.Fprintln(p.w, line)
			}
			p.shown = true
			p.mu.Unlock()
		}
	}
}
