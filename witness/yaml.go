package witness

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"boolprog/syntax"
)

// WriteYAML writes the witness in boolprog's YAML witness format (see the
// package doc and schema/boolprog-witness-1.json), modelled on SV-COMP's
// YAML format 2.0: a list with one entry, of entry_type
// violation_sequence or invariant_set, with its metadata and content.
func (w *Witness) WriteYAML(out io.Writer) error {
	b := bufio.NewWriter(out)
	p := func(indent int, format string, args ...any) {
		for i := 0; i < indent; i++ {
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	q := yamlQuote
	entry := "violation_sequence"
	if w.Kind == Correctness {
		entry = "invariant_set"
	}
	m := w.Metadata
	p(0, "- entry_type: %s", entry)
	p(2, "metadata:")
	p(4, "format_version: %s", q(FormatVersion))
	p(4, "uuid: %s", q(m.UUID))
	p(4, "creation_time: %s", q(m.CreationTime))
	p(4, "producer:")
	p(6, "name: %s", q(m.Producer.Name))
	p(6, "version: %s", q(m.Producer.Version))
	if m.Producer.Configuration != "" {
		p(6, "configuration: %s", q(m.Producer.Configuration))
	}
	p(4, "task:")
	p(6, "input_files:")
	p(8, "- %s", q(m.Task.InputFile))
	p(6, "input_file_hashes:")
	p(8, "%s: %s", q(m.Task.InputFile), q(m.Task.InputFileHash))
	p(6, "specification: %s", q(m.Task.Specification))
	p(6, "language: %s", q(m.Task.Language))
	loc := func(indent int, l Location) {
		p(indent, "location:")
		p(indent+2, "file_name: %s", q(l.File))
		p(indent+2, "line: %d", l.Line)
		p(indent+2, "column: %d", l.Col)
		p(indent+2, "function: %s", q(l.Function))
	}
	p(2, "content:")
	if w.Kind == Violation {
		for _, s := range w.Segments {
			p(4, "- segment:")
			for _, wp := range s.Waypoints {
				p(8, "- waypoint:")
				p(12, "type: %s", wp.Type)
				p(12, "action: %s", wp.Action)
				loc(12, wp.Location)
				if wp.Type != Target {
					p(12, "constraint:")
					p(14, "value: %s", q(wp.Constraint))
					if wp.Type == Assumption {
						p(14, "format: %s", FormatExpression)
					}
				}
				if wp.Thread >= 0 {
					p(12, "thread_id: %d", wp.Thread)
				}
			}
		}
		return b.Flush()
	}
	for _, inv := range w.Invariants {
		p(4, "- invariant:")
		p(8, "type: location_invariant")
		loc(8, inv.Location)
		p(8, "value: %s", q(inv.Value))
		p(8, "format: %s", FormatExpression)
	}
	for _, c := range w.Contracts {
		p(4, "- invariant:")
		p(8, "type: function_contract")
		loc(8, c.Location)
		p(8, "requires: %s", q(c.Requires))
		p(8, "ensures: %s", q(c.Ensures))
		p(8, "format: %s", FormatExpression)
	}
	for _, c := range w.Configurations {
		p(4, "- invariant:")
		p(8, "type: %s", configurationInvariant)
		if len(c.Threads) == 0 {
			p(8, "threads: []")
		} else {
			p(8, "threads:")
		}
		for _, s := range c.Threads {
			p(10, "- %s", q(s.String()))
		}
		if c.Atomic >= 0 {
			p(8, "atomic_owner: %d", c.Atomic)
		}
		if c.Running >= 0 {
			p(8, "running: %d", c.Running)
		}
		if c.Init {
			p(8, "init: true")
		}
		p(8, "value: %s", q(c.Value))
		p(8, "format: %s", FormatExpression)
	}
	for _, t := range w.ThreadInvariants {
		p(4, "- invariant:")
		p(8, "type: %s", threadInvariant)
		p(8, "stack: %s", q(t.Stack.String()))
		if t.Init {
			p(8, "init: true")
		}
		p(8, "value: %s", q(t.Value))
		p(8, "format: %s", FormatExpression)
	}
	return b.Flush()
}

// The invariant types of a concurrent program's correctness witness.
const (
	configurationInvariant = "configuration_invariant"
	threadInvariant        = "thread_invariant"
)

// decodeYAML builds a witness from a parsed YAML document.
func decodeYAML(root *ynode) (*Witness, *syntax.Error) {
	d := &ydecoder{}
	w := d.witness(root)
	if d.err != nil {
		return nil, d.err
	}
	return w, nil
}

type ydecoder struct{ err *syntax.Error }

func (d *ydecoder) fail(pos syntax.Pos, format string, args ...any) {
	if d.err == nil {
		d.err = &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// field returns key's value in mapping n, reporting a missing one.
func (d *ydecoder) field(n *ynode, key string) *ynode {
	v := n.get(key)
	if v == nil && d.err == nil {
		d.fail(n.pos, "missing %q", key)
	}
	return v
}

func (d *ydecoder) want(n *ynode, kind byte, what string) bool {
	if n == nil || d.err != nil {
		return false
	}
	if n.kind != kind {
		names := map[byte]string{'m': "a mapping", 's': "a list", 'v': "a value"}
		d.fail(n.pos, "%s: expected %s", what, names[kind])
		return false
	}
	return true
}

func (d *ydecoder) str(n *ynode, key string) (string, syntax.Pos) {
	v := d.field(n, key)
	if !d.want(v, 'v', key) {
		return "", syntax.Pos{}
	}
	return v.value, v.pos
}

func (d *ydecoder) int(n *ynode, key string) int {
	s, pos := d.str(n, key)
	if d.err != nil {
		return 0
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 {
		d.fail(pos, "%s: expected a number, found %q", key, s)
	}
	return i
}

func (d *ydecoder) witness(root *ynode) *Witness {
	if !d.want(root, 's', "witness") {
		return nil
	}
	if len(root.items) != 1 {
		d.fail(root.pos, "expected one entry, found %d", len(root.items))
		return nil
	}
	e := root.items[0]
	if !d.want(e, 'm', "entry") {
		return nil
	}
	w := &Witness{}
	typ, tpos := d.str(e, "entry_type")
	switch typ {
	case "violation_sequence":
		w.Kind = Violation
	case "invariant_set":
		w.Kind = Correctness
	default:
		if d.err == nil {
			d.fail(tpos, "unknown entry_type %q (want violation_sequence or invariant_set)", typ)
		}
		return nil
	}
	if md := d.field(e, "metadata"); d.want(md, 'm', "metadata") {
		m := &w.Metadata
		m.FormatVersion, _ = d.str(md, "format_version")
		if m.FormatVersion != FormatVersion && m.FormatVersion != legacyVersion && d.err == nil {
			d.fail(md.get("format_version").pos, "unsupported format_version %q (want %q)", m.FormatVersion, FormatVersion)
		}
		m.UUID, _ = d.str(md, "uuid")
		m.CreationTime, _ = d.str(md, "creation_time")
		if pr := d.field(md, "producer"); d.want(pr, 'm', "producer") {
			m.Producer.Name, _ = d.str(pr, "name")
			m.Producer.Version, _ = d.str(pr, "version")
			if c := pr.get("configuration"); c != nil && d.want(c, 'v', "configuration") {
				m.Producer.Configuration = c.value
			}
		}
		if t := d.field(md, "task"); d.want(t, 'm', "task") {
			if f := d.field(t, "input_files"); d.want(f, 's', "input_files") {
				if len(f.items) != 1 {
					d.fail(f.pos, "expected one input file, found %d", len(f.items))
				} else if d.want(f.items[0], 'v', "input file") {
					m.Task.InputFile = f.items[0].value
				}
			}
			if h := d.field(t, "input_file_hashes"); d.want(h, 'm', "input_file_hashes") {
				if len(h.keys) != 1 {
					d.fail(h.pos, "expected one hash, found %d", len(h.keys))
				} else if d.want(h.vals[0], 'v', "hash") {
					m.Task.InputFileHash = h.vals[0].value
				}
			}
			m.Task.Specification, _ = d.str(t, "specification")
			m.Task.Language, _ = d.str(t, "language")
		}
	}
	c := d.field(e, "content")
	if !d.want(c, 's', "content") {
		return nil
	}
	for _, item := range c.items {
		if !d.want(item, 'm', "content item") {
			return nil
		}
		if w.Kind == Violation {
			seg := d.field(item, "segment")
			if !d.want(seg, 's', "segment") {
				return nil
			}
			var s Segment
			for _, wi := range seg.items {
				if !d.want(wi, 'm', "waypoint item") {
					return nil
				}
				wpn := d.field(wi, "waypoint")
				if !d.want(wpn, 'm', "waypoint") {
					return nil
				}
				s.Waypoints = append(s.Waypoints, d.waypoint(wpn))
			}
			w.Segments = append(w.Segments, s)
			continue
		}
		inv := d.field(item, "invariant")
		if !d.want(inv, 'm', "invariant") {
			return nil
		}
		typ, tpos := d.str(inv, "type")
		if f, fpos := d.str(inv, "format"); f != FormatExpression && d.err == nil {
			d.fail(fpos, "unsupported format %q (want %s)", f, FormatExpression)
		}
		switch typ {
		case configurationInvariant:
			c := ConfigInvariant{Atomic: -1, Running: -1, Pos: inv.pos}
			if th := d.field(inv, "threads"); d.want(th, 's', "threads") {
				c.ThreadsPos = th.pos
				for _, it := range th.items {
					if d.want(it, 'v', "thread stack") {
						s, err := ParseStack(it.value, w.Metadata.Task.InputFile)
						if err != nil {
							d.fail(it.pos, "%v", err)
						}
						c.Threads = append(c.Threads, s)
					}
				}
			}
			if a := inv.get("atomic_owner"); a != nil {
				c.Atomic = d.int(inv, "atomic_owner")
			}
			if r := inv.get("running"); r != nil {
				c.Running = d.int(inv, "running")
			}
			c.Init = d.bool(inv, "init")
			c.Value, c.ValuePos = d.str(inv, "value")
			w.Configurations = append(w.Configurations, c)
		case threadInvariant:
			t := ThreadInvariant{Pos: inv.pos}
			text, spos := d.str(inv, "stack")
			if d.err == nil {
				s, err := ParseStack(text, w.Metadata.Task.InputFile)
				if err != nil {
					d.fail(spos, "%v", err)
				}
				t.Stack = s
			}
			t.Init = d.bool(inv, "init")
			t.Value, t.ValuePos = d.str(inv, "value")
			w.ThreadInvariants = append(w.ThreadInvariants, t)
		case "location_invariant", "loop_invariant":
			l := d.location(inv)
			v, vpos := d.str(inv, "value")
			w.Invariants = append(w.Invariants, Invariant{Location: l, Value: v, Pos: inv.pos, ValuePos: vpos})
		case "function_contract":
			l := d.location(inv)
			r, rpos := d.str(inv, "requires")
			en, epos := d.str(inv, "ensures")
			w.Contracts = append(w.Contracts, Contract{Function: l.Function, Location: l, Requires: r, Ensures: en,
				Pos: inv.pos, RequiresPos: rpos, EnsuresPos: epos})
		default:
			if d.err == nil {
				d.fail(tpos, "unknown invariant type %q", typ)
			}
		}
		if d.err != nil {
			return nil
		}
	}
	return w
}

// bool returns the optional Boolean key of mapping n (false if absent).
func (d *ydecoder) bool(n *ynode, key string) bool {
	v := n.get(key)
	if v == nil || !d.want(v, 'v', key) {
		return false
	}
	switch v.value {
	case "true":
		return true
	case "false":
	default:
		d.fail(v.pos, "%s: expected true or false, found %q", key, v.value)
	}
	return false
}

func (d *ydecoder) location(n *ynode) Location {
	ln := d.field(n, "location")
	if !d.want(ln, 'm', "location") {
		return Location{}
	}
	var l Location
	l.File, _ = d.str(ln, "file_name")
	l.Line = d.int(ln, "line")
	if ln.get("column") != nil {
		l.Col = d.int(ln, "column")
	}
	l.Function, _ = d.str(ln, "function")
	return l
}

func (d *ydecoder) waypoint(n *ynode) Waypoint {
	wp := Waypoint{Pos: n.pos, Thread: -1}
	var tpos syntax.Pos
	wp.Type, tpos = d.str(n, "type")
	switch wp.Type {
	case Assumption, Branching, FunctionEnter, Target:
	default:
		if d.err == nil {
			d.fail(tpos, "unknown waypoint type %q", wp.Type)
		}
	}
	var apos syntax.Pos
	wp.Action, apos = d.str(n, "action")
	if wp.Action != "follow" && d.err == nil {
		d.fail(apos, "unsupported action %q (only follow)", wp.Action)
	}
	wp.Location = d.location(n)
	if wp.Type != Target {
		c := d.field(n, "constraint")
		if d.want(c, 'm', "constraint") {
			wp.Constraint, wp.ValuePos = d.str(c, "value")
			if wp.Type == Assumption {
				if f, fpos := d.str(c, "format"); f != FormatExpression && d.err == nil {
					d.fail(fpos, "unsupported format %q (want %s)", f, FormatExpression)
				}
			}
		}
	}
	if t := n.get("thread_id"); t != nil {
		wp.Thread = d.int(n, "thread_id")
	}
	return wp
}
