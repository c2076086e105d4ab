package syntax

// Reserved reports whether name, written without braces, would not read
// back as an identifier of that name: a keyword (`if`, `decl`, ...) or one
// of the constants `T` and `F`. Printers of programs built from names
// (package ir's) brace such a name (`{if}`), as they brace one that is not
// a C-style identifier.
func Reserved(name string) bool {
	_, kw := keywords[name]
	return kw || name == "T" || name == "F"
}
