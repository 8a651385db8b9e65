package pages

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// FuzzValidColor: whatever the input, an accepted colour's canonical form
// is only '#', hex digits or letters, so it cannot end a CSS rule or the
// <style> element it is written into.
func FuzzValidColor(f *testing.F) {
	for _, s := range []string{"#fff", "#24292F80", "red", "red;}</style>", "#ggg", " navy ", "transparent"} {
		f.Add(s)
	}
	safe := regexp.MustCompile(`^(#[0-9a-f]{3,8}|[a-z]+)$`)
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := cssColor(s)
		if ok != ValidColor(s) {
			t.Fatalf("cssColor and ValidColor disagree on %q", s)
		}
		if ok && !safe.MatchString(c) {
			t.Fatalf("accepted %q as %q", s, c)
		}
	})
}

// FuzzImageSource: an accepted logo's CSP origin is one plain
// scheme://host[:port] token, and a non-data URL has no character that
// could leave its attribute.
func FuzzImageSource(f *testing.F) {
	for _, s := range []string{"/logo.svg", "https://cdn.example.com/a.png", "javascript:alert(1)", "//x", "data:image/png;base64,AA=="} {
		f.Add(s)
	}
	origin := regexp.MustCompile(`^https?://[a-z0-9.-]+(:[0-9]+)?$`)
	f.Fuzz(func(t *testing.T, s string) {
		src, o, ok := imageSource(s)
		if !ok {
			return
		}
		if o != "" && !origin.MatchString(o) {
			t.Fatalf("imageSource(%q): origin %q", s, o)
		}
		lower := strings.ToLower(string(src))
		if strings.HasPrefix(lower, "data:") {
			if !strings.HasPrefix(lower, "data:image/") {
				t.Fatalf("imageSource(%q) accepted a non-image data URL", s)
			}
			return
		}
		if strings.ContainsAny(string(src), "\"'<> \t\r\n\\`") {
			t.Fatalf("imageSource(%q) = %q", s, src)
		}
		if u, err := url.Parse(string(src)); err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("imageSource(%q) accepted scheme of %q", s, src)
		}
	})
}
