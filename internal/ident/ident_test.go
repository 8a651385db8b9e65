package ident

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, c := range []struct {
		s     string
		max   int
		extra string
		want  bool
	}{
		{"abc-09_z", 8, "-_", true},
		{"abc-09_z", 7, "-_", false}, // too long
		{"", 8, "-_", false},
		{"a_b", 8, "-", false}, // '_' not in extra
		{"a-b", 8, "", false},
		{"ab09", 4, "", true},
		{"Ab", 8, "-_", false},
		{"a b", 8, "-_", false},
		{"a:b", 8, "-_", false},
		{"a*", 8, "-_", false},
		{"é", 8, "-_", false},
		{"a\x00", 8, "-_", false},
		{strings.Repeat("a", 64), 64, "", true},
	} {
		if got := Valid(c.s, c.max, c.extra); got != c.want {
			t.Errorf("Valid(%q, %d, %q) = %v, want %v", c.s, c.max, c.extra, got, c.want)
		}
	}
}
