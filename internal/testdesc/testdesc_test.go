package testdesc

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		want       Desc
		err        bool
	}{
		{"failed with a label", "CORE\nmain.bp\n-l MY_LABEL --por\n^EXIT=10$\n^VERIFICATION FAILED$\n--\n",
			Desc{Level: "CORE", File: "main.bp", Options: []string{"-l", "MY_LABEL", "--por"}, Target: "MY_LABEL", Expect: Failed, Lines: []string{"^EXIT=10$", "^VERIFICATION FAILED$", "--"}}, false},
		{"successful, no options", "CORE\nmain.bp\n\n^VERIFICATION SUCCESSFUL$\n",
			Desc{Level: "CORE", File: "main.bp", Target: "", Expect: Successful, Lines: []string{"^VERIFICATION SUCCESSFUL$"}}, false},
		{"CRLF", "CORE\r\n main.bp \r\n--target L\r\n^VERIFICATION FAILED$\r\n",
			Desc{Level: "CORE", File: "main.bp", Options: []string{"--target", "L"}, Target: "L", Expect: Failed, Lines: []string{"^VERIFICATION FAILED$"}}, false},
		{"the last label and verdict", "CORE\nx.bp\n-l A -l B\n^VERIFICATION FAILED$\n^VERIFICATION SUCCESSFUL$",
			Desc{Level: "CORE", File: "x.bp", Options: []string{"-l", "A", "-l", "B"}, Target: "B", Expect: Successful, Lines: []string{"^VERIFICATION FAILED$", "^VERIFICATION SUCCESSFUL$"}}, false},
		{"no verdict", "CORE\nx.bp\n-l\n", Desc{Level: "CORE", File: "x.bp", Options: []string{"-l"}, Lines: []string{}}, false},
		{"too short", "CORE\nx.bp\n", Desc{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("test.desc", []byte(tt.text))
			if tt.err {
				if err == nil {
					t.Errorf("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Level != tt.want.Level || d.File != tt.want.File || !slices.Equal(d.Options, tt.want.Options) || d.Target != tt.want.Target || d.Expect != tt.want.Expect || !slices.Equal(d.Lines, tt.want.Lines) {
				t.Errorf("Parse = %+v, want %+v", *d, tt.want)
			}
		})
	}
}
