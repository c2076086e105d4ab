package bdd

type block struct{ first, n int }

func (m *Manager) reorderWith(a, b, c Node) {}
