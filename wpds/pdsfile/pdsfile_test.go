package pdsfile

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestSolveFiles(t *testing.T) {
	tests := []struct {
		file    string
		opt     Options
		weight  string
		witness []string // in the text output
	}{
		{"calls.pds", Options{}, "6", nil},
		{"calls.json", Options{}, "6", nil},
		{"calls.pds", Options{FWPDS: true}, "6", nil},
		{"calls.pds", Options{Pre: true}, "6", nil},
		{"calls.pds", Options{Pre: true, FWPDS: true}, "6", nil},
		{"calls.pds", Options{Witness: true}, "6", []string{
			"witness for <p, m2 ...>: no witness for a set",
			"witness for <p,>: 7 rules from <p, m0> to <p,>, value 7",
			"  line 4: <p, m0> -> <p, f0 m1>",
			"  line 6: <p, m2> -> <p,>",
		}},
		{"calls.pds", Options{Witness: true, FWPDS: true}, "6", []string{
			"witness for <p,>: 7 rules from <p, m0> to <p,>, value 7",
		}},
		{"calls.pds", Options{Witness: true, Pre: true}, "6", []string{
			"witness for <p, m0>: 6 rules from <p, m0> to <p, m2>, value 6",
		}},
		{"uninit.pds", Options{}, "gen(x)", nil},
		{"uninit.pds", Options{Pre: true, FWPDS: true}, "gen(x)", nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(tc.file, src)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Solve(f, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Weight != tc.weight {
				t.Errorf("%+v: weight %q, want %q", tc.opt, r.Weight, tc.weight)
			}
			var out bytes.Buffer
			r.WriteText(&out)
			for _, w := range tc.witness {
				if !strings.Contains(out.String(), w+"\n") && !strings.Contains(out.String(), w) {
					t.Errorf("%+v: output lacks %q:\n%s", tc.opt, w, out.String())
				}
			}
			if _, err := json.Marshal(r); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTextAndJSONAgree: the two forms of the same system give the same file.
func TestTextAndJSONAgree(t *testing.T) {
	read := func(name string) *File {
		src, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := read("calls.pds"), read("calls.json")
	ra, _ := Solve(a, Options{})
	rb, _ := Solve(b, Options{})
	ja, _ := json.Marshal(ra)
	jb, _ := json.Marshal(rb)
	if !bytes.Equal(ja, jb) {
		t.Errorf("text and JSON differ:\n%s\n%s", ja, jb)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"no states", "domain bool\n", "x:1:1: no control states"},
		{"unknown domain", "domain real\n", "x:1:8: unknown domain \"real\""},
		{"domain late", "states p\ndomain bool\n", "x:2:1: 'domain' must be the first"},
		{"bits outside bitvector", "bits a\n", "x:1:6: bits are for the bitvector domain"},
		{"bit twice", "domain bitvector\nbits a a\n", "x:2:8: bit a declared twice"},
		{"state twice", "states p p\n", "x:1:10: state p declared twice"},
		{"rule before states", "<p, a> -> <p>\n", "x:1:1: a rule before the 'states' line"},
		{"undeclared state", "states p\n<q, a> -> <p>\n", "x:2:2: undeclared control state q"},
		{"undeclared target", "states p\n<p, a> -> <r, b>\n", "x:2:12: undeclared control state r"},
		{"two symbols on the left", "states p\n<p, a b> -> <p>\n", "x:2:2: a rule's left side has exactly one"},
		{"three on the right", "states p\n<p, a> -> <p, a b c>\n", "x:2:12: a rule's right side has at most two"},
		{"missing arrow", "states p\n<p, a> <p>\n", "x:2:8: want \"->\""},
		{"unclosed", "states p\n<p, a -> <p>\n", "x:2:7: want a stack symbol or '>'"},
		{"unclosed at end", "states p\nfrom <p, a\n", "x:2:11: want '>' to close"},
		{"bad bool weight", "states p\n<p, a> -> <p> maybe\n", "x:2:15: bad bool weight"},
		{"bad minpath weight", "domain minpath\nstates p\n<p, a> -> <p> -3\n", "x:3:15: bad minpath weight"},
		{"minpath overflow", "domain minpath\nstates p\n<p, a> -> <p> 18446744073709551615\n", "bad minpath weight"},
		{"undeclared bit", "domain bitvector\nbits a\nstates p\n<p, a> -> <p> gen(b)\n", "x:4:15: undeclared bit b"},
		{"bad genkill", "domain bitvector\nbits a\nstates p\n<p, a> -> <p> gen(a) gen(a)\n", "x:4:15: bad bitvector weight"},
		{"dots in a rule", "states p\n<p, a> -> <p, a ...>\n", "x:2:17: '...' (any stack) is for from and to"},
		{"unknown directive", "states p\nstart <p, a>\n", "x:2:1: unknown directive \"start\""},
		{"junk after from", "states p\nfrom <p, a> x\n", "x:2:13: unexpected \"x\""},
		{"from before states", "from <p, a>\n", "x:1:1: 'from' before the 'states' line"},
		{"stray character", "states p\n@\n", "x:2:1: unexpected \"@\""},
		{"invalid UTF-8", "states p\n# \xff\n", "x:2:3: the file is not valid UTF-8"},
		{"json syntax", "{\"states\": [\"p\"],\n \"rules\": [}\n", "x:2:12: JSON"},
		{"json unknown key", "{\"states\": [\"p\"], \"rulez\": []}", "x:1:19: JSON: unknown key \"rulez\""},
		{"json bad rule state", "{\"states\": [\"p\"],\n \"rules\": [\n  {\"from\": \"q\", \"sym\": \"a\", \"to\": \"p\"}]}", "x:3:3: undeclared control state q"},
		{"json bad weight", "{\"domain\": \"minpath\", \"states\": [\"p\"], \"rules\": [{\"from\": \"p\", \"sym\": \"a\", \"to\": \"p\", \"weight\": true}]}", "bad minpath weight \"true\""},
		{"json type", "{\"states\": \"p\"}", "x:1:12: JSON"},
		{"json bad name", "{\"states\": [\"p q\"]}", "bad name \"p q\""},
		{"json trailing", "{\"states\": [\"p\"]} {}", "x:1:19: JSON: unexpected"},
		{"json unknown rule field", "{\"states\": [\"p\"], \"rules\": [{\"frm\": \"p\"}]}", "JSON"},
		{"json truncated", "{\"states\": [\"p\"]", "JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestQueryErrors(t *testing.T) {
	f, err := Parse("x", []byte("states p\n<p, a> -> <p>\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{{}, {Pre: true}} {
		if _, err := Solve(f, opt); err == nil || !strings.Contains(err.Error(), "x:1:1: ") {
			t.Errorf("%+v: error %v, want a missing set at x:1:1", opt, err)
		}
	}
}

// FuzzParse: no input makes Parse or Solve panic, and every error has a
// position.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"calls.pds", "calls.json", "uninit.pds"} {
		src, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("states p\n<p,> -> <p>\n"))
	f.Add([]byte("{\"states\":[\"p\"],\"from\":[{\"state\":\"p\",\"any\":true}]}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		if len(file.Rules) > 200 {
			return
		}
		for _, opt := range []Options{{Witness: true, WitnessLimit: 100}, {Pre: true, FWPDS: true}} {
			if r, err := Solve(file, opt); err == nil {
				r.WriteText(new(bytes.Buffer))
			}
		}
	})
}
