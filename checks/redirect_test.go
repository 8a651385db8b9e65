package checks

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzSameOrigin: whatever callbackUrl arrives, the result is "" or a URL
// on the app's own origin, never another host (the usual open-redirect vectors).
func FuzzSameOrigin(f *testing.F) {
	const origin = "https://app.example.com"
	for _, s := range []string{"/", "/a?b=c#d", "//evil.com", "/\\evil.com", "/\t/evil.com", "https://app.example.com/x",
		"https://app.example.com.evil.com/", "https://user@app.example.com@evil.com/", "javascript:alert(1)", "/%2F%2Fevil.com",
		"/./\\evil.com", "http://app.example.com/", "https:app.example.com", "/\u2028/evil.com", "%2f%2fevil.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := SafeRedirect(raw, origin)
		if got == "" {
			return
		}
		// A result is its own normal form.
		if again := SafeRedirect(got, origin); again != got {
			t.Fatalf("SafeRedirect(%q) = %q, but sameOrigin of that = %q", raw, got, again)
		}
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "https" || u.Host != "app.example.com" || u.User != nil {
			t.Fatalf("SafeRedirect(%q) = %q: not on the origin", raw, got)
		}
		if rest, ok := strings.CutPrefix(got, origin); !ok || (rest != "" && !strings.ContainsAny(rest[:1], "/?#")) {
			t.Fatalf("SafeRedirect(%q) = %q", raw, got)
		}
	})
}

func TestSameOriginVectors(t *testing.T) {
	const origin = "https://app.example.com"
	for raw, want := range map[string]string{
		"/dashboard?x=1":                   origin + "/dashboard?x=1",
		"https://app.example.com/a":        "https://app.example.com/a",
		"//evil.com":                       "",
		"/\\evil.com":                      "",
		"/%09/evil.com":                    origin + "/%09/evil.com",
		"/\t/evil.com":                     "",
		"https://evil.com":                 "",
		"https://app.example.com.evil.com": "",
		"http://app.example.com/":          "",
		"javascript:alert(1)":              "",
		"https://a@app.example.com/":       "",
		"":                                 "",
	} {
		if got := SafeRedirect(raw, origin); got != want {
			t.Errorf("SafeRedirect(%q) = %q, want %q", raw, got, want)
		}
	}
}

// The fast paths of sameOriginURL answer what parsing answers: every
// string of up to four characters of an alphabet of URL troublemakers, on
// its own and after the origin.
func TestSameOriginFastPath(t *testing.T) {
	const origin = "https://app.example.com"
	alphabet := []string{"/", ".", "a", "Z", "~", "-", "%", "?", "#", ":", "@", "\\", " ", "é"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		for _, raw := range []string{prefix, origin + prefix, "https://app.example.com.evil" + prefix, "https://app.example.com:1" + prefix} {
			slow := ""
			if raw != "" && !strings.ContainsAny(raw, " \\\t") {
				slow = parsedSameOriginURL(raw, origin)
			}
			if got := sameOriginURL(raw, origin); got != slow {
				t.Fatalf("sameOriginURL(%q) = %q, parsing gives %q", raw, got, slow)
			}
		}
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, n-1)
		}
	}
	gen("", 4)
}
