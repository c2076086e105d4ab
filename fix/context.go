package fix

import "context"

// ParseFileContext is ParseFile that stops when ctx ends: a generated
// model (conc-fix's at a high bound) can be megabytes, seconds of parsing.
// It polls ctx every few thousand tokens and between declarations, and
// returns ctx.Err() when it finds it ended.
func ParseFileContext(ctx context.Context, name string, src []byte) (*File, error) {
	var errs ErrorList
	sc := &scanner{file: name, src: src, line: 1, col: 1, errs: &errs}
	p := &parser{file: name, errs: &errs}
	for n := 1; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t := sc.scan()
		if t.kind == tIllegal {
			errs.add(name, t.pos, "illegal character %q", t.text)
			continue
		}
		p.toks = append(p.toks, t)
		if t.kind == tEOF {
			break
		}
	}
	f := &File{Name: name}
	for p.tok().kind != tEOF && len(errs) < maxErrors {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if d := p.decl(); d != nil {
			f.Decls = append(f.Decls, d)
		}
	}
	return f, errs.err()
}

// CheckContext is Check that stops when ctx ends (it polls between
// relations) and then returns ctx.Err(), leaving f unchecked.
func CheckContext(ctx context.Context, f *File) error { return check(ctx, f) }
