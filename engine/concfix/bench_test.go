package concfix_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"boolprog/engine"
	"boolprog/engine/concfix"
	"boolprog/result"
)

// BenchmarkBluetooth runs conc-fix on the four Bluetooth models at 6
// context switches (the Getafix paper's Fig. 3): 1+1 safe, 1+2 error at
// 3, 2+1 at 4, 2+2 at 3. Run with -benchtime 3x: one run takes seconds.
func BenchmarkBluetooth(b *testing.B) {
	for _, c := range []struct {
		config string
		first  int // -1: safe
	}{{"1_1", -1}, {"1_2", 3}, {"2_1", 4}, {"2_2", 3}} {
		b.Run(c.config, func(b *testing.B) {
			path := filepath.Join("../../examples/bluetooth", "bluetooth_"+c.config+".bp")
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			p := lowerGetafix(b, path, src)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res := engine.Run(context.Background(), concfix.New(), p, engine.Query{Bound: cs(6)})
				want := result.Unsafe
				if c.first < 0 {
					want = result.Safe
				}
				if res.Verdict != want || (c.first >= 0 && res.Bound != cs(c.first)) {
					b.Fatalf("%s: %s at %s (%s)", c.config, res.Verdict, res.Bound, res.Reason)
				}
			}
		})
	}
}
