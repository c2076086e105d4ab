package labels

import (
	"strings"
	"testing"
)

func TestClosestFirst(t *testing.T) {
	tests := []struct {
		name   string
		labels []string
		want   string
	}{
		{"reach", []string{"START", "Reach", "reach2", "each"}, "Reach,each,reach2,START"},
		{"L1", []string{"L10", "L2", "L1x", "A"}, "L10,L1x,L2,A"},
		{"", []string{"b", "a"}, "a,b"},
	}
	for _, tt := range tests {
		if got := strings.Join(closestFirst(tt.name, tt.labels), ","); got != tt.want {
			t.Errorf("closestFirst(%q, %v) = %s, want %s", tt.name, tt.labels, got, tt.want)
		}
	}
}
