// Package providertest holds the checks that the tests of the built-in
// providers share: a provider's configuration compared with the expected
// one, and its profile mapping run on sample profiles as the sign-in flow
// runs it. Only tests import it.
package providertest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Config is what a provider's configuration says, in a form that
// reflect.DeepEqual compares. Every field is compared, so a zero field
// asserts that the configuration leaves it unset.
type Config struct {
	ID, Name     string
	Type         providers.ProviderType
	AuthURL      string
	AuthParams   map[string]string
	TokenURL     string
	TokenParams  map[string]string
	UserinfoURL  string
	Issuer       string
	Checks       []providers.Check // the effective checks, as EffectiveChecks(false) gives them
	AuthMethod   providers.AuthMethod
	Style        providers.Style
	TokenRequest bool // a token request callback is set
	UserRequest  bool // a userinfo request callback is set
}

// ConfigOf returns the Config of o.
func ConfigOf(o *providers.OAuth) Config {
	return Config{
		ID: o.ID, Name: o.Name, Type: o.Type,
		AuthURL: o.Authorization.URL, AuthParams: o.Authorization.Params,
		TokenURL: o.Token.URL, TokenParams: o.Token.Params,
		UserinfoURL: o.UserinfoURL, Issuer: o.Issuer,
		Checks:       o.EffectiveChecks(false),
		AuthMethod:   o.Client.TokenEndpointAuthMethod,
		Style:        o.Style,
		TokenRequest: o.Token.Request != nil,
		UserRequest:  o.UserinfoRequest != nil,
	}
}

// CheckConfig reports an error on t, naming each field that differs, when
// the Config of o is not want.
func CheckConfig(t testing.TB, o *providers.OAuth, want Config) {
	t.Helper()
	got := ConfigOf(o)
	if reflect.DeepEqual(got, want) {
		return
	}
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("config %s = %#v, want %#v", g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
}

// Field is one row of a table of values to check: a name for the message,
// the value found and the value expected.
type Field struct {
	Name      string
	Got, Want any
}

// CheckFields reports an error on t for each field whose Got is not
// reflect.DeepEqual to its Want. Got and Want must have the same type.
func CheckFields(t testing.TB, fields []Field) {
	t.Helper()
	for _, f := range fields {
		if !reflect.DeepEqual(f.Got, f.Want) {
			t.Errorf("%s = %#v, want %#v", f.Name, f.Got, f.Want)
		}
	}
}

// MappingCase is one sample profile for CheckMapping and what the
// provider must make of it.
type MappingCase struct {
	Name     string           // the subtest's name
	JSON     string           // the profile as the provider sends it
	Tokens   account.TokenSet // the tokens the mapping is given
	Want     profile.User     // the user, EmailVerified aside
	Verified bool             // EmailVerified is set
	WantErr  bool             // the mapping fails; Want and Verified are not checked
}

// CheckMapping runs each case as a subtest: it decodes JSON with
// o.DecodeProfile and maps it with o.MapProfile, as the sign-in flow does,
// and reports where the result differs from the case.
func CheckMapping(t *testing.T, o *providers.OAuth, cases []MappingCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			p, err := o.DecodeProfile([]byte(tt.JSON))
			if err != nil {
				t.Fatalf("DecodeProfile: %v", err)
			}
			u, err := o.MapProfile(context.Background(), p, tt.Tokens)
			if tt.WantErr {
				if err == nil {
					t.Fatalf("MapProfile = %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("MapProfile: %v", err)
			}
			CheckUser(t, u, tt.Want, tt.Verified)
		})
	}
}

// CheckUser reports an error on t when got, EmailVerified aside, is not
// want, or when got.EmailVerified is set and verified is false, or unset
// and verified is true.
func CheckUser(t testing.TB, got, want profile.User, verified bool) {
	t.Helper()
	if (got.EmailVerified != nil) != verified {
		t.Errorf("EmailVerified = %v, want set: %v", got.EmailVerified, verified)
	}
	got.EmailVerified = nil
	if got != want {
		t.Errorf("user = %+v\nwant   %+v", got, want)
	}
}

// MapJSON decodes raw as the provider's profile and maps it with tokens as
// the sign-in flow does, failing t when either step fails.
func MapJSON(t testing.TB, o *providers.OAuth, raw string, tokens account.TokenSet) profile.User {
	t.Helper()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	u, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil {
		t.Fatalf("map: %v", err)
	}
	return u
}

// NewFunc is a provider package's New: it merges the user's options into
// the provider's defaults.
type NewFunc[P any] func(providers.OAuthUserConfig[P]) providers.OAuthConfig[P]

// CheckIssuerRequired checks a provider whose endpoints come from the
// discovery document of an issuer the user names: without an issuer,
// Validate must fail on the authorization endpoint or the issuer; with
// issuer, it must pass.
func CheckIssuerRequired[P any](t testing.TB, newConfig NewFunc[P], issuer string) {
	t.Helper()
	var ce *providers.ConfigError
	if err := newConfig(providers.OAuthUserConfig[P]{ClientID: "cid"}).OAuth().Validate(); !errors.As(err, &ce) || ce.Field != "authorization" && ce.Field != "issuer" {
		t.Errorf("Validate without issuer = %v", err)
	}
	if err := newConfig(providers.OAuthUserConfig[P]{ClientID: "cid", Issuer: issuer}).OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

// CheckMerge calls newConfig with a client ID "cid", a client secret
// "sec", issuer, the scope "openid" and the single check PKCE, and checks
// that the result keeps each of them and the provider's base. It returns
// the merged configuration for further checks.
func CheckMerge[P any](t testing.TB, newConfig NewFunc[P], base providers.Base, issuer string) providers.OAuthConfig[P] {
	t.Helper()
	c := newConfig(providers.OAuthUserConfig[P]{
		ClientID: "cid", ClientSecret: "sec", Issuer: issuer,
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid"}},
		Checks:        []providers.Check{providers.CheckPKCE},
	})
	scope, _ := c.Authorization.Scope()
	CheckFields(t, []Field{
		{Name: "client id", Got: c.ClientID, Want: "cid"},
		{Name: "client secret", Got: c.ClientSecret, Want: "sec"},
		{Name: "issuer", Got: c.Issuer, Want: issuer},
		{Name: "scope", Got: scope, Want: "openid"},
		{Name: "checks", Got: c.Checks, Want: []providers.Check{providers.CheckPKCE}},
		{Name: "base", Got: c.ProviderBase(), Want: base},
	})
	return c
}

// CheckStandardClaims checks that o maps an ID token's standard claims
// (issued by issuer) as the default OpenID Connect mapping does: sub to
// ID, name, email (verified) and picture. It is the mapping test of every
// provider that keeps that default.
func CheckStandardClaims(t *testing.T, o *providers.OAuth, issuer string) {
	t.Helper()
	raw := `{
		"iss": "` + issuer + `",
		"sub": "7b1a6f3e-2c55-4d0b-9f0e-3c1b2a4d5e6f",
		"aud": "cid",
		"exp": 1700003600,
		"iat": 1700000000,
		"name": "Grace Hopper",
		"preferred_username": "grace",
		"email": "grace@example.com",
		"email_verified": true,
		"picture": "https://example.com/grace.png"
	}`
	CheckMapping(t, o, []MappingCase{{
		Name: "standard claims", JSON: raw, Verified: true,
		Want: profile.User{
			ID: "7b1a6f3e-2c55-4d0b-9f0e-3c1b2a4d5e6f", Name: "Grace Hopper",
			Email: "grace@example.com", Image: "https://example.com/grace.png",
		},
	}})
}
