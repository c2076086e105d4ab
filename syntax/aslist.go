package syntax

import "errors"

// AsErrorList returns the diagnostics that err carries: the ErrorList it
// is or wraps, or the one *Error it is or wraps as a list of one. For any
// other error it returns ok false, and the caller makes its own diagnostic
// (the command and the Go API word a whole-file error differently).
func AsErrorList(err error) (list ErrorList, ok bool) {
	if errors.As(err, &list) {
		return list, true
	}
	var one *Error
	if errors.As(err, &one) {
		return ErrorList{one}, true
	}
	return nil, false
}
