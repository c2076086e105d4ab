package engine

import (
	"os"
	"sync"
)

// FileFlag is a flag.Value naming a file that is read when the flag is
// set, not when the engine is built. Each build sets its flags anew on a
// fresh flag set (Info.Configure: the CLI builds one engine to validate
// its flags and one per file checked), and a file given as a pipe
// (/dev/stdin, <(cmd), a FIFO) gives its content only once (a FIFO's
// second open even waits for a writer for ever): such a file, one that is
// not a regular file, is read once per process and its content reused. Set never fails: a file that cannot be read is kept in Err for the
// constructor, which decides whether that is a usage error or bad input.
type FileFlag struct {
	// Value is the flag's value: the file's name, or a builtin name.
	Value string
	// Builtin, if not nil, reports the values that name no file (a named
	// configuration): Set does not read them.
	Builtin func(value string) bool
	// Data is the file's content and Err the error of reading it (both
	// zero for a builtin value or an unset flag).
	Data []byte
	Err  error
	read bool
}

// String returns the flag's value.
func (f *FileFlag) String() string {
	if f == nil {
		return ""
	}
	return f.Value
}

// Set records the value and, unless it is builtin, reads the file.
func (f *FileFlag) Set(value string) error {
	f.Value, f.Data, f.Err, f.read = value, nil, nil, false
	if f.Builtin != nil && f.Builtin(value) {
		return nil
	}
	f.Data, f.Err = readOnce(value)
	f.read = true
	return nil
}

// streams holds what was read from the files that are not regular files
// (pipes, /dev/stdin, <(cmd)), by name: each engine build sets its flags
// anew (Info.Configure), and such a file gives its content only once.
var streams sync.Map // name -> streamRead

type streamRead struct {
	data []byte
	err  error
}

// readOnce reads the file name; a file that is not a regular file is
// read at most once per process, later reads answer what the first got.
func readOnce(name string) ([]byte, error) {
	if info, err := os.Stat(name); err != nil || info.Mode().IsRegular() {
		return os.ReadFile(name)
	}
	if r, ok := streams.Load(name); ok {
		return r.(streamRead).data, r.(streamRead).err
	}
	data, err := os.ReadFile(name)
	r, _ := streams.LoadOrStore(name, streamRead{data, err})
	return r.(streamRead).data, r.(streamRead).err
}

// IsFile reports whether the value names a file: Set read it.
func (f *FileFlag) IsFile() bool { return f.read }
