package gen

import "testing"

// TestCounter: the counter's text, whole, for one and two bits.
func TestCounter(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "decl b0;\n\nvoid main()\nbegin\n  b0 := F;\n  while (T) do\n    if (b0) then\n      SLIC_ERROR: skip;\n    fi\n    b0 := (b0 & !(T)) | (!b0 & (T));\n  od\nend\n"},
		{2, "decl b0, b1;\n\nvoid main()\nbegin\n  b0, b1 := F, F;\n  while (T) do\n    if (b0 & b1) then\n      SLIC_ERROR: skip;\n    fi\n    b0, b1 := (b0 & !(T)) | (!b0 & (T)), (b1 & !(b0)) | (!b1 & (b0));\n  od\nend\n"},
	} {
		if got := Counter(c.n); got != c.want {
			t.Errorf("Counter(%d) =\n%s\nwant\n%s", c.n, got, c.want)
		}
	}
}
