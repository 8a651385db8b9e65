package providers

import (
	"slices"
	"testing"
)

func TestAllOAuthProviderTypes(t *testing.T) {
	all := AllOAuthProviderTypes()
	if !slices.IsSorted(all) {
		t.Fatal("not sorted")
	}
	if len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatal("duplicate ids")
	}
	oauth := 0
	for _, id := range all {
		if !ValidID(string(id)) {
			t.Errorf("%q is not a valid provider id", id)
		}
		if id.IsOAuth() {
			oauth++
		}
	}
	// The OAuth/OIDC ids of the catalogue (ids_gen.go: at least Auth.js's
	// 93 and Gatehouse's 5), 8 e-mail ids, 3 credentials/passkey ids.
	if len(all) != len(oauthProviderTypes)+8+3 || oauth != len(oauthProviderTypes) || oauth < 93+5 {
		t.Fatalf("%d ids, %d OAuth; want %d and %d (at least 98)", len(all), oauth, len(oauthProviderTypes)+8+3, len(oauthProviderTypes))
	}
	all[0] = "changed"
	if AllOAuthProviderTypes()[0] == "changed" {
		t.Fatal("AllOAuthProviderTypes shares its backing array")
	}
}

func TestOAuthProviderTypeValid(t *testing.T) {
	tests := []struct {
		id           BuiltinID
		valid, oauth bool
	}{
		{Yandex, true, true},
		{"42-school", true, true},
		{"microsoft-entra-id", true, true},
		{"azure-ad-b2c", true, true},
		{"hydra", true, true},
		{"ory-hydra", false, false},
		{"gitea", true, true},
		{"resend", true, false},
		{"passkey", true, false},
		{"credentials", true, false},
		{"Yandex", false, false},
		{"", false, false},
		{"x", false, false},
	}
	for _, tt := range tests {
		if got := tt.id.Valid(); got != tt.valid {
			t.Errorf("%q.Valid() = %v", tt.id, got)
		}
		if got := tt.id.IsOAuth(); got != tt.oauth {
			t.Errorf("%q.IsOAuth() = %v", tt.id, got)
		}
	}
}

// A nil provider in any form resolves to nil, so that the handler reports
// it as a configuration error instead of panicking.
func TestResolveNil(t *testing.T) {
	var nilOAuth *OAuthConfig[map[string]any]
	var nilFunc Func
	for name, p := range map[string]Provider{
		"untyped nil":                  nil,
		"nil pointer":                  nilOAuth,
		"nil Func":                     nilFunc,
		"Func returning nil":           Func(func() Provider { return nil }),
		"Func returning a nil pointer": Func(func() Provider { return nilOAuth }),
	} {
		if got := Resolve(p); got != nil {
			t.Errorf("%s: Resolve = %#v, want nil", name, got)
		}
	}
	o := &OAuthConfig[map[string]any]{ID: "x"}
	if got := Resolve(Func(func() Provider { return o })); got != Provider(o) {
		t.Errorf("Resolve(Func) = %v, want the provider", got)
	}
}
