//go:build js && wasm

// Command wasm is the checker compiled to WebAssembly for the playground
// (GOOS=js GOARCH=wasm; built by `go run ./playground/build`). It defines
// two JavaScript functions on the global object of its Web Worker:
//
//	boolprogEngines() string         the engines, as JSON (boolprog.Engines)
//	boolprogCheck(request) Promise   resolves to the response, as JSON
//	boolprogHTML() string            the last result's HTML report ("" if none)
//
// The request and response are package playground's Request and Response.
// A check runs on its own goroutine, as syscall/js requires of a callback
// that may block; it keeps the worker busy until it ends, which is why the
// page runs this module in a worker and stops a check by ending the worker.
package main

import (
	"encoding/json"
	"syscall/js"

	"boolprog"
	"boolprog/playground/protocol"
)

func main() {
	var checker protocol.Checker
	js.Global().Set("boolprogEngines", js.FuncOf(func(js.Value, []js.Value) any {
		b, err := json.Marshal(boolprog.Engines())
		if err != nil {
			return "[]"
		}
		return string(b)
	}))
	js.Global().Set("boolprogCheck", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := ""
		if len(args) > 0 {
			req = args[0].String()
		}
		var resolve js.Value
		promise := js.Global().Get("Promise").New(js.FuncOf(func(_ js.Value, a []js.Value) any {
			resolve = a[0]
			return nil
		}))
		go func() {
			resolve.Invoke(string(checker.Handle([]byte(req))))
		}()
		return promise
	}))
	// Called only between checks (the worker handles one message at a
	// time), so it never runs beside Handle.
	js.Global().Set("boolprogHTML", js.FuncOf(func(js.Value, []js.Value) any {
		return string(checker.HTML())
	}))
	select {} // the functions above serve the worker until it ends
}
