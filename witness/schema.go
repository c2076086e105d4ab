package witness

import (
	_ "embed"
	"encoding/json"
	"strconv"
)

// SchemaJSON is the JSON schema of the YAML witnesses of format version
// FormatVersion (schema/boolprog-witness-1.json), to check a witness's
// JSON form (YAMLToJSON) against.
//
//go:embed schema/boolprog-witness-1.json
var SchemaJSON []byte

// YAMLToJSON returns the JSON form of a YAML witness (in the subset of
// YAML that witnesses use): mappings as objects, lists as arrays, quoted
// scalars as strings, unquoted integers as numbers, unquoted true and
// false as Booleans, other scalars as strings. A malformed file gives a
// *syntax.Error without a file name.
func YAMLToJSON(data []byte) ([]byte, error) {
	root, err := parseYAML(string(data))
	if err != nil {
		return nil, err
	}
	return json.Marshal(root.jsonValue())
}

// jsonValue returns n as encoding/json would marshal it.
func (n *ynode) jsonValue() any {
	switch n.kind {
	case 'm':
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k] = n.vals[i].jsonValue()
		}
		return m
	case 's':
		a := make([]any, len(n.items))
		for i, it := range n.items {
			a[i] = it.jsonValue()
		}
		return a
	}
	if !n.quoted {
		if i, err := strconv.ParseInt(n.value, 10, 64); err == nil {
			return i
		}
		if b, err := strconv.ParseBool(n.value); err == nil && (n.value == "true" || n.value == "false") {
			return b
		}
	}
	return n.value
}
