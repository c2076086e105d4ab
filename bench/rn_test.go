package bench

// Benchmarks of the renaming loop of boolprog/bdd alone.

import "testing"

func BenchmarkRename10(b *testing.B)    { RenameOurs(10, b.N, false) }
func BenchmarkRename10000(b *testing.B) { RenameOurs(10000, b.N, false) }
