// Package jsonschema validates JSON documents against the small subset of
// JSON Schema (draft 2020-12) that the project's schemas use: type,
// properties, required, additionalProperties, items, enum, const, minimum,
// minItems, oneOf and $ref to "#/$defs/NAME". A schema that uses any other
// keyword is rejected, so that a constraint is never silently ignored.
// It exists for the tests that check the CLI's JSON output against
// result/report.schema.json, and the witnesses against
// witness/schema/boolprog-witness-1.json, without a dependency.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// Schema is a parsed schema document.
type Schema struct {
	root map[string]any
	defs map[string]any
}

// annotations are keywords without a constraint.
var annotations = map[string]bool{"$schema": true, "$id": true, "title": true, "description": true, "$defs": true}

// constraints are the keywords Validate implements.
var constraints = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"enum": true, "const": true, "minimum": true, "minItems": true, "oneOf": true, "$ref": true,
}

// Parse reads a schema and checks that it uses only the supported keywords
// and that every $ref resolves.
func Parse(doc []byte) (*Schema, error) {
	var root map[string]any
	if err := json.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("jsonschema: %v", err)
	}
	s := &Schema{root: root}
	if d, ok := root["$defs"]; ok {
		m, ok := d.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("jsonschema: $defs is not an object")
		}
		s.defs = m
	}
	if err := s.check(root, "#"); err != nil {
		return nil, err
	}
	for name, d := range s.defs {
		if err := s.check(d, "#/$defs/"+name); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// check verifies that a (sub)schema uses only supported keywords.
func (s *Schema) check(x any, path string) error {
	if _, ok := x.(bool); ok {
		return nil
	}
	m, ok := x.(map[string]any)
	if !ok {
		return fmt.Errorf("jsonschema: %s: a schema must be an object or a boolean", path)
	}
	for k, v := range m {
		switch {
		case annotations[k]:
		case !constraints[k]:
			return fmt.Errorf("jsonschema: %s: unsupported keyword %q", path, k)
		case k == "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("jsonschema: %s: properties is not an object", path)
			}
			for name, p := range props {
				if err := s.check(p, path+"/properties/"+name); err != nil {
					return err
				}
			}
		case k == "items" || k == "additionalProperties":
			if err := s.check(v, path+"/"+k); err != nil {
				return err
			}
		case k == "oneOf":
			list, ok := v.([]any)
			if !ok {
				return fmt.Errorf("jsonschema: %s: oneOf is not an array", path)
			}
			for i, sub := range list {
				if err := s.check(sub, fmt.Sprintf("%s/oneOf/%d", path, i)); err != nil {
					return err
				}
			}
		case k == "$ref":
			if _, err := s.resolve(v); err != nil {
				return fmt.Errorf("jsonschema: %s: %v", path, err)
			}
		}
	}
	return nil
}

func (s *Schema) resolve(ref any) (any, error) {
	r, ok := ref.(string)
	if !ok || !strings.HasPrefix(r, "#/$defs/") {
		return nil, fmt.Errorf("unsupported $ref %v (only #/$defs/NAME)", ref)
	}
	d, ok := s.defs[strings.TrimPrefix(r, "#/$defs/")]
	if !ok {
		return nil, fmt.Errorf("$ref %s does not resolve", r)
	}
	return d, nil
}

// Validate reports the first way in which the JSON document doc violates
// the schema, as "PATH: message" with PATH a JSON pointer ("" for the
// root), or nil if it conforms.
func (s *Schema) Validate(doc []byte) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("not one JSON document")
	}
	return s.validate(s.root, v, "")
}

func (s *Schema) validate(sch any, v any, path string) error {
	if b, ok := sch.(bool); ok {
		if !b {
			return fmt.Errorf("%s: not allowed", path)
		}
		return nil
	}
	m := sch.(map[string]any)
	if ref, ok := m["$ref"]; ok {
		d, err := s.resolve(ref)
		if err != nil {
			return err
		}
		if err := s.validate(d, v, path); err != nil {
			return err
		}
	}
	if t, ok := m["type"]; ok {
		if err := checkType(t, v, path); err != nil {
			return err
		}
	}
	if c, ok := m["const"]; ok && !equal(c, v) {
		return fmt.Errorf("%s: %s, want %s", path, show(v), show(c))
	}
	if e, ok := m["enum"]; ok {
		found := false
		for _, x := range e.([]any) {
			if equal(x, v) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s: %s is not one of %s", path, show(v), show(e))
		}
	}
	if min, ok := m["minimum"]; ok {
		if n, isNum := v.(json.Number); isNum {
			x, _ := n.Float64()
			if x < min.(float64) {
				return fmt.Errorf("%s: %s is less than %v", path, n, min)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		if err := s.validateObject(m, obj, path); err != nil {
			return err
		}
	}
	if arr, ok := v.([]any); ok {
		if mi, ok := m["minItems"]; ok && float64(len(arr)) < mi.(float64) {
			return fmt.Errorf("%s: %d items, want at least %v", path, len(arr), mi)
		}
		if items, ok := m["items"]; ok {
			for i, x := range arr {
				if err := s.validate(items, x, fmt.Sprintf("%s/%d", path, i)); err != nil {
					return err
				}
			}
		}
	}
	if one, ok := m["oneOf"]; ok {
		var matched int
		var errs []string
		for _, sub := range one.([]any) {
			if err := s.validate(sub, v, path); err != nil {
				errs = append(errs, err.Error())
			} else {
				matched++
			}
		}
		if matched != 1 {
			if matched == 0 {
				return fmt.Errorf("%s: matches no alternative of oneOf: %s", path, strings.Join(errs, "; "))
			}
			return fmt.Errorf("%s: matches %d alternatives of oneOf, want exactly one", path, matched)
		}
	}
	return nil
}

func (s *Schema) validateObject(m map[string]any, obj map[string]any, path string) error {
	if req, ok := m["required"]; ok {
		for _, r := range req.([]any) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: missing property %q", path, r)
			}
		}
	}
	props, _ := m["properties"].(map[string]any)
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names) // report the first violation deterministically
	for _, k := range names {
		x := obj[k]
		p := path + "/" + k
		if sub, ok := props[k]; ok {
			if err := s.validate(sub, x, p); err != nil {
				return err
			}
			continue
		}
		if ap, ok := m["additionalProperties"]; ok {
			if b, isBool := ap.(bool); isBool && !b {
				return fmt.Errorf("%s: property not allowed", p)
			}
			if err := s.validate(ap, x, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkType(t any, v any, path string) error {
	var types []string
	switch t := t.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	}
	for _, want := range types {
		if hasType(want, v) {
			return nil
		}
	}
	return fmt.Errorf("%s: %s is not of type %s", path, show(v), strings.Join(types, " or "))
}

func hasType(t string, v any) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		if _, err := n.Int64(); err == nil {
			return true
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return false
}

// equal compares a schema value (numbers as float64) with a document value
// (numbers as json.Number).
func equal(schema, doc any) bool {
	if n, ok := doc.(json.Number); ok {
		f, err := n.Float64()
		sf, isNum := schema.(float64)
		return err == nil && isNum && f == sf
	}
	return reflect.DeepEqual(schema, doc)
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
