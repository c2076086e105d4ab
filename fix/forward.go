package fix

import (
	"fmt"
	"strings"
)

// Forward returns the forward declarations that Mucke needs before f's
// declarations: one line "mu bool R(T x, U y);" for each relation with a
// body that f applies before defining it (Mucke refuses "undefined
// function R" otherwise; this package reads relations in any order). A
// relation's own body may apply it: its head comes first. The lines are
// in the order of the first such applications.
func Forward(f *File) []string {
	defs := map[string]*RelDecl{}
	for _, d := range f.Decls {
		if r, ok := d.(*RelDecl); ok && r.Body != nil {
			if _, dup := defs[r.Name]; !dup {
				defs[r.Name] = r
			}
		}
	}
	known := map[string]bool{}
	declared := map[string]bool{}
	var out []string
	walk := func(body Expr) {
		applications(body, func(e *Apply) {
			r := defs[e.Name]
			if r == nil || known[e.Name] || declared[e.Name] {
				return
			}
			declared[e.Name] = true
			ps := make([]string, len(r.Params))
			for i, p := range r.Params {
				ps[i] = p.Type.Name + " " + p.Name
				if p.Type.Len > 0 {
					ps[i] += fmt.Sprintf("[%d]", p.Type.Len)
				}
			}
			out = append(out, fmt.Sprintf("%s%s(%s);", kindPrefix(r.Kind), r.Name, strings.Join(ps, ", ")))
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *RelDecl:
			known[d.Name] = true
			if d.Body != nil {
				walk(d.Body)
			}
		case *Query:
			walk(d.Body)
		}
	}
	return out
}

// kindPrefix is what a relation's head starts with: "mu bool ", "nu bool "
// or "bool ".
func kindPrefix(k RelKind) string {
	if k == Plain {
		return "bool "
	}
	return k.String() + " bool "
}
