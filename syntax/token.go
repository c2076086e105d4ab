package syntax

// token is the kind of a lexical token.
type token int

const (
	tEOF token = iota
	tIdent
	tNumber

	// punctuation
	tLparen    // (
	tRparen    // )
	tLbrack    // [
	tRbrack    // ]
	tComma     // ,
	tSemi      // ;
	tColon     // :
	tAssign    // :=
	tLess      // <
	tGreater   // >
	tTick      // '
	tNot       // ! or ~
	tAnd       // & or &&
	tOr        // | or ||
	tXor       // ^
	tEq        // =
	tNeq       // !=
	tImplies   // =>
	tStar      // * or ?
	tIllegal   // a byte that starts no token
	tBackslash // \old, \result, ...: a keyword of formulas (see ParseExpr)
	tKeywords  // marker: keywords follow

	kwDecl
	kwVoid
	kwBool
	kwBegin
	kwEnd
	kwIf
	kwThen
	kwElsif
	kwElse
	kwFi
	kwWhile
	kwDo
	kwOd
	kwSkip
	kwGoto
	kwReturn
	kwAssert
	kwAssume
	kwPrint
	kwEnforce
	kwAbortif
	kwDead
	kwConstrain
	kwSchoose
	kwCall
	kwStartThread
	kwEndThread
	kwAtomicBegin
	kwAtomicEnd
	kwDfs
)

var tokenText = map[token]string{
	tEOF: "end of file", tIdent: "identifier", tNumber: "number",
	tLparen: "(", tRparen: ")", tLbrack: "[", tRbrack: "]", tComma: ",",
	tSemi: ";", tColon: ":", tAssign: ":=", tLess: "<", tGreater: ">",
	tTick: "'", tNot: "!", tAnd: "&", tOr: "|", tXor: "^", tEq: "=",
	tNeq: "!=", tImplies: "=>", tStar: "*", tIllegal: "illegal character",
	tBackslash: "backslash keyword",
}

// keywords maps reserved words to their tokens. `T`, `F` and `_` are not
// reserved: they are identifiers the parser gives a meaning to.
var keywords = map[string]token{
	"decl": kwDecl, "void": kwVoid, "bool": kwBool, "begin": kwBegin,
	"end": kwEnd, "if": kwIf, "then": kwThen, "elsif": kwElsif,
	"else": kwElse, "fi": kwFi, "while": kwWhile, "do": kwDo, "od": kwOd,
	"skip": kwSkip, "goto": kwGoto, "return": kwReturn, "assert": kwAssert,
	"assume": kwAssume, "print": kwPrint, "enforce": kwEnforce,
	"abortif": kwAbortif, "dead": kwDead, "constrain": kwConstrain,
	"schoose": kwSchoose, "call": kwCall, "start_thread": kwStartThread,
	"end_thread": kwEndThread, "atomic_begin": kwAtomicBegin,
	"atomic_end": kwAtomicEnd, "dfs": kwDfs,
}

func init() {
	for s, t := range keywords {
		tokenText[t] = s
	}
}

func (t token) String() string {
	if s, ok := tokenText[t]; ok {
		return s
	}
	return "token"
}
