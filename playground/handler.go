package playground

import (
	"net/http"
	"strings"
)

// Handler serves a built site from dir. It gives .wasm files their MIME
// type (WebAssembly.instantiateStreaming refuses others) and asks browsers
// to revalidate, so that a rebuilt checker is never mixed with an old page.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
