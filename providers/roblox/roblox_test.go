package roblox

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := facts{
		ID: "roblox", Name: "Roblox", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid profile"},
		Issuer:     "https://apis.roblox.com/oauth/",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState},
		Style:      providers.Style{Bg: "#5865F2", Text: "#fff"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OIDCUserConfig[Profile]{ClientID: "cid"}).OAuth()
	const raw = `{
		"sub": "1516563360",
		"name": "exampleuser",
		"nickname": "exampleuser",
		"preferred_username": "exampleuser",
		"created_at": 1584059137,
		"profile": "https://www.roblox.com/users/1516563360/profile",
		"picture": "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-0A0B0C/150/150/AvatarHeadshot/Png/noFilter",
		"iss": "https://apis.roblox.com/oauth/",
		"aud": "cid"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "1516563360", Name: "exampleuser", Image: "https://tr.rbxcdn.com/30DAY-AvatarHeadshot-0A0B0C/150/150/AvatarHeadshot/Png/noFilter"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

// facts is what a configuration says, in a form reflect.DeepEqual compares.
type facts struct {
	ID, Name     string
	Type         providers.ProviderType
	AuthURL      string
	AuthParams   map[string]string
	TokenURL     string
	TokenParams  map[string]string
	UserinfoURL  string
	Issuer       string
	Checks       []providers.Check
	AuthMethod   providers.AuthMethod
	Style        providers.Style
	TokenRequest bool
	UserRequest  bool
}

func factsOf(o *providers.OAuth) facts {
	return facts{
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

// mapJSON decodes raw as the provider's profile and maps it as the sign-in
// flow does.
func mapJSON(t *testing.T, o *providers.OAuth, raw string, tokens account.TokenSet) profile.User {
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
