package concfix_test

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"boolprog/engine/concfix"
	"boolprog/internal/peers/peerstest"
	"boolprog/result"
)

// TestModelMucke has Mucke (../shared/peers/bin/mucke, skipped where
// missing) evaluate the models boolprog mucke --emit conc writes: it must
// read them and give our solver's value.
func TestModelMucke(t *testing.T) {
	var models []peerstest.Model
	for _, c := range []struct {
		file string
		b    result.Bound
	}{
		{"../../cmd/boolprog/testdata/getafix.bp", cs(0)},
		{"../../cmd/boolprog/testdata/getafix.bp", cs(1)},
		{"../../cmd/boolprog/testdata/getafix.bp", rounds(1)},
		{"../../../shared/benchmarks/getafix/testFunctionCall.bp", cs(1)},
		{"../../../shared/benchmarks/getafix/testGetafix.bp", cs(2)},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		p := lowerGetafix(t, c.file, src)
		var b bytes.Buffer
		if err := concfix.WriteModel(&b, p, c.b); err != nil {
			t.Fatal(err)
		}
		models = append(models, peerstest.Model{Name: fmt.Sprintf("%s at %s", c.file, c.b), Text: b.Bytes()})
	}
	peerstest.CompareMucke(t, models)
}
