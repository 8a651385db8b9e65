package site

import "testing"

// A base path clashes with a route it is or starts with, a wildcard
// matching any segment but the first, which matches only what leading
// accepts; a longer base path or a different segment does not clash.
func TestBasePathClash(t *testing.T) {
	patterns := []string{"/session", "/signin/{provider}", "/{provider}/reset"}
	leading := func(seg string) bool { return seg == "accounts" }
	for base, want := range map[string]string{
		"/auth":            "",
		"/session":         "/session",
		"/signin":          "/signin/{provider}",
		"/signin/github":   "/signin/{provider}",
		"/signin/github/x": "",
		"/accounts":        "/{provider}/reset",
		"/accounts/reset":  "/{provider}/reset",
		"/accounts/other":  "",
		"/github/reset":    "",
		"/sessions":        "",
	} {
		if got := BasePathClash(base, patterns, leading); got != want {
			t.Errorf("BasePathClash(%q) = %q, want %q", base, got, want)
		}
	}
}
