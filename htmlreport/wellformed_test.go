package htmlreport

import (
	"fmt"
	"regexp"
	"strings"
)

// voidElements are the HTML elements without an end tag.
var voidElements = map[string]bool{"meta": true, "input": true, "br": true, "hr": true, "img": true, "link": true}

var (
	nameRE   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*`)
	attrRE   = regexp.MustCompile(`^\s+([a-zA-Z_:][a-zA-Z0-9_:.-]*)(="([^"]*)")?`)
	entityRE = regexp.MustCompile(`^&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);`)
)

// wellFormed checks the page as a small HTML tokenizer does: every element
// closed in order (void elements excepted, SVG's self-closing ones
// allowed), attribute values quoted, and no raw '<' or stray '&' in text or
// attribute values, which is what escaping user text guarantees. The
// contents of script and style are raw text, ending at their end tag.
func wellFormed(page string) error {
	var stack []string
	line := func(i int) int { return strings.Count(page[:i], "\n") + 1 }
	checkText := func(s string, at int) error {
		for j := 0; j < len(s); j++ {
			switch s[j] {
			case '<':
				return fmt.Errorf("line %d: raw '<' in text", line(at+j))
			case '>':
				// Allowed by HTML in text, but our escaper never leaves one.
				return fmt.Errorf("line %d: raw '>' in text", line(at+j))
			case '&':
				if !entityRE.MatchString(s[j:]) {
					return fmt.Errorf("line %d: '&' that starts no entity: %q", line(at+j), s[j:min(len(s), j+12)])
				}
			}
		}
		return nil
	}
	i := 0
	for i < len(page) {
		lt := strings.IndexByte(page[i:], '<')
		if lt < 0 {
			if err := checkText(page[i:], i); err != nil {
				return err
			}
			break
		}
		if err := checkText(page[i:i+lt], i); err != nil {
			return err
		}
		i += lt
		rest := page[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest, "-->")
			if end < 0 {
				return fmt.Errorf("line %d: comment not closed", line(i))
			}
			i += end + 3
		case strings.HasPrefix(rest, "<!DOCTYPE"):
			end := strings.IndexByte(rest, '>')
			i += end + 1
		case strings.HasPrefix(rest, "</"):
			name := nameRE.FindString(rest[2:])
			if name == "" || !strings.HasPrefix(rest[2+len(name):], ">") {
				return fmt.Errorf("line %d: bad end tag", line(i))
			}
			if len(stack) == 0 || stack[len(stack)-1] != name {
				return fmt.Errorf("line %d: </%s> closes %v", line(i), name, stack)
			}
			stack = stack[:len(stack)-1]
			i += 2 + len(name) + 1
		default:
			name := nameRE.FindString(rest[1:])
			if name == "" {
				return fmt.Errorf("line %d: '<' that starts no tag", line(i))
			}
			j := 1 + len(name)
			for {
				m := attrRE.FindStringSubmatchIndex(rest[j:])
				if m == nil {
					break
				}
				if m[6] >= 0 {
					if err := checkText(rest[j+m[6]:j+m[7]], i+j+m[6]); err != nil {
						return fmt.Errorf("in an attribute: %v", err)
					}
				}
				j += m[1]
			}
			switch {
			case strings.HasPrefix(rest[j:], "/>"):
				i += j + 2
				continue
			case strings.HasPrefix(rest[j:], ">"):
				i += j + 1
			default:
				return fmt.Errorf("line %d: bad tag <%s: %q", line(i), name, rest[j:min(len(rest), j+20)])
			}
			if voidElements[name] {
				continue
			}
			if name == "script" || name == "style" {
				end := strings.Index(page[i:], "</"+name+">")
				if end < 0 {
					return fmt.Errorf("line %d: <%s> not closed", line(i), name)
				}
				if strings.Contains(strings.ToLower(page[i:i+end]), "<!--") {
					return fmt.Errorf("line %d: '<!--' inside <%s>", line(i), name)
				}
				i += end + len("</"+name+">")
				continue
			}
			stack = append(stack, name)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("elements not closed: %v", stack)
	}
	return nil
}
