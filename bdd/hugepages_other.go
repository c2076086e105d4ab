//go:build !linux

package bdd

// makeTable returns make([]T, n): the advice to use huge pages
// (hugepages_linux.go) is Linux's.
func makeTable[T any](n int) []T { return make([]T, n) }
