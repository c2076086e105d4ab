package htmlreport

import (
	"io"
	"testing"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/testsuite"
)

// BenchmarkWriteT400 times the page of the Bebop template T(400) for the
// label reach (5,206 locations, a trace of 13,204 steps): the layout of
// the procedures drawn, the trace data and the template.
func BenchmarkWriteT400(b *testing.B) {
	src := gen.BebopTemplate(400)
	p := testsuite.Lower(b, "T400.bp", src, "reach")
	info, _ := engine.Lookup("summary")
	eng, err := info.New()
	if err != nil {
		b.Fatal(err)
	}
	res := testsuite.Check(b, eng, p, engine.Query{})
	pg := &Page{File: "T400.bp", Source: []byte(src), Program: p, Result: res, Replayed: true}
	b.ResetTimer()
	for range b.N {
		if err := Write(io.Discard, pg); err != nil {
			b.Fatal(err)
		}
	}
}
