package site

import (
	"errors"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
)

// URL gives the base path unless BasePath disagrees; the base path gets
// one leading slash and no trailing one; plain http is for loopback or
// development; a URL with a query, user or no host, and a base path that
// is the root or holds ?, #, \ or a space, are refused.
func TestCheckURL(t *testing.T) {
	for _, c := range []struct {
		url, base string
		dev       bool
		origin    string
		path      string
		field     string
	}{
		{"", "", false, "", "/auth", ""},
		{"", "api/auth/", false, "", "/api/auth", ""},
		{"https://app.test/api/auth/", "", false, "https://app.test", "/api/auth", ""},
		{"https://app.test", "/login", false, "https://app.test", "/login", ""},
		{"https://app.test/a", "/a", false, "https://app.test", "/a", ""},
		{"https://app.test/a", "/b", false, "", "", "BasePath"},
		{"http://localhost:3000/auth", "", false, "http://localhost:3000", "/auth", ""},
		{"http://app.test/auth", "", false, "", "", "URL"},
		{"http://app.test/auth", "", true, "http://app.test", "/auth", ""},
		{"https://app.test/auth?x=1", "", false, "", "", "URL"},
		{"https://u@app.test/", "", false, "", "", "URL"},
		{"/auth", "", false, "", "", "URL"},
		{"", "/", false, "", "", "BasePath"},
		{"", "/a b", false, "", "", "BasePath"},
	} {
		origin, path, err := CheckURL(c.url, c.base, c.dev)
		var ce *autherr.ConfigError
		if c.field != "" {
			if !errors.As(err, &ce) || ce.Field != c.field {
				t.Errorf("CheckURL(%q, %q) = %v, want an error on %s", c.url, c.base, err, c.field)
			}
			continue
		}
		if err != nil || origin != c.origin || path != c.path {
			t.Errorf("CheckURL(%q, %q) = %q, %q, %v; want %q, %q", c.url, c.base, origin, path, err, c.origin, c.path)
		}
	}
}
