package witness

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"boolprog/syntax"
)

// The GraphML keys of a witness automaton: SV-COMP's (witness-type,
// sourcecodelang, producer, specification, programfile, programhash,
// creationtime, entry, violation, invariant, invariant.scope, startline,
// assumption, assumption.scope, control, enterFunction, threadId) and ours
// for Boolean programs (columns, waypoint types, locations of invariants,
// contracts).
var graphmlKeys = []struct{ id, for_, typ, def string }{
	{"witness-type", "graph", "string", ""},
	{"sourcecodelang", "graph", "string", ""},
	{"producer", "graph", "string", ""},
	{"producerversion", "graph", "string", ""},
	{"producerconfiguration", "graph", "string", ""},
	{"specification", "graph", "string", ""},
	{"programfile", "graph", "string", ""},
	{"programhash", "graph", "string", ""},
	{"creationtime", "graph", "string", ""},
	{"uuid", "graph", "string", ""},
	{"entry", "node", "boolean", "false"},
	{"violation", "node", "boolean", "false"},
	{"invariant", "node", "string", ""},
	{"invariant.scope", "node", "string", ""},
	{"location.line", "node", "int", ""},
	{"location.column", "node", "int", ""},
	{"requires", "node", "string", ""},
	{"ensures", "node", "string", ""},
	{"contract.scope", "node", "string", ""},
	{"threads", "node", "string", ""},
	{"atomic.owner", "node", "int", ""},
	{"init", "node", "boolean", "false"},
	{"thread.stack", "node", "string", ""},
	{"waypoint", "edge", "string", ""},
	{"startline", "edge", "int", ""},
	{"startcolumn", "edge", "int", ""},
	{"assumption", "edge", "string", ""},
	{"assumption.scope", "edge", "string", ""},
	{"control", "edge", "string", ""},
	{"enterFunction", "edge", "string", ""},
	{"threadId", "edge", "int", ""},
}

// WriteGraphML writes the witness as a GraphML witness automaton. A
// violation witness is a path from the entry node to the violation node,
// one edge per waypoint (its line, column, function, and its assumption,
// control or entered function). A correctness witness has one node per
// invariant (with its location) and one per contract, and no edges: an
// invariant is found by its location, not by a path of the automaton.
func (w *Witness) WriteGraphML(out io.Writer) error {
	b := bufio.NewWriter(out)
	esc := func(s string) string {
		var x bytes.Buffer
		xml.EscapeText(&x, []byte(s))
		return x.String()
	}
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	b.WriteString("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	for _, k := range graphmlKeys {
		if k.def == "" {
			fmt.Fprintf(b, " <key attr.name=%q attr.type=%q for=%q id=%q/>\n", k.id, k.typ, k.for_, k.id)
			continue
		}
		fmt.Fprintf(b, " <key attr.name=%q attr.type=%q for=%q id=%q>\n  <default>%s</default>\n </key>\n", k.id, k.typ, k.for_, k.id, k.def)
	}
	b.WriteString(" <graph edgedefault=\"directed\">\n")
	data := func(indent, key, val string) {
		fmt.Fprintf(b, "%s<data key=%q>%s</data>\n", indent, key, esc(val))
	}
	m := w.Metadata
	typ := "violation_witness"
	if w.Kind == Correctness {
		typ = "correctness_witness"
	}
	data("  ", "witness-type", typ)
	data("  ", "sourcecodelang", m.Task.Language)
	data("  ", "producer", m.Producer.Name)
	data("  ", "producerversion", m.Producer.Version)
	if m.Producer.Configuration != "" {
		data("  ", "producerconfiguration", m.Producer.Configuration)
	}
	data("  ", "specification", m.Task.Specification)
	data("  ", "programfile", m.Task.InputFile)
	data("  ", "programhash", m.Task.InputFileHash)
	data("  ", "creationtime", m.CreationTime)
	data("  ", "uuid", m.UUID)
	if w.Kind == Violation {
		var wps []Waypoint
		for _, s := range w.Segments {
			wps = append(wps, s.Waypoints...)
		}
		b.WriteString("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n")
		for i, wp := range wps {
			fmt.Fprintf(b, "  <node id=\"N%d\">\n", i+1)
			if wp.Type == Target {
				data("   ", "violation", "true")
			}
			b.WriteString("  </node>\n")
			fmt.Fprintf(b, "  <edge source=\"N%d\" target=\"N%d\">\n", i, i+1)
			data("   ", "waypoint", wp.Type)
			data("   ", "startline", strconv.Itoa(wp.Location.Line))
			data("   ", "startcolumn", strconv.Itoa(wp.Location.Col))
			data("   ", "assumption.scope", wp.Location.Function)
			switch wp.Type {
			case Assumption:
				data("   ", "assumption", wp.Constraint)
			case Branching:
				data("   ", "control", wp.Constraint)
			case FunctionEnter:
				data("   ", "enterFunction", wp.Constraint)
			}
			if wp.Thread >= 0 {
				data("   ", "threadId", strconv.Itoa(wp.Thread))
			}
			b.WriteString("  </edge>\n")
		}
	} else {
		for i, inv := range w.Invariants {
			fmt.Fprintf(b, "  <node id=\"I%d\">\n", i)
			if i == 0 {
				data("   ", "entry", "true")
			}
			data("   ", "invariant", inv.Value)
			data("   ", "invariant.scope", inv.Location.Function)
			data("   ", "location.line", strconv.Itoa(inv.Location.Line))
			data("   ", "location.column", strconv.Itoa(inv.Location.Col))
			b.WriteString("  </node>\n")
		}
		for i, c := range w.Configurations {
			fmt.Fprintf(b, "  <node id=\"K%d\">\n", i)
			if i == 0 {
				data("   ", "entry", "true")
			}
			stacks := make([]string, len(c.Threads))
			for t, st := range c.Threads {
				stacks[t] = st.String()
			}
			data("   ", "threads", strings.Join(stacks, " | "))
			if c.Atomic >= 0 {
				data("   ", "atomic.owner", strconv.Itoa(c.Atomic))
			}
			if c.Init {
				data("   ", "init", "true")
			}
			data("   ", "invariant", c.Value)
			b.WriteString("  </node>\n")
		}
		for i, t := range w.ThreadInvariants {
			fmt.Fprintf(b, "  <node id=\"T%d\">\n", i)
			if i == 0 {
				data("   ", "entry", "true")
			}
			data("   ", "thread.stack", t.Stack.String())
			data("   ", "invariant", t.Value)
			b.WriteString("  </node>\n")
		}
		for i, c := range w.Contracts {
			fmt.Fprintf(b, "  <node id=\"C%d\">\n", i)
			data("   ", "contract.scope", c.Function)
			data("   ", "location.line", strconv.Itoa(c.Location.Line))
			data("   ", "location.column", strconv.Itoa(c.Location.Col))
			data("   ", "requires", c.Requires)
			data("   ", "ensures", c.Ensures)
			b.WriteString("  </node>\n")
		}
	}
	b.WriteString(" </graph>\n</graphml>\n")
	return b.Flush()
}

// gelem is a node or edge of a parsed GraphML graph.
type gelem struct {
	id, source, target string
	data               map[string]string // by attr.name
	dataPos            map[string]syntax.Pos
	pos                syntax.Pos
}

// decodeGraphML reads a GraphML witness.
func decodeGraphML(src []byte) (*Witness, *syntax.Error) {
	// The offsets where lines start, for positions in time logarithmic
	// in the size of the file.
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	posAt := func(off int64) syntax.Pos {
		o := int(min(off, int64(len(src))))
		line, _ := slices.BinarySearch(starts, o+1)
		return syntax.Pos{Offset: o, Line: line, Col: o - starts[line-1] + 1}
	}
	fail := func(pos syntax.Pos, format string, args ...any) (*Witness, *syntax.Error) {
		return nil, &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	dec := xml.NewDecoder(bytes.NewReader(src))
	keys := map[string]string{} // key id -> attr.name
	graph := &gelem{data: map[string]string{}, dataPos: map[string]syntax.Pos{}}
	var nodes, edges []*gelem
	var cur *gelem // the node or edge being read
	var dataKey string
	var dataPos syntax.Pos
	var text strings.Builder
	sawGraph := false
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fail(syntax.Pos{Line: se.Line, Col: 1}, "%s", se.Msg)
			}
			return fail(posAt(dec.InputOffset()), "%v", err)
		}
		attr := func(e xml.StartElement, name string) string {
			for _, a := range e.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		pos := posAt(start)
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "key":
				name := attr(t, "attr.name")
				if name == "" {
					name = attr(t, "id")
				}
				keys[attr(t, "id")] = name
			case "graph":
				sawGraph = true
				cur = graph
			case "node", "edge":
				cur = &gelem{id: attr(t, "id"), source: attr(t, "source"), target: attr(t, "target"),
					data: map[string]string{}, dataPos: map[string]syntax.Pos{}, pos: pos}
				if t.Name.Local == "node" {
					if cur.id == "" {
						return fail(pos, "node without an id")
					}
					nodes = append(nodes, cur)
				} else {
					if cur.source == "" || cur.target == "" {
						return fail(pos, "edge without a source or target")
					}
					edges = append(edges, cur)
				}
			case "data":
				k := attr(t, "key")
				name, ok := keys[k]
				if !ok {
					return fail(pos, "data with undeclared key %q", k)
				}
				dataKey, dataPos = name, posAt(dec.InputOffset())
				text.Reset()
			}
		case xml.CharData:
			if dataKey != "" {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "data":
				if cur != nil && dataKey != "" {
					cur.data[dataKey] = strings.TrimSpace(text.String())
					cur.dataPos[dataKey] = dataPos
				}
				dataKey = ""
			case "node", "edge":
				cur = graph
			}
		}
	}
	if !sawGraph {
		return fail(syntax.Pos{Line: 1, Col: 1}, "no <graph> element")
	}
	w := &Witness{}
	g := graph.data
	switch g["witness-type"] {
	case "violation_witness":
		w.Kind = Violation
	case "correctness_witness":
		w.Kind = Correctness
	default:
		return fail(graph.dataPos["witness-type"], "unknown witness-type %q (want violation_witness or correctness_witness)", g["witness-type"])
	}
	w.Metadata = Metadata{FormatVersion: "2.0", UUID: g["uuid"], CreationTime: g["creationtime"],
		Producer: Producer{Name: g["producer"], Version: g["producerversion"], Configuration: g["producerconfiguration"]},
		Task:     Task{InputFile: g["programfile"], InputFileHash: g["programhash"], Specification: g["specification"], Language: g["sourcecodelang"]}}
	num := func(e *gelem, key string, need bool) (int, *syntax.Error) {
		s, ok := e.data[key]
		if !ok {
			if need {
				return 0, &syntax.Error{Pos: e.pos, Msg: fmt.Sprintf("missing data %q", key)}
			}
			return -1, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, &syntax.Error{Pos: e.dataPos[key], Msg: fmt.Sprintf("%s: expected a number, found %q", key, s)}
		}
		return n, nil
	}
	file := w.Metadata.Task.InputFile
	if w.Kind == Correctness {
		for _, n := range nodes {
			line, err := num(n, "location.line", false)
			if err != nil {
				return nil, err
			}
			col, err := num(n, "location.column", false)
			if err != nil {
				return nil, err
			}
			if _, ok := n.data["threads"]; ok {
				c := ConfigInvariant{Atomic: -1, Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"], ThreadsPos: n.dataPos["threads"]}
				for _, text := range strings.Split(n.data["threads"], " | ") {
					st, err := ParseStack(text, file)
					if err != nil {
						return fail(n.dataPos["threads"], "%v", err)
					}
					c.Threads = append(c.Threads, st)
				}
				a, err := num(n, "atomic.owner", false)
				if err != nil {
					return nil, err
				}
				c.Atomic = a
				switch n.data["init"] {
				case "true":
					c.Init = true
				case "", "false":
				default:
					return fail(n.dataPos["init"], "init: expected true or false, found %q", n.data["init"])
				}
				w.Configurations = append(w.Configurations, c)
				continue
			}
			if text, ok := n.data["thread.stack"]; ok {
				st, err := ParseStack(text, file)
				if err != nil {
					return fail(n.dataPos["thread.stack"], "%v", err)
				}
				w.ThreadInvariants = append(w.ThreadInvariants, ThreadInvariant{Stack: st, Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"]})
				continue
			}
			switch {
			case n.data["contract.scope"] != "":
				c := Contract{Function: n.data["contract.scope"], Requires: n.data["requires"], Ensures: n.data["ensures"],
					Pos: n.pos, RequiresPos: n.dataPos["requires"], EnsuresPos: n.dataPos["ensures"]}
				c.Location = Location{File: file, Line: line, Col: col, Function: c.Function}
				w.Contracts = append(w.Contracts, c)
			case n.data["invariant"] != "":
				if line < 0 {
					return fail(n.pos, "invariant without location.line")
				}
				w.Invariants = append(w.Invariants, Invariant{Location: Location{File: file, Line: line, Col: max(col, 0), Function: n.data["invariant.scope"]},
					Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"]})
			}
		}
		return w, nil
	}
	// A violation witness: the path from the entry node to a violation
	// node, one waypoint per edge.
	byID := map[string]*gelem{}
	var entry *gelem
	for _, n := range nodes {
		if byID[n.id] != nil {
			return fail(n.pos, "duplicate node id %q", n.id)
		}
		byID[n.id] = n
		if n.data["entry"] == "true" {
			if entry != nil {
				return fail(n.pos, "a second entry node %q", n.id)
			}
			entry = n
		}
	}
	if entry == nil {
		return fail(graph.pos, "no entry node")
	}
	out := map[string]*gelem{}
	for _, e := range edges {
		if byID[e.source] == nil || byID[e.target] == nil {
			return fail(e.pos, "edge between unknown nodes %q and %q", e.source, e.target)
		}
		if out[e.source] != nil {
			return fail(e.pos, "node %q has a second outgoing edge: only a path of waypoints is supported", e.source)
		}
		out[e.source] = e
	}
	seen := map[string]bool{}
	for n := entry; n.data["violation"] != "true"; {
		seen[n.id] = true
		e := out[n.id]
		if e == nil {
			return fail(n.pos, "node %q: the path from the entry node ends before a violation node", n.id)
		}
		line, err := num(e, "startline", true)
		if err != nil {
			return nil, err
		}
		col, err := num(e, "startcolumn", false)
		if err != nil {
			return nil, err
		}
		th, err := num(e, "threadId", false)
		if err != nil {
			return nil, err
		}
		wp := Waypoint{Action: "follow", Thread: th, Pos: e.pos,
			Location: Location{File: file, Line: line, Col: max(col, 0), Function: e.data["assumption.scope"]}}
		typ := e.data["waypoint"]
		switch {
		case typ == Assumption || typ == "" && e.data["assumption"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = Assumption, e.data["assumption"], e.dataPos["assumption"]
		case typ == Branching || typ == "" && e.data["control"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = Branching, e.data["control"], e.dataPos["control"]
		case typ == FunctionEnter || typ == "" && e.data["enterFunction"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = FunctionEnter, e.data["enterFunction"], e.dataPos["enterFunction"]
		case typ == Target || typ == "" && byID[e.target].data["violation"] == "true":
			wp.Type = Target
		default:
			return fail(e.dataPos["waypoint"], "unknown waypoint type %q", typ)
		}
		w.Segments = append(w.Segments, Segment{Waypoints: []Waypoint{wp}})
		n = byID[e.target]
		if seen[n.id] {
			return fail(e.pos, "the path from the entry node loops back to node %q", n.id)
		}
	}
	return w, nil
}
