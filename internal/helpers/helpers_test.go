package helpers

import (
	"errors"
	"html/template"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// form writes what the helper gave it, to be read back.
type form struct{ plugin.Flow }

func (form) Form(path string, o pages.HelperForm) template.HTML {
	return template.HTML(path + "|" + o.CSRF + "|" + o.Callback + "|" + o.Label)
}

// The helpers carry the request's token, page and options into the forms,
// keep callbackUrl same-origin, read the token when they run, and refuse
// to render a form without a token or for an unknown provider.
func TestMap(t *testing.T) {
	s := &site.Site{Resolver: &site.Resolver{Path: "/auth"}}
	flows := map[string]plugin.Flow{"github": form{}}
	r := httptest.NewRequest("GET", "http://app.test/page?x=1", nil)
	csrf := ""
	m := Map(s, "/auth", flows, r, &csrf)
	signIn := m["signIn"].(func(string, ...string) (template.HTML, error))
	if _, err := signIn("github"); !errors.Is(err, ErrNoCSRFToken) {
		t.Fatalf("signIn without a token: err = %v, want ErrNoCSRFToken", err)
	}
	csrf = "tok" // read when the helper runs
	got, err := signIn("github", "label", "Go", "callbackUrl", "https://evil.test/")
	if err != nil || got != "/auth|tok|http://app.test/|Go" {
		t.Fatalf("signIn = %q, %v", got, err)
	}
	if got, err := signIn("github"); err != nil || got != "/auth|tok|/page?x=1|" {
		t.Fatalf("signIn = %q, %v; want the current page as callbackUrl", got, err)
	}
	if _, err := signIn("gitlab"); err == nil {
		t.Fatal("signIn of an unknown provider rendered")
	}
	if _, err := signIn("github", "colour", "red"); err == nil {
		t.Fatal("an unknown option was accepted")
	}
	out, err := m["signOut"].(func(...string) (template.HTML, error))()
	if err != nil || !strings.Contains(string(out), `action="/auth/signout"`) || !strings.Contains(string(out), "tok") {
		t.Fatalf("signOut = %q, %v", out, err)
	}
	if tok, err := m["csrfToken"].(func() (string, error))(); tok != "tok" || err != nil {
		t.Fatalf("csrfToken = %q, %v", tok, err)
	}
	// Parsing time: no request, no token, no error.
	empty := ""
	if _, err := Map(s, "/auth", flows, nil, &empty)["csrfToken"].(func() (string, error))(); err != nil {
		t.Fatalf("csrfToken without a request: %v", err)
	}
}
