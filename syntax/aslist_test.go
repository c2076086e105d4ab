package syntax

import (
	"errors"
	"fmt"
	"testing"
)

func TestAsErrorList(t *testing.T) {
	one := &Error{Filename: "a.bp", Pos: Pos{Line: 1, Col: 2}, Msg: "one"}
	two := ErrorList{one, {Filename: "a.bp", Msg: "two"}}
	for _, tc := range []struct {
		name string
		err  error
		want int // diagnostics, or -1 for ok false
	}{
		{"a list", two, 2},
		{"a wrapped list", fmt.Errorf("lower: %w", two), 2},
		{"one error", one, 1},
		{"a wrapped error", fmt.Errorf("x: %w", one), 1},
		{"another error", errors.New("boom"), -1},
	} {
		list, ok := AsErrorList(tc.err)
		if got := len(list); (tc.want < 0) == ok || (ok && got != tc.want) {
			t.Errorf("%s: %d diagnostics, ok %v; want %d", tc.name, got, ok, tc.want)
		}
	}
}
