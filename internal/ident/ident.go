// Package ident checks the short lower-case identifiers Gatehouse keeps:
// the parts of a permission statement, role names, organization slugs
// and API key prefixes.
package ident

import "strings"

// Valid reports whether s is 1 to max bytes, each a lower-case ASCII
// letter, an ASCII digit or a byte of extra. Nothing else passes: no
// upper case, no other letters, no separators a template or a log could
// read differently.
func Valid(s string, max int, extra string) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}
