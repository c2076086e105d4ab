package fix

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// cancelAfter is a context whose Err reports context.Canceled from its
// n'th call on.
type cancelAfter struct {
	context.Context
	n, calls int
}

func (c *cancelAfter) Err() error {
	if c.calls++; c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

// TestParseFileContext checks that parsing a large file stops when the
// context ends, while scanning and between declarations, and parses as
// ParseFile does otherwise.
func TestParseFileContext(t *testing.T) {
	var b strings.Builder
	b.WriteString("enum N {0..3};\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "bool R%d(N x) (x=%d | x=0);\n", i, i%4)
	}
	src := []byte(b.String())
	want, err := ParseFile("big.mu", src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseFileContext(context.Background(), "big.mu", src)
	if err != nil || len(got.Decls) != len(want.Decls) || len(got.Decls) != 2001 {
		t.Fatalf("ParseFileContext: %v, %d declarations; ParseFile: %d", err, len(got.Decls), len(want.Decls))
	}
	for _, n := range []int{1, 3, 500} { // while scanning, at the first declaration, among them
		ctx := &cancelAfter{Context: context.Background(), n: n}
		f, err := ParseFileContext(ctx, "big.mu", src)
		if !errors.Is(err, context.Canceled) || f != nil {
			t.Errorf("cancelled at poll %d: %v", n, err)
		}
		if ctx.calls != n {
			t.Errorf("cancelled at poll %d: polled %d times", n, ctx.calls)
		}
	}
}

// TestCheckContext checks that Check stops between relations when the
// context ends, leaving the file unchecked, and checks it otherwise.
func TestCheckContext(t *testing.T) {
	var b strings.Builder
	b.WriteString("enum N {0..3};\n")
	for i := range 200 {
		fmt.Fprintf(&b, "bool R%d(N x) (x=%d | x=0);\n", i, i%4)
	}
	f, err := ParseFile("big.mu", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := &cancelAfter{Context: context.Background(), n: 50}
	if err := CheckContext(ctx, f); !errors.Is(err, context.Canceled) || f.checked || ctx.calls != 50 {
		t.Errorf("cancelled at poll 50: %v, checked %v, %d polls", err, f.checked, ctx.calls)
	}
	if err := CheckContext(context.Background(), f); err != nil || !f.checked {
		t.Errorf("CheckContext: %v, checked %v", err, f.checked)
	}
}
