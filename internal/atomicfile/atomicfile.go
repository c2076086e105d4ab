// Package atomicfile replaces a file's contents without a window in which
// the file is truncated (`boolprog fmt -w`): the new contents go to a
// temporary file beside it, which is then renamed over it, so a crash
// mid-write leaves the old file.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Replace replaces the contents of the existing file path with data,
// keeping its permissions.
func Replace(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".boolprog-fmt-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
