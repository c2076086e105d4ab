// Package layers states the import rules of boolprog's layers as a
// function over the package graph, so that a test of the whole module
// (layers_test.go, over `go list -json`) keeps them:
//
//   - an engine implementation (boolprog/engine/<name> and below) imports
//     no other engine implementation: what two engines share is a library;
//   - below the pipeline nothing imports an engine implementation: only
//     the engines themselves, internal/engines (the one list of engines)
//     and the pipeline (the root package) do — and cmd, whose own rule
//     is next;
//   - cmd imports no engine implementation (it turns flags into options for
//     the pipeline, and reaches the engines through the registry);
//   - internal/engines is imported only by the pipeline and cmd;
//   - nothing imports a command (boolprog/cmd/...).
//
// The package engine (the interface, Run and the registry) is a library
// like any other: everyone may import it.
package layers

import (
	"fmt"
	"sort"
	"strings"
)

// Module is the module path.
const Module = "boolprog"

// Package is a package of the module and the packages it imports (its
// non-test imports; Check reads test imports only for the rule on cmd).
type Package struct {
	ImportPath  string
	Imports     []string
	TestImports []string // of the package's _test.go files, both kinds
}

// Violation is an import that breaks a rule.
type Violation struct {
	From, To string
	Rule     Rule
}

// Rule names a rule of the package doc.
type Rule string

// The rules.
const (
	EngineToEngine  Rule = "an engine imports another engine"
	LibraryToEngine Rule = "a package below the pipeline imports an engine"
	CmdToEngine     Rule = "cmd imports an engine"
	EngineList      Rule = "internal/engines imported below the pipeline"
	ToCmd           Rule = "a package imports a command"
)

func (v Violation) String() string { return fmt.Sprintf("%s imports %s: %s", v.From, v.To, v.Rule) }

// pipeline are the packages that orchestrate a check: they may import
// engines and the list of engines.
var pipeline = map[string]bool{Module: true}

// Engine returns the name of the engine implementation path belongs to
// ("summary" for boolprog/engine/summary and its subpackages), or "".
func Engine(path string) string {
	rest, ok := strings.CutPrefix(path, Module+"/engine/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// isCmd says path is a command or below one.
func isCmd(path string) bool { return path == Module+"/cmd" || strings.HasPrefix(path, Module+"/cmd/") }

// Check returns every import of pkgs that breaks a rule, sorted.
func Check(pkgs []Package) []Violation {
	var out []Violation
	for _, p := range pkgs {
		from := p.ImportPath
		for _, to := range p.Imports {
			if !strings.HasPrefix(to, Module+"/") && to != Module {
				continue
			}
			if v, ok := check(from, to); ok {
				out = append(out, v)
			}
		}
		for _, to := range p.TestImports {
			if isCmd(to) && !isCmd(from) {
				out = append(out, Violation{from, to, ToCmd})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To < out[j].To
	})
	return out
}

// check applies the rules to one import.
func check(from, to string) (Violation, bool) {
	bad := func(r Rule) (Violation, bool) { return Violation{from, to, r}, true }
	if isCmd(to) && !(isCmd(from) && strings.HasPrefix(to, from+"/")) {
		return bad(ToCmd)
	}
	if to == Module+"/internal/engines" && !pipeline[from] && !isCmd(from) {
		return bad(EngineList)
	}
	e := Engine(to)
	if e == "" {
		return Violation{}, false
	}
	switch {
	case Engine(from) == e:
		return Violation{}, false
	case Engine(from) != "":
		return bad(EngineToEngine)
	case isCmd(from):
		return bad(CmdToEngine)
	case pipeline[from], from == Module+"/internal/engines":
		return Violation{}, false
	}
	return bad(LibraryToEngine)
}
