package address

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	good := map[string]string{
		"alice@example.com":         "alice@example.com",
		"  Alice@Example.COM\t":     "alice@example.com",
		"a.b+tag@sub.example.co.uk": "a.b+tag@sub.example.co.uk",
		"ｂｏｂ@example.com":           "bob@example.com", // full-width letters: NFKC
		"josé@exämple.de":           "josé@exämple.de",
		"o'brien@example.ie":        "o'brien@example.ie",
	}
	for in, want := range good {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"", "   ", "alice", "@example.com", "alice@", "alice@localhost",
		"alice@example.com,mallory@evil.com",   // a list (CVE-2022-35924)
		"alice@example.com\uff20evil.com",      // full-width @ becomes a second @ (GHSA-7rqj-j65f-68wh)
		"alice@example.com\ufe6bevil.com",      // small commercial at
		"\"alice@example.com\"@evil.com",       // quoted local part
		"Alice <alice@example.com>",            // display name
		"alice@example.com (comment)",          // comment
		"alice@example.com\r\nBcc: m@evil.com", // header injection
		"alice@exa mple.com", "al ice@example.com",
		".alice@example.com", "alice.@example.com", "al..ice@example.com",
		"alice@-example.com", "alice@example..com", "alice@example.com.",
		"alice@[127.0.0.1]",
		strings.Repeat("a", 65) + "@example.com",
		"alice@" + strings.Repeat("a", 250) + ".com",
		"alice\x00@example.com",
	}
	for _, in := range bad {
		if got, err := Normalize(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("Normalize(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"alice@example.com", "a\uff20b@c.d", "x,y@z.w", "\"q\"@e.f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Normalize(in)
		if err != nil {
			return
		}
		// What passes is one plain address, stable under normalisation.
		if strings.Count(out, "@") != 1 || strings.ContainsAny(out, " ,;<>\"\r\n") {
			t.Fatalf("Normalize(%q) = %q", in, out)
		}
		if again, err := Normalize(out); err != nil || again != out {
			t.Fatalf("Normalize is not idempotent on %q: %q, %v", out, again, err)
		}
	})
}
