package zoom

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := facts{
		ID: "zoom", Name: "Zoom", Type: providers.TypeOAuth,
		AuthURL:     "https://zoom.us/oauth/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://zoom.us/oauth/token",
		UserinfoURL: "https://api.zoom.us/v2/users/me",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{Bg: "#0b5cff", Text: "#fff"},
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	const raw = `{
		"id": "KDcuGIm1QgePTO8WbOqwIQ",
		"first_name": "Jill",
		"last_name": "Chill",
		"display_name": "Jill Chill",
		"email": "jchill@example.com",
		"type": 1,
		"role_name": "Owner",
		"pmi": 3542471135,
		"use_pmi": false,
		"personal_meeting_url": "https://zoom.us/j/3542471135",
		"timezone": "Asia/Shanghai",
		"verified": 1,
		"dept": "",
		"created_at": "2019-06-01T07:58:03Z",
		"last_login_time": "2019-06-01T07:58:03Z",
		"pic_url": "https://example.com/photo.jpg",
		"language": "en-US",
		"phone_number": "",
		"status": "active",
		"role_id": "0",
		"account_id": "q6gBJVO5TzexKYTb_I2rpg"
	}`
	got := mapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "KDcuGIm1QgePTO8WbOqwIQ", Name: "Jill Chill", Email: "jchill@example.com", Image: "https://example.com/photo.jpg"}
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
