package main

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// rows returns the table rows of providers' output by id: the fields of
// each line after the header, up to the blank line.
func rows(t *testing.T, out string) map[string][]string {
	t.Helper()
	table, _, _ := strings.Cut(out, "\n\n")
	lines := strings.Split(table, "\n")
	if len(lines) < 2 || !regexp.MustCompile(`^ID +TYPE +ENVIRONMENT +CALLBACK URL$`).MatchString(lines[0]) {
		t.Fatalf("no table header in:\n%s", out)
	}
	m := make(map[string][]string)
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if _, dup := m[f[0]]; dup {
			t.Errorf("%s is listed twice", f[0])
		}
		m[f[0]] = f[1:]
	}
	return m
}

func TestProvidersList(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "providers")
	r.want(t, exitOK)
	got := rows(t, r.stdout)
	if len(got) != len(builtin.IDs()) {
		t.Errorf("%d providers listed, want the registry's %d", len(got), len(builtin.IDs()))
	}
	for id, want := range map[string]string{
		// Fixed endpoints: no issuer.
		"github": "oauth AUTH_GITHUB_ID AUTH_GITHUB_SECRET http://localhost:3000/auth/callback/github",
		// A default issuer: none to give.
		"google": "oidc AUTH_GOOGLE_ID AUTH_GOOGLE_SECRET http://localhost:3000/auth/callback/google",
		// Self-hosted: the issuer is required.
		"keycloak":           "oidc AUTH_KEYCLOAK_ID AUTH_KEYCLOAK_SECRET AUTH_KEYCLOAK_ISSUER http://localhost:3000/auth/callback/keycloak",
		"microsoft-entra-id": "oidc AUTH_MICROSOFT_ENTRA_ID_ID AUTH_MICROSOFT_ENTRA_ID_SECRET http://localhost:3000/auth/callback/microsoft-entra-id",
		"mattermost":         "oauth AUTH_MATTERMOST_ID AUTH_MATTERMOST_SECRET AUTH_MATTERMOST_ISSUER http://localhost:3000/auth/callback/mattermost",
		// E-mail API: its key, and nothing to register.
		"resend": "email AUTH_RESEND_KEY -",
		// Set up in code.
		"nodemailer":  "email - (set in code) -",
		"credentials": "credentials - (set in code) -",
	} {
		if line := strings.Join(got[id], " "); line != want {
			t.Errorf("%s: %q, want %q", id, line, want)
		}
	}
}

// TestProvidersCallbackURL checks the callback URLs against those the
// library itself computes for the same settings.
func TestProvidersCallbackURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"AUTH_URL with a path", map[string]string{"AUTH_URL": "https://app.example.com/api/auth/"}, nil,
			"https://app.example.com/api/auth/callback/github"},
		{"-url wins over AUTH_URL", map[string]string{"AUTH_URL": "https://old.example.com"}, []string{"-url", "https://new.example.com"},
			"https://new.example.com/auth/callback/github"},
		{"-base", nil, []string{"-url", "https://app.example.com", "-base", "login/"},
			"https://app.example.com/login/callback/github"},
		{"redirect proxy", map[string]string{"AUTH_URL": "https://preview.example.com", "AUTH_REDIRECT_PROXY_URL": "https://auth.example.com/api/auth/"}, nil,
			"https://auth.example.com/api/auth/callback/github"},
	} {
		r := runCLI(t, tc.vars, append(append([]string{"providers"}, tc.args...), "github")...)
		r.want(t, exitOK)
		got := rows(t, r.stdout)
		if len(got) != 1 {
			t.Errorf("%s: %d rows for one id asked", tc.name, len(got))
		}
		if f := got["github"]; len(f) == 0 || f[len(f)-1] != tc.want {
			t.Errorf("%s: github row %q, want callback %s", tc.name, f, tc.want)
		}
	}

	// The library agrees.
	h, err := gatehouse.New(gatehouse.Config{
		Secret:    []string{strings.Repeat("s", 32)},
		URL:       "https://app.example.com/api/auth/",
		Providers: []providers.Provider{mustLookup(t, providers.GitHub)(builtin.Options{ClientID: "id", ClientSecret: "s"})},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Providers(httptest.NewRequest("GET", "/", nil))[0].CallbackURL; got != "https://app.example.com/api/auth/callback/github" {
		t.Errorf("the library's callback URL is %s; the command's test expectation is out of date", got)
	}
}

func TestProvidersUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		vars map[string]string
		args []string
		msg  string
	}{
		{nil, []string{"no-such-provider"}, `"no-such-provider" is not a built-in provider id`},
		{nil, []string{"-url", "ftp://example.com"}, "is not an absolute http(s) URL"},
		{nil, []string{"-url", "https://example.com/x?y=1"}, "without query"},
		{nil, []string{"-url", "https://example.com/api/auth", "-base", "/other"}, "differs from the path"},
		{map[string]string{"AUTH_REDIRECT_PROXY_URL": "/relative"}, nil, "AUTH_REDIRECT_PROXY_URL is not an absolute"},
	} {
		r := runCLI(t, tc.vars, append([]string{"providers"}, tc.args...)...)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, tc.msg) {
			t.Errorf("%q: stderr %q lacks %q", tc.args, r.stderr, tc.msg)
		}
	}
}

func mustLookup(t *testing.T, id providers.OAuthProviderType) builtin.Factory {
	t.Helper()
	f, ok := builtin.Lookup(id)
	if !ok {
		t.Fatalf("builtin.Lookup(%q): no such provider", id)
	}
	return f
}
