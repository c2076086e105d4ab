package jsonschema

import (
	"strings"
	"testing"
)

const testSchema = `{
  "$id": "t",
  "type": "object",
  "required": ["n", "kind"],
  "additionalProperties": false,
  "properties": {
    "n": {"type": "integer", "minimum": 1},
    "kind": {"enum": ["a", "b"]},
    "v": {"const": 1},
    "list": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}},
    "either": {"oneOf": [{"type": "null"}, {"type": "string"}]},
    "map": {"type": "object", "additionalProperties": {"type": ["boolean", "number"]}}
  },
  "$defs": {"item": {"type": "object", "required": ["x"], "properties": {"x": {"type": "boolean"}}}}
}`

func TestValidate(t *testing.T) {
	s, err := Parse([]byte(testSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc  string
		want string // "" for valid, else a substring of the error
	}{
		{`{"n": 1, "kind": "a"}`, ""},
		{`{"n": 3, "kind": "b", "v": 1, "list": [{"x": true}], "either": null, "map": {"p": true, "q": 2.5}}`, ""},
		{`{"n": 1}`, `missing property "kind"`},
		{`{"n": 0, "kind": "a"}`, "/n: 0 is less than 1"},
		{`{"n": 1.5, "kind": "a"}`, "/n: 1.5 is not of type integer"},
		{`{"n": 1, "kind": "c"}`, `/kind: "c" is not one of`},
		{`{"n": 1, "kind": "a", "v": 2}`, "/v: 2, want 1"},
		{`{"n": 1, "kind": "a", "w": 2}`, "/w: property not allowed"},
		{`{"n": 1, "kind": "a", "list": []}`, "/list: 0 items"},
		{`{"n": 1, "kind": "a", "list": [{"x": 1}]}`, "/list/0/x: 1 is not of type boolean"},
		{`{"n": 1, "kind": "a", "either": 3}`, "/either: matches no alternative"},
		{`{"n": 1, "kind": "a", "map": {"p": "s"}}`, "/map/p:"},
		{`[1]`, "is not of type object"},
		{`{"n": 1, "kind": "a"} {}`, "not one JSON document"},
	} {
		err := s.Validate([]byte(c.doc))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.doc, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.doc, err, c.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, doc := range []string{
		`{"type": "string", "pattern": "a*"}`,
		`{"$ref": "#/$defs/missing"}`,
		`{"$ref": "other.json"}`,
		`{"properties": {"a": {"format": "date"}}}`,
		`not json`,
	} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
}
