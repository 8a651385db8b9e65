package main

import (
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// rows returns the table rows of providers' output by id: the fields of
// each line after the header, up to the blank line, the name left out
// (it may have spaces).
func rows(t *testing.T, out string) map[string][]string {
	t.Helper()
	table, _, _ := strings.Cut(out, "\n\n")
	lines := strings.Split(table, "\n")
	header := regexp.MustCompile(`^ID +NAME +TYPE +VARIABLES \(AUTH_<ID>_\.\.\.\)$`)
	if len(lines) < 2 || !header.MatchString(lines[0]) {
		t.Fatalf("no table header in:\n%s", out)
	}
	typeAt := strings.Index(lines[0], "TYPE")
	m := make(map[string][]string)
	for _, l := range lines[1:] {
		id := strings.Fields(l)[0]
		if _, dup := m[id]; dup {
			t.Errorf("%s is listed twice", id)
		}
		m[id] = strings.Fields(l[typeAt:])
	}
	return m
}

// detail returns the fields of `providers <id>` for id.
func detail(t *testing.T, out, id string) map[string]string {
	t.Helper()
	_, block, ok := strings.Cut("\n"+out, "\n"+id+"\n")
	if !ok {
		t.Fatalf("no block for %s in:\n%s", id, out)
	}
	block, _, _ = strings.Cut(block, "\n\n")
	m := make(map[string]string)
	for _, l := range strings.Split(block, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(l), ":")
		m[k] = strings.TrimSpace(v)
	}
	return m
}

func TestProvidersList(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "providers")
	r.want(t, exitOK, "Callback URL to register (oauth, oidc): http://localhost:3000/auth/callback/<id>")
	got := rows(t, r.stdout)
	if len(got) != len(builtin.IDs()) {
		t.Errorf("%d providers listed, want the registry's %d", len(got), len(builtin.IDs()))
	}
	for id, want := range map[string]string{
		// Fixed endpoints: no issuer.
		"github": "oauth ID SECRET",
		// A default issuer: none to give.
		"google": "oidc ID SECRET",
		// Self-hosted: the issuer is required.
		"keycloak":           "oidc ID SECRET ISSUER",
		"microsoft-entra-id": "oidc ID SECRET",
		"mattermost":         "oauth ID SECRET ISSUER",
		// E-mail API: its key.
		"resend": "email KEY",
		// Set up in code.
		"nodemailer":  "email - (set in code)",
		"credentials": "credentials - (set in code)",
	} {
		if line := strings.Join(got[id], " "); line != want {
			t.Errorf("%s: %q, want %q", id, line, want)
		}
	}
	for i, l := range strings.Split(r.stdout, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d columns wide, more than 100: %q", i+1, n, l)
		}
	}
}

// TestProvidersDetail checks that `providers <id>` gives in full what
// the table abbreviates.
func TestProvidersDetail(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "providers", "keycloak", "resend", "credentials", "microsoft-entra-id")
	r.want(t, exitOK)
	for id, want := range map[string]map[string]string{
		"keycloak": {"name": "Keycloak", "type": "oidc",
			"variables":    "AUTH_KEYCLOAK_ID AUTH_KEYCLOAK_SECRET AUTH_KEYCLOAK_ISSUER",
			"callback URL": "http://localhost:3000/auth/callback/keycloak"},
		"microsoft-entra-id": {"type": "oidc",
			"variables":    "AUTH_MICROSOFT_ENTRA_ID_ID AUTH_MICROSOFT_ENTRA_ID_SECRET",
			"callback URL": "http://localhost:3000/auth/callback/microsoft-entra-id"},
		"resend":      {"type": "email", "variables": "AUTH_RESEND_KEY", "callback URL": "- (nothing to register)"},
		"credentials": {"type": "credentials", "variables": "- (set in code)", "callback URL": "- (nothing to register)"},
	} {
		got := detail(t, r.stdout, id)
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s %s: %q, want %q", id, k, got[k], v)
			}
		}
	}
}

// TestProvidersSuggests checks that a mistyped id is answered with the
// ids it may have meant.
func TestProvidersSuggests(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"githib":    "did you mean github, gitlab?",
		"GitHub":    "did you mean github?",
		"microsoft": "did you mean microsoft-entra-id?",
		"azure":     "did you mean azure-ad, azure-ad-b2c, azure-devops?",
		"keycloack": "did you mean keycloak?",
	} {
		r := runCLI(t, nil, "providers", name)
		r.want(t, exitUsage)
		if !strings.Contains(r.stderr, fmt.Sprintf("%q is not a built-in provider id; %s", name, want)) {
			t.Errorf("%s: stderr %q, want %q", name, r.stderr, want)
		}
	}
	r := runCLI(t, nil, "providers", "nosuch")
	if r.code != exitUsage || strings.Contains(r.stderr, "did you mean") {
		t.Errorf("nosuch: exit %d, %q: want a usage error with no suggestion", r.code, r.stderr)
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
		if got := detail(t, r.stdout, "github")["callback URL"]; got != tc.want {
			t.Errorf("%s: github callback %q, want %s", tc.name, got, tc.want)
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

func mustLookup(t *testing.T, id providers.BuiltinID) builtin.Factory {
	t.Helper()
	f, ok := builtin.Lookup(id)
	if !ok {
		t.Fatalf("builtin.Lookup(%q): no such provider", id)
	}
	return f
}
