package builtin

import (
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestRegistry fails when an id is registered twice across the
// generated and hand-written registry lists, when a registered id is not a known OAuth/OIDC
// BuiltinID, or when a factory's provider carries another id.
func TestRegistry(t *testing.T) {
	if err := check(oauthEntries, otherEntries); err != nil {
		t.Fatalf("registry:\n%v", err)
	}
	if n := len(oauthEntries) + len(otherEntries); len(registry) != n || len(IDs()) != n {
		t.Fatalf("registry has %d entries (IDs %d), the registry lists %d", len(registry), len(IDs()), n)
	}
	for _, id := range IDs() {
		if f, ok := Lookup(id); !ok || f == nil {
			t.Errorf("Lookup(%q) = %v, %v", id, f, ok)
		}
	}
	if _, ok := Lookup("no-such-provider"); ok {
		t.Error(`Lookup("no-such-provider") found a factory`)
	}
}

// TestEveryOAuthProviderTypeRegistered fails until every id of
// providers.AllOAuthProviderTypes (but those in notYet) has a factory.
func TestEveryOAuthProviderTypeRegistered(t *testing.T) {
	if m := missing(registry); len(m) > 0 {
		ids := make([]string, len(m))
		for i, id := range m {
			ids[i] = string(id)
		}
		t.Fatalf("%d OAuth/OIDC provider ids have no registry entry: %s", len(m), strings.Join(ids, ", "))
	}
}

func fake(id string) Factory {
	return func(o Options) providers.Provider {
		return providers.OAuthConfig[profile.Claims]{
			ID: id, Name: id, Type: providers.TypeOIDC,
			ClientID: o.ClientID, ClientSecret: o.ClientSecret, Issuer: o.Issuer,
		}
	}
}

func TestCheckFindsProblems(t *testing.T) {
	tests := []struct {
		name  string
		lists [][]Entry
		want  string // "" for no error
	}{
		{"clean", [][]Entry{{{providers.Google, fake("google")}}, {{providers.Okta, fake("okta")}}}, ""},
		{"duplicate across files", [][]Entry{{{providers.Google, fake("google")}}, {{providers.Google, fake("google")}}}, `"google" is registered 2 times`},
		{"duplicate in one file", [][]Entry{{{providers.Okta, fake("okta")}, {providers.Okta, fake("okta")}}}, `"okta" is registered 2 times`},
		{"unknown id", [][]Entry{{{"no-such-idp", fake("no-such-idp")}}}, `"no-such-idp" is not a known BuiltinID`},
		{"e-mail id, OIDC factory", [][]Entry{{{providers.Resend, fake("resend")}}}, `"resend": the factory makes a provider of type "oidc", want ["email"]`},
		{"nil factory", [][]Entry{{{providers.Okta, nil}}}, `"okta" has no factory`},
		{"factory with another id", [][]Entry{{{providers.Okta, fake("auth0")}}}, `the factory's provider has id "auth0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check(tt.lists...)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestBuildFirstEntryWins(t *testing.T) {
	m := build([]Entry{{providers.Okta, fake("okta")}}, []Entry{{providers.Okta, fake("other")}}, nil)
	if len(m) != 1 {
		t.Fatalf("len = %d, want 1", len(m))
	}
	if id := m[providers.Okta](Options{}).ProviderBase().ID; id != "okta" {
		t.Fatalf("okta factory makes %q", id)
	}
}

func TestMissing(t *testing.T) {
	all := make(map[providers.BuiltinID]Factory)
	for _, id := range providers.AllOAuthProviderTypes() {
		if id != providers.Zoom {
			all[id] = fake(string(id))
		}
	}
	got := missing(all)
	if len(got) != 1 || got[0] != providers.Zoom {
		t.Fatalf("missing = %v, want [zoom]", got)
	}
}

func TestFromEnv(t *testing.T) {
	registry := map[providers.BuiltinID]Factory{
		providers.MicrosoftEntraID: fake("microsoft-entra-id"),
		providers.Google:           fake("google"),
		providers.Okta:             fake("okta"),
	}
	env := map[string]string{
		"AUTH_MICROSOFT_ENTRA_ID_ID":     "entra-client",
		"AUTH_MICROSOFT_ENTRA_ID_SECRET": "entra-secret",
		"AUTH_MICROSOFT_ENTRA_ID_ISSUER": "https://login.microsoftonline.com/tenant/v2.0",
		"AUTH_GOOGLE_ID":                 "google-client",
		"AUTH_OKTA_SECRET":               "secret without id",
	}
	got := fromEnv(registry, func(k string) string { return env[k] })
	if len(got) != 2 {
		t.Fatalf("got %d providers, want 2 (google, microsoft-entra-id)", len(got))
	}
	g := got[0].(providers.OAuthProvider).OAuth()
	if g.ID != "google" || g.ClientID != "google-client" || g.ClientSecret != "" || g.Issuer != "" {
		t.Errorf("google = %+v", g)
	}
	e := got[1].(providers.OAuthProvider).OAuth()
	if e.ID != "microsoft-entra-id" || e.ClientID != "entra-client" || e.ClientSecret != "entra-secret" ||
		e.Issuer != "https://login.microsoftonline.com/tenant/v2.0" {
		t.Errorf("entra = %+v", e)
	}
}

func TestOf(t *testing.T) {
	f := of(func(o providers.OAuthUserConfig[profile.Claims]) providers.OAuthConfig[profile.Claims] {
		return providers.Merge(providers.OAuthConfig[profile.Claims]{ID: "okta", Type: providers.TypeOIDC, Issuer: "https://default"}, o)
	})
	o := f(Options{ClientID: "id", ClientSecret: "s", Issuer: "https://mine", RedirectProxyURL: "https://proxy", AllowDangerousEmailAccountLinking: true}).(providers.OAuthProvider).OAuth()
	if o.ClientID != "id" || o.ClientSecret != "s" || o.Issuer != "https://mine" || o.RedirectProxyURL != "https://proxy" || !o.AllowDangerousEmailAccountLinking {
		t.Fatalf("options not applied: %+v", o)
	}
	o = f(Options{}).(providers.OAuthProvider).OAuth()
	if o.Issuer != "https://default" {
		t.Fatalf("empty Issuer replaced the default: %q", o.Issuer)
	}
}
