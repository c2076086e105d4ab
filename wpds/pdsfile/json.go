package pdsfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

type jsonRule struct {
	From   string          `json:"from"`
	Sym    string          `json:"sym"`
	To     string          `json:"to"`
	Out    []string        `json:"out"`
	Weight json.RawMessage `json:"weight"`
}

type jsonPattern struct {
	State string   `json:"state"`
	Stack []string `json:"stack"`
	Any   bool     `json:"any"`
}

// ParseJSON reads a file in the JSON form (see the package doc).
func ParseJSON(name string, src []byte) (*File, error) {
	p := &jsonParser{name: name, src: src, dec: json.NewDecoder(bytes.NewReader(src))}
	f, err := p.parse()
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return nil, e
		}
		return nil, p.wrap(err)
	}
	return f, nil
}

type jsonParser struct {
	name string
	src  []byte
	dec  *json.Decoder
}

// at returns the position of the byte offset off, after blanks and commas.
func (p *jsonParser) at(off int64) Pos {
	for off < int64(len(p.src)) {
		c := p.src[off]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ',' && c != ':' {
			break
		}
		off++
	}
	line, col := 1, 1
	for i := int64(0); i < off && i < int64(len(p.src)); i++ {
		if p.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return Pos{line, col}
}

func (p *jsonParser) errAt(off int64, format string, args ...any) error {
	return &Error{File: p.name, Pos: p.at(off), Msg: fmt.Sprintf(format, args...)}
}

// wrap turns a decoding error into an Error at its offset.
func (p *jsonParser) wrap(err error) error { return p.wrapAt(err, 0) }

// wrapAt is wrap for the error of a Decode that started at the offset
// base: a type error is reported at the start of the value (its own
// offset is relative to a buffer).
func (p *jsonParser) wrapAt(err error, base int64) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ):
		return &Error{File: p.name, Pos: p.at(base), Msg: "JSON: " + typ.Error()}
	case errors.As(err, &syn):
		return &Error{File: p.name, Pos: p.at(max(syn.Offset-1, 0)), Msg: "JSON: " + syn.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{File: p.name, Pos: p.at(int64(len(p.src))), Msg: "JSON: unexpected end of input"}
	}
	return &Error{File: p.name, Pos: p.at(p.dec.InputOffset()), Msg: "JSON: " + err.Error()}
}

func (p *jsonParser) delim(want json.Delim) error {
	off := p.dec.InputOffset()
	t, err := p.dec.Token()
	if err != nil {
		// Token's syntax errors give the offset of the bad byte, not
		// the count of bytes read through it as Decode's do.
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return &Error{File: p.name, Pos: p.at(syn.Offset), Msg: "JSON: " + syn.Error()}
		}
		return p.wrap(err)
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return p.errAt(off, "JSON: want %q", string(want))
	}
	return nil
}

// array decodes a JSON array element by element, recording where each
// starts.
func (p *jsonParser) array(elem func() any, got func(Pos, any)) error {
	if err := p.delim('['); err != nil {
		return err
	}
	for p.dec.More() {
		base := p.dec.InputOffset()
		pos := p.at(base)
		v := elem()
		if err := p.dec.Decode(v); err != nil {
			return p.wrapAt(err, base)
		}
		got(pos, v)
	}
	return p.delim(']')
}

func (p *jsonParser) parse() (*File, error) {
	p.dec.DisallowUnknownFields()
	var (
		domain     string
		domainPos  Pos
		bits       []string
		states     []string
		statesPos  = Pos{1, 1}
		rules      []jsonRule
		rulePos    []Pos
		from, to   []jsonPattern
		fromP, toP []Pos
		seen       = map[string]bool{}
	)
	if err := p.delim('{'); err != nil {
		return nil, err
	}
	for p.dec.More() {
		off := p.dec.InputOffset()
		t, err := p.dec.Token()
		if err != nil {
			return nil, p.wrap(err)
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, p.errAt(off, "JSON: key %q twice", key)
		}
		seen[key] = true
		base := p.dec.InputOffset()
		vpos := p.at(base)
		switch key {
		case "domain":
			domainPos = vpos
			err = p.dec.Decode(&domain)
		case "bits":
			err = p.dec.Decode(&bits)
		case "states":
			statesPos = vpos
			err = p.dec.Decode(&states)
		case "rules":
			err = p.array(func() any { return new(jsonRule) }, func(pos Pos, v any) {
				rules = append(rules, *v.(*jsonRule))
				rulePos = append(rulePos, pos)
			})
		case "from", "to":
			err = p.array(func() any { return new(jsonPattern) }, func(pos Pos, v any) {
				if key == "from" {
					from, fromP = append(from, *v.(*jsonPattern)), append(fromP, pos)
				} else {
					to, toP = append(to, *v.(*jsonPattern)), append(toP, pos)
				}
			})
		default:
			return nil, p.errAt(off, "JSON: unknown key %q (want domain, bits, states, rules, from, to)", key)
		}
		if err != nil {
			if e := (*Error)(nil); errors.As(err, &e) {
				return nil, e
			}
			return nil, p.wrapAt(err, base)
		}
	}
	if err := p.delim('}'); err != nil {
		return nil, err
	}
	if t, err := p.dec.Token(); err != io.EOF {
		if err != nil {
			return nil, p.wrap(err)
		}
		return nil, p.errAt(p.dec.InputOffset()-1, "JSON: unexpected %v after the object", t)
	}

	b := newBuilder(p.name)
	if domain != "" {
		if err := b.setDomain(domainPos, domain); err != nil {
			return nil, err
		}
	}
	for _, n := range bits {
		if err := checkName(b, statesPos, n); err != nil {
			return nil, err
		}
		if err := b.addBit(statesPos, n); err != nil {
			return nil, err
		}
	}
	for _, n := range states {
		if err := checkName(b, statesPos, n); err != nil {
			return nil, err
		}
		if err := b.addState(statesPos, n); err != nil {
			return nil, err
		}
	}
	if len(states) == 0 {
		return nil, b.errf(statesPos, "no control states: the object needs \"states\"")
	}
	for i, r := range rules {
		pos := rulePos[i]
		for _, n := range append([]string{r.Sym}, r.Out...) {
			if err := checkName(b, pos, n); err != nil {
				return nil, err
			}
		}
		w, err := b.parseWeight(pos, weightText(r.Weight))
		if err != nil {
			return nil, err
		}
		if err := b.addRule(Rule{Pos: pos, From: r.From, Sym: r.Sym, To: r.To, Out: r.Out, Weight: w}, pos); err != nil {
			return nil, err
		}
	}
	for k, list := range [][]jsonPattern{from, to} {
		for i, c := range list {
			pos := fromP
			if k == 1 {
				pos = toP
			}
			for _, n := range c.Stack {
				if err := checkName(b, pos[i], n); err != nil {
					return nil, err
				}
			}
			if err := b.addPattern(k == 1, Pattern{Pos: pos[i], State: c.State, Stack: c.Stack, Any: c.Any}); err != nil {
				return nil, err
			}
		}
	}
	return b.finish()
}

// checkName makes JSON names follow the text format's rules, so that every
// file can be printed as text.
func checkName(b *builder, pos Pos, n string) error {
	if n == "" {
		return b.errf(pos, "empty name")
	}
	for i := 0; i < len(n); i++ {
		if !isNameByte(n[i], i == 0) {
			return b.errf(pos, "bad name %q (letters, digits, _ $ ' and . not first)", n)
		}
	}
	return nil
}

// weightText returns a JSON weight as the text format writes it.
func weightText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
