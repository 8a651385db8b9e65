package twitch

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
		ID: "twitch", Name: "Twitch", Type: providers.TypeOIDC,
		AuthParams: map[string]string{"scope": "openid user:read:email", "claims": `{"id_token":{"email":null,"picture":null,"preferred_username":null}}`},
		Issuer:     "https://id.twitch.tv/oauth2",
		Checks:     []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce},
		AuthMethod: providers.AuthClientSecretPost,
		Style:      providers.Style{Bg: "#65459B", Text: "#fff"},
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
		"aud": "hof5gwx0su6owfnys0yan9c87zr6t",
		"exp": 1642108567,
		"iat": 1642107667,
		"iss": "https://id.twitch.tv/oauth2",
		"sub": "713936733",
		"azp": "hof5gwx0su6owfnys0yan9c87zr6t",
		"nonce": "abcdef",
		"email": "scotwht@justin.tv",
		"email_verified": true,
		"picture": "https://static-cdn.jtvnw.net/jtv_user_pictures/profile_image-300x300.png",
		"preferred_username": "scotwht"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	got.EmailVerified = nil
	want := profile.User{ID: "713936733", Name: "scotwht", Email: "scotwht@justin.tv", Image: "https://static-cdn.jtvnw.net/jtv_user_pictures/profile_image-300x300.png"}
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
