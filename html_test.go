package boolprog_test

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"boolprog"
	"boolprog/htmlreport"
)

// TestWriteHTML checks the HTML page of an unsafe, a safe and an unknown
// result: the verdict, the source, and (unsafe) the trace the page's
// script steps through, which must be the result's trace.
func TestWriteHTML(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		src    string
		opts   boolprog.Options
		banner string
	}{
		{"unsafe", context.Background(), figure1, boolprog.Options{Filename: "fig1.bp", Target: "R"}, "VERIFICATION FAILED"},
		{"safe", context.Background(), figure1, boolprog.Options{Filename: "fig1.bp"}, "VERIFICATION SUCCESSFUL"},
		{"interrupted", cancelled, figure1, boolprog.Options{Filename: "fig1.bp", Timeout: time.Minute}, "VERIFICATION UNKNOWN: interrupted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := boolprog.Check(tt.ctx, []byte(tt.src), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			if err := res.WriteHTML(&page); err != nil {
				t.Fatal(err)
			}
			html := page.String()
			if !strings.HasPrefix(html, "<!DOCTYPE html>") || !strings.Contains(html, tt.banner) {
				t.Errorf("page without %q:\n%.400s", tt.banner, html)
			}
			if res.Verdict != boolprog.Unsafe {
				return
			}
			if !strings.Contains(html, "A(a2, a1);") {
				t.Errorf("page without the source")
			}
			data, err := htmlreport.Extract(page.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if got := data.Decode(); !reflect.DeepEqual(got, res.Trace) {
				t.Errorf("the page's trace differs from the result's:\n%v\n%v", got, res.Trace)
			}
		})
	}
}
