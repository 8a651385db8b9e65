package site

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

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

func TestStripperPath(t *testing.T) {
	s := NewStripper("/my auth")
	for _, c := range []struct{ target, want string }{
		{"/my%20auth/session", "/session"},                   // the whole path (ServeMux, chi Mount)
		{"/my%20auth", "/"},                                  // the base path itself
		{"/session", "/session"},                             // stripped already (http.StripPrefix)
		{"/my%20authority/session", "/my authority/session"}, // not the base path: a prefix of a segment
		{"/my%20auth/signin/a%2Fb", "/signin/a%2Fb"},         // escaped: RawPath compared with the escaped base
		{"/signin/a%2Fb", "/signin/a%2Fb"},
	} {
		r := httptest.NewRequest(http.MethodGet, c.target, nil)
		if got := s.Path(r); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.target, got, c.want)
		}
	}
	r := httptest.NewRequest(http.MethodGet, "/x", nil)
	r.URL.Path = "" // a request whose path a proxy emptied
	if got := s.Path(r); got != "/" {
		t.Errorf("Path(empty) = %q, want /", got)
	}
}
