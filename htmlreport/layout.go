package htmlreport

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"boolprog/ir"
)

// The geometry of a drawn graph, in SVG user units (pixels at 100%). The
// text of nodes and labels is an 11px monospace font, whose characters are
// at most charW wide: widths are computed from the number of characters,
// without a font at hand.
const (
	charW      = 6.7  // width of one character of the 11px monospace font
	nodeH      = 22.0 // height of a location's box
	labelH     = 14.0 // height of an edge label's line
	padX       = 7.0  // horizontal padding inside a box
	gapX       = 16.0 // least horizontal gap between two things of a layer
	gapY       = 18.0 // vertical gap between layers
	margin     = 10.0 // around the whole drawing
	dummyW     = 4.0  // width reserved for an edge passing through a layer
	loopW      = 26.0 // room right of a box for a self-loop
	maxNodeTxt = 38   // characters of a location's text drawn (all in the tooltip)
	maxEdgeTxt = 26   // characters of an edge's label drawn
)

// point is a point of the drawing.
type point struct{ X, Y float64 }

// Graph is the drawing of one procedure's control-flow automaton: a box per
// location and a polyline per edge, laid out in layers (Sugiyama's method:
// cycles broken by reversing the DFS back edges, layers by longest path,
// an edge longer than one layer split by a chain of virtual nodes, crossings
// reduced by barycentre sweeps, coordinates by least-squares placement in
// each layer's order). Every edge label is a virtual node of its own, in
// the layer between its edge's ends, so that labels never cover boxes or
// one another.
type Graph struct {
	Proc          int     // the procedure's index in the program
	Width, Height float64 // of the whole drawing
	Nodes         []Node  // by location id
	Edges         []Edge  // by edge id
	Crossings     int     // edge crossings of the final order (a measure of the layout)
}

// Node is the box of one location: its centre and size.
type Node struct {
	Loc        int
	X, Y, W, H float64
	Text       string // as drawn, perhaps shortened
	Full       string // the location's whole description (the tooltip)
	Kind       string // "error", "entry", "exit" or "" (a class of the drawing)
}

// Edge is the drawing of one ir edge.
type Edge struct {
	ID       int
	From, To int    // location ids
	Path     string // SVG path data, from the source box to the target box
	Text     string // the label as drawn ("" for none)
	Full     string // the edge's whole operation (the tooltip)
	LX, LY   float64
	Back     bool // drawn against the layers (a loop's back edge)
	Call     bool // a call: the callee's run is not drawn here
	SelfLoop bool
}

// Box returns the rectangle of the node: left, top, right, bottom.
func (n *Node) Box() (x0, y0, x1, y1 float64) {
	return n.X - n.W/2, n.Y - n.H/2, n.X + n.W/2, n.Y + n.H/2
}

// Left is the x of the box's left side.
func (n Node) Left() float64 { return n.X - n.W/2 }

// Top is the y of the box's top side.
func (n Node) Top() float64 { return n.Y - n.H/2 }

// TextX is where the box's text starts.
func (n Node) TextX() float64 { return n.X - n.W/2 + padX }

// TextY is the baseline of the box's text.
func (n Node) TextY() float64 { return n.Y + 4 }

// LabelBox returns the rectangle of the edge's label (empty if it has none).
func (e *Edge) LabelBox() (x0, y0, x1, y1 float64) {
	if e.Text == "" {
		return e.LX, e.LY, e.LX, e.LY
	}
	return e.LX, e.LY - labelH + 3, e.LX + textWidth(e.Text), e.LY + 3
}

// textWidth is the drawn width of s.
func textWidth(s string) float64 { return float64(len([]rune(s))) * charW }

// shorten cuts s to at most n characters, marking a cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// nodeText describes a location: "12 R: h := !g", "20 end", "6 assertion
// fails"; with several labels (as c2bp writes them) only the first is
// drawn, with the count of the others, so that the statement stays in
// view (the tooltip has them all).
func nodeText(l *ir.Location, all bool) string {
	var b strings.Builder
	if l.Pos.IsValid() {
		fmt.Fprintf(&b, "%d ", l.Pos.Line)
	}
	switch {
	case all || len(l.Labels) == 1:
		for _, lab := range l.Labels {
			b.WriteString(ir.IdentText(lab) + ": ")
		}
	case len(l.Labels) > 1:
		fmt.Fprintf(&b, "%s (+%d): ", ir.IdentText(l.Labels[0]), len(l.Labels)-1)
	}
	switch l.Kind {
	case ir.ExitLoc:
		b.WriteString("end")
	case ir.FailLoc:
		b.WriteString("assertion fails")
	default:
		b.WriteString(l.Text)
	}
	return b.String()
}

// edgeText labels an edge: a condition as "[c]", a goto with several
// targets as "goto", an edge that only moves on as nothing, and any other
// operation as the ir prints it.
func edgeText(p *ir.Program, proc *ir.Proc, e *ir.Edge) string {
	switch op := e.Op.(type) {
	case *ir.Assume:
		return "[" + p.ExprString(proc, op.Cond) + "]"
	case *ir.Skip:
		if len(proc.Locations[e.From].Out) > 1 {
			return "goto"
		}
		return ""
	}
	return p.OpString(proc, e.Op)
}

// vertex is a node of the layered graph: a location, or a virtual node
// through which an edge passes a layer (the first of an edge's virtual
// nodes carries its label).
type vertex struct {
	loc, edge  int     // location id or -1; edge id of a virtual node or -1
	layer, pos int     // layer, and place in the layer's order
	left, rt   float64 // extent left and right of x
	x          float64
	weight     float64 // how much its place matters in the least-squares placement
	up, down   []int   // neighbours in the layers above and below
	key        float64 // order before crossing reduction
}

// Layout draws the control-flow automaton of proc: the cycles broken, the
// locations layered by longest path, the edges' virtual nodes between
// them, crossings reduced, the vertices placed, then the boxes and paths
// drawn at their places.
func Layout(p *ir.Program, proc *ir.Proc) *Graph {
	g := &Graph{Proc: proc.Index, Nodes: make([]Node, len(proc.Locations)), Edges: make([]Edge, len(proc.Edges))}
	back, pre := breakCycles(proc)
	lg := buildLayers(p, proc, g, back, longestPath(proc, back), pre)
	g.Crossings = reduceCrossings(lg.verts, lg.layers)
	place(lg.verts, lg.layers)
	lg.draw(proc, g, back)
	return g
}

// breakCycles makes the automaton acyclic: a depth-first search from the
// entry (then from any location not reached) reverses its back edges
// (self-loops aside). Its pre-order numbers give the first order of every
// layer.
func breakCycles(proc *ir.Proc) (back []bool, pre []int) {
	n := len(proc.Locations)
	back = make([]bool, len(proc.Edges))
	state := make([]byte, n) // 0 unseen, 1 on the stack, 2 done
	pre = make([]int, n)
	count := 0
	type frame struct{ v, next int }
	visit := func(root int) {
		if state[root] != 0 {
			return
		}
		stack := []frame{{root, 0}}
		state[root], pre[root] = 1, count
		count++
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			out := proc.Locations[f.v].Out
			if f.next == len(out) {
				state[f.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			e := proc.Edges[out[f.next]]
			f.next++
			switch state[e.To] {
			case 0:
				state[e.To], pre[e.To] = 1, count
				count++
				stack = append(stack, frame{e.To, 0})
			case 1:
				back[e.ID] = e.From != e.To
			}
		}
	}
	if n > 0 {
		visit(proc.Entry)
	}
	for v := range n {
		visit(v)
	}
	return back, pre
}

// ends returns the upper and lower end of e in the acyclic graph.
func ends(back []bool, e *ir.Edge) (int, int) {
	if back[e.ID] {
		return e.To, e.From
	}
	return e.From, e.To
}

// longestPath ranks the locations by longest path over the acyclic graph
// (Kahn's order).
func longestPath(proc *ir.Proc, back []bool) []int {
	n := len(proc.Locations)
	indeg := make([]int, n)
	succ := make([][]int, n)
	for _, e := range proc.Edges {
		if e.From == e.To {
			continue
		}
		u, v := ends(back, e)
		succ[u] = append(succ[u], v)
		indeg[v]++
	}
	rank := make([]int, n)
	queue := make([]int, 0, n)
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for _, v := range succ[u] {
			rank[v] = max(rank[v], rank[u]+1)
			if indeg[v]--; indeg[v] == 0 {
				queue = append(queue, v)
			}
		}
	}
	return rank
}

// layered is the layered graph of a procedure: its vertices (the
// locations, then the edges' virtual nodes), by layer, and each edge's
// chain of vertices.
type layered struct {
	verts    []*vertex
	layers   [][]int
	chains   [][]int   // per edge: vertex ids from the upper end to the lower
	loopRoom []float64 // per location: the room its self-loops take on its right
}

// buildLayers builds the layered graph, locations on even layers and edges'
// virtual nodes on the layers between, each layer in pre-order, and fills
// in g's nodes and edges but for their places.
func buildLayers(p *ir.Program, proc *ir.Proc, g *Graph, back []bool, rank, pre []int) *layered {
	n := len(proc.Locations)
	lg := &layered{verts: make([]*vertex, 0, n+2*len(proc.Edges)), loopRoom: make([]float64, n), chains: make([][]int, len(proc.Edges))}
	for _, e := range proc.Edges {
		if e.From == e.To {
			lg.loopRoom[e.From] = max(lg.loopRoom[e.From], loopW+textWidth(shorten(edgeText(p, proc, e), maxEdgeTxt)))
		}
	}
	for v, l := range proc.Locations {
		txt := shorten(nodeText(l, false), maxNodeTxt)
		w := textWidth(txt) + 2*padX
		lg.verts = append(lg.verts, &vertex{loc: v, edge: -1, layer: 2 * rank[v], left: w / 2, rt: w/2 + lg.loopRoom[v], weight: 4, key: float64(pre[v])})
		g.Nodes[v] = Node{Loc: v, W: w, H: nodeH, Text: txt, Full: nodeText(l, true)}
		switch {
		case l.Error:
			g.Nodes[v].Kind = "error"
		case l.Entry:
			g.Nodes[v].Kind = "entry"
		case l.Exit:
			g.Nodes[v].Kind = "exit"
		}
	}
	for _, e := range proc.Edges {
		full := edgeText(p, proc, e)
		_, isCall := e.Op.(*ir.Call)
		g.Edges[e.ID] = Edge{ID: e.ID, From: e.From, To: e.To, Text: shorten(full, maxEdgeTxt), Full: p.OpString(proc, e.Op), Back: back[e.ID], Call: isCall, SelfLoop: e.From == e.To}
		if e.From == e.To {
			continue
		}
		u, v := ends(back, e)
		chain := []int{u}
		for layer := 2*rank[u] + 1; layer < 2*rank[v]; layer++ {
			vx := &vertex{loc: -1, edge: e.ID, layer: layer, left: dummyW / 2, rt: dummyW / 2, weight: 1, key: float64(pre[u]) + 0.5}
			if layer == 2*rank[u]+1 && g.Edges[e.ID].Text != "" {
				vx.left, vx.rt = 2, textWidth(g.Edges[e.ID].Text)+6
			}
			lg.verts = append(lg.verts, vx)
			chain = append(chain, len(lg.verts)-1)
		}
		chain = append(chain, v)
		for i := 0; i+1 < len(chain); i++ {
			lg.verts[chain[i]].down = append(lg.verts[chain[i]].down, chain[i+1])
			lg.verts[chain[i+1]].up = append(lg.verts[chain[i+1]].up, chain[i])
		}
		lg.chains[e.ID] = chain
	}
	nl := 1
	for _, vx := range lg.verts {
		nl = max(nl, vx.layer+1)
	}
	lg.layers = make([][]int, nl)
	for i, vx := range lg.verts {
		lg.layers[vx.layer] = append(lg.layers[vx.layer], i)
	}
	for _, ly := range lg.layers {
		sort.SliceStable(ly, func(a, b int) bool { return lg.verts[ly[a]].key < lg.verts[ly[b]].key })
		for i, v := range ly {
			lg.verts[v].pos = i
		}
	}
	return lg
}

// ports spreads the edges leaving a box downwards (and those arriving
// from above) over the middle of its side, in the order of where they go,
// so that they neither start at one point nor cross there: the x of the
// end of the edge from vertex id to its neighbour u, by [id, u].
func (lg *layered) ports() map[[2]int]float64 {
	port := map[[2]int]float64{}
	for id, vx := range lg.verts {
		if vx.loc < 0 {
			continue
		}
		for _, nb := range [][]int{vx.down, vx.up} {
			order := append([]int(nil), nb...)
			sort.SliceStable(order, func(a, b int) bool { return lg.verts[order[a]].x < lg.verts[order[b]].x })
			w := vx.left + vx.rt - lg.loopRoom[vx.loc]
			for k, u := range order {
				port[[2]int{id, u}] = vx.x - 0.3*w + 0.6*w*(float64(k)+0.5)/float64(len(order))
			}
		}
	}
	return port
}

// draw places the placed layered graph on the page: each layer as high as
// its tallest thing, the boxes at their vertices, each edge a curve
// through its chain (a self-loop a loop on the box's right).
func (lg *layered) draw(proc *ir.Proc, g *Graph, back []bool) {
	verts := lg.verts
	port := lg.ports()
	ys := make([]float64, len(lg.layers))
	y := margin
	for l := range lg.layers {
		h := labelH
		if l%2 == 0 {
			h = nodeH
		}
		ys[l] = y + h/2
		y += h + gapY
	}
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, vx := range verts {
		minX, maxX = min(minX, vx.x-vx.left), max(maxX, vx.x+vx.rt)
	}
	if len(verts) == 0 {
		minX, maxX = 0, 0
	}
	dx := margin - minX
	g.Width, g.Height = maxX-minX+2*margin, y-gapY+margin
	for _, vx := range verts {
		if vx.loc >= 0 {
			nd := &g.Nodes[vx.loc]
			nd.X, nd.Y = vx.x+dx, ys[vx.layer]
		}
	}
	for _, e := range proc.Edges {
		ge := &g.Edges[e.ID]
		if e.From == e.To {
			nd := &g.Nodes[e.From]
			x, y := nd.X+nd.W/2, nd.Y
			ge.Path = fmt.Sprintf("M%s %sC%s %s %s %s %s %s", f1(x), f1(y-5), f1(x+loopW*0.8), f1(y-16), f1(x+loopW*0.8), f1(y+16), f1(x+1), f1(y+5))
			ge.LX, ge.LY = x+loopW*0.8+2, y+4
			continue
		}
		chain := lg.chains[e.ID]
		pts := make([]point, 0, len(chain))
		for i, v := range chain {
			vx := verts[v]
			switch {
			case i == 0:
				pts = append(pts, point{port[[2]int{v, chain[1]}] + dx, ys[vx.layer] + nodeH/2})
			case i == len(chain)-1:
				pts = append(pts, point{port[[2]int{v, chain[i-1]}] + dx, ys[vx.layer] - nodeH/2})
			case i == 1 && g.Edges[e.ID].Text != "":
				// Straight down beside the label.
				pts = append(pts, point{vx.x + dx, ys[vx.layer] - labelH/2}, point{vx.x + dx, ys[vx.layer] + labelH/2})
			default:
				pts = append(pts, point{vx.x + dx, ys[vx.layer]})
			}
		}
		if len(chain) > 2 {
			lv := verts[chain[1]]
			ge.LX, ge.LY = lv.x+dx+5, ys[lv.layer]+4
		}
		if back[e.ID] {
			for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
				pts[i], pts[j] = pts[j], pts[i]
			}
		}
		ge.Path = curve(pts)
	}
}

// curve is the SVG path through pts: a straight segment where two points
// are one above the other, else a cubic curve that leaves and arrives
// vertically (edges run down the layers).
func curve(pts []point) string {
	var b strings.Builder
	b.WriteString("M" + f1(pts[0].X) + " " + f1(pts[0].Y))
	for i := 1; i < len(pts); i++ {
		p, q := pts[i-1], pts[i]
		if math.Abs(p.X-q.X) < 0.5 {
			b.WriteString("L" + f1(q.X) + " " + f1(q.Y))
			continue
		}
		m := (p.Y + q.Y) / 2
		b.WriteString("C" + f1(p.X) + " " + f1(m) + " " + f1(q.X) + " " + f1(m) + " " + f1(q.X) + " " + f1(q.Y))
	}
	return b.String()
}

// f1 formats a coordinate with at most one decimal.
func f1(x float64) string {
	s := fmt.Sprintf("%.1f", x)
	return strings.TrimSuffix(s, ".0")
}

// sweeps is the number of barycentre sweeps (down and up) of crossing
// reduction.
const sweeps = 12

// reduceCrossings orders the layers by barycentre sweeps, alternately
// downwards (by the neighbours above) and upwards (by those below), keeps
// the order with the fewest crossings, and returns that number.
func reduceCrossings(verts []*vertex, layers [][]int) int {
	best := crossings(verts, layers)
	bestOrder := snapshot(layers)
	for s := 0; s < sweeps && best > 0; s++ {
		down := s%2 == 0
		for i := range layers {
			l := i
			if !down {
				l = len(layers) - 1 - i
			}
			ly := layers[l]
			bary := make(map[int]float64, len(ly))
			for _, v := range ly {
				nb := verts[v].up
				if !down {
					nb = verts[v].down
				}
				if len(nb) == 0 {
					bary[v] = float64(verts[v].pos)
					continue
				}
				sum := 0.0
				for _, u := range nb {
					sum += float64(verts[u].pos)
				}
				// Scaled to this layer's positions, so that a vertex
				// without neighbours keeps its place among the others.
				bary[v] = sum / float64(len(nb)) * float64(len(ly)) / float64(max(1, len(layers[adj(l, down)])))
			}
			sort.SliceStable(ly, func(a, b int) bool { return bary[ly[a]] < bary[ly[b]] })
			for k, v := range ly {
				verts[v].pos = k
			}
		}
		transpose(verts, layers)
		if c := crossings(verts, layers); c < best {
			best, bestOrder = c, snapshot(layers)
		}
	}
	for l, ly := range bestOrder {
		copy(layers[l], ly)
		for k, v := range layers[l] {
			verts[v].pos = k
		}
	}
	return best
}

// transpose swaps neighbours of a layer while that removes crossings with
// the layers above and below (the local refinement of Gansner et al.'s
// dot, after each barycentre sweep).
func transpose(verts []*vertex, layers [][]int) {
	for pass := 0; pass < 8; pass++ {
		improved := false
		for _, ly := range layers {
			for k := 0; k+1 < len(ly); k++ {
				u, v := verts[ly[k]], verts[ly[k+1]]
				if pairCrossings(verts, u, v) > pairCrossings(verts, v, u) {
					ly[k], ly[k+1] = ly[k+1], ly[k]
					u.pos, v.pos = k+1, k
					improved = true
				}
			}
		}
		if !improved {
			return
		}
	}
}

// pairCrossings counts the crossings between the edges of u and those of
// v, with u placed left of v.
func pairCrossings(verts []*vertex, u, v *vertex) int {
	n := 0
	for _, nbs := range [2][2][]int{{u.up, v.up}, {u.down, v.down}} {
		for _, a := range nbs[0] {
			for _, b := range nbs[1] {
				if verts[a].pos > verts[b].pos {
					n++
				}
			}
		}
	}
	return n
}

// adj is the layer a sweep looks at from layer l.
func adj(l int, down bool) int {
	if down {
		return max(l-1, 0)
	}
	return l + 1
}

func snapshot(layers [][]int) [][]int {
	out := make([][]int, len(layers))
	for i, ly := range layers {
		out[i] = append([]int(nil), ly...)
	}
	return out
}

// crossings counts the pairs of crossing edge segments between adjacent
// layers.
func crossings(verts []*vertex, layers [][]int) int {
	total := 0
	for _, ly := range layers {
		type seg struct{ a, b int }
		var segs []seg
		for _, v := range ly {
			for _, w := range verts[v].down {
				segs = append(segs, seg{verts[v].pos, verts[w].pos})
			}
		}
		for i := range segs {
			for j := i + 1; j < len(segs); j++ {
				if (segs[i].a-segs[j].a)*(segs[i].b-segs[j].b) < 0 {
					total++
				}
			}
		}
	}
	return total
}

// placeRounds is the number of rounds of horizontal placement.
const placeRounds = 16

// place gives every vertex its x: each layer keeps its order and its
// gaps, and each round moves every layer as close as the gaps allow to
// where its neighbours above (or below, or both in the last rounds) want
// it, in the least-squares sense (isotonic regression by pooling adjacent
// violators), so that chains straighten and a box sits over its
// successors.
func place(verts []*vertex, layers [][]int) {
	for _, ly := range layers {
		x := 0.0
		for i, v := range ly {
			if i > 0 {
				x += verts[ly[i-1]].rt + gapX + verts[v].left
			}
			verts[v].x = x
		}
	}
	for r := 0; r < placeRounds; r++ {
		down := r%2 == 0
		both := r >= placeRounds-4
		for i := range layers {
			l := i
			if !down {
				l = len(layers) - 1 - i
			}
			ly := layers[l]
			want := make([]float64, len(ly))
			for k, v := range ly {
				var nb []int
				switch {
				case both:
					nb = append(append(nb, verts[v].up...), verts[v].down...)
				case down:
					nb = verts[v].up
				default:
					nb = verts[v].down
				}
				if len(nb) == 0 {
					want[k] = verts[v].x
					continue
				}
				sum := 0.0
				for _, u := range nb {
					sum += verts[u].x
				}
				want[k] = sum / float64(len(nb))
			}
			fit(verts, ly, want)
		}
	}
}

// fit places the vertices of one layer, in their order and at least gapX
// apart, as close to want as possible (weighted least squares).
func fit(verts []*vertex, ly []int, want []float64) {
	// With off[k] the least distance from the first vertex to the k-th,
	// x[k] = y[k] + off[k] for a non-decreasing y: isotonic regression of
	// want - off.
	off := make([]float64, len(ly))
	for k := 1; k < len(ly); k++ {
		off[k] = off[k-1] + verts[ly[k-1]].rt + gapX + verts[ly[k]].left
	}
	type block struct {
		sum, w float64
		n      int
	}
	var blocks []block
	for k, v := range ly {
		wt := verts[v].weight
		blocks = append(blocks, block{(want[k] - off[k]) * wt, wt, 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/a.w <= b.sum/b.w {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{a.sum + b.sum, a.w + b.w, a.n + b.n})
		}
	}
	k := 0
	for _, b := range blocks {
		y := b.sum / b.w
		for range b.n {
			verts[ly[k]].x = y + off[k]
			k++
		}
	}
}
