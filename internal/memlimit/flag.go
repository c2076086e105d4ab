package memlimit

// Flag is the value of a command's --memory flag (a flag.Value): the
// process's memory limit, applied once before any engine runs.
type Flag struct {
	limit Limit
	given bool
}

// String is the limit given, or "" without one.
func (f *Flag) String() string {
	if !f.given {
		return ""
	}
	return f.limit.String()
}

// Set reads the limit (ParseSize).
func (f *Flag) Set(v string) error {
	n, err := ParseSize(v)
	if err != nil {
		return err
	}
	f.limit, f.given = Limit{Bytes: n, Source: "--memory"}, true
	return nil
}

// Given says the flag was set.
func (f *Flag) Given() bool { return f.given }

// Apply makes the flag's limit, or without the flag the one the machine
// and the process's limits give (Detect), the process's memory limit.
func (f *Flag) Apply() {
	l := f.limit
	if !f.given {
		l = Detect()
	}
	Apply(l)
}
