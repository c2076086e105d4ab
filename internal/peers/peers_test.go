package peers

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		out       string
		value, ok bool
		complaint string
	}{
		{": value of\n:   exists bool x. x\n: is\n:   true\n", true, true, ""},
		{": is\n:   true\n: value of\n:   false\n: is\n:   false\n", false, true, ""},
		{"*** c.mu:1: syntax error before `<'\n", false, false, "*** c.mu:1: syntax error before `<'"},
		{"*** undefined function `New1' at line 3\n: is\n:   true\n", true, true, "*** undefined function `New1' at line 3"},
		{"banner only\n", false, false, ""},
	}
	for _, tt := range tests {
		v, ok, c := parse([]byte(tt.out))
		if v != tt.value || ok != tt.ok || c != tt.complaint {
			t.Errorf("parse(%q) = %v, %v, %q; want %v, %v, %q", tt.out, v, ok, c, tt.value, tt.ok, tt.complaint)
		}
	}
}
