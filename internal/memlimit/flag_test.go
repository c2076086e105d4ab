package memlimit

import "testing"

// TestFlag: a value given is read as ParseSize reads it and named by the
// flag; a bad one is refused; without one the flag is not given.
func TestFlag(t *testing.T) {
	var f Flag
	if f.Given() || f.String() != "" {
		t.Errorf("zero Flag: given %v, %q", f.Given(), f.String())
	}
	if err := f.Set("1.5G"); err != nil {
		t.Fatal(err)
	}
	if !f.Given() || f.limit.Bytes != 3<<29 || f.limit.Source != "--memory" {
		t.Errorf("1.5G: %+v", f)
	}
	if err := new(Flag).Set("lots"); err == nil {
		t.Error("lots accepted")
	}
}
