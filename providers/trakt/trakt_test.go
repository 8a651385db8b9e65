package trakt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestConfig(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"}).OAuth()
	want := facts{
		ID: "trakt", Name: "Trakt", Type: providers.TypeOAuth,
		AuthURL:     "https://trakt.tv/oauth/authorize",
		AuthParams:  map[string]string{"scope": ""},
		TokenURL:    "https://api.trakt.tv/oauth/token",
		UserinfoURL: "https://api.trakt.tv/users/me?extended=full",
		Checks:      []providers.Check{providers.CheckPKCE},
		Style:       providers.Style{Bg: "#ED2224", Text: "#fff"},
		UserRequest: true,
	}
	if got := factsOf(o); !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %+v\nwant %+v", got, want)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

const me = `{
	"username": "sean",
	"private": false,
	"name": "Sean Rudford",
	"vip": true,
	"vip_ep": true,
	"ids": {"slug": "sean"},
	"joined_at": "2010-09-25T17:49:25.000Z",
	"location": "SF",
	"about": "I have all your cassette tapes.",
	"gender": "male",
	"age": 35,
	"images": {"avatar": {"full": "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}}
}`

func TestUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("trakt-api-version") != "2" || r.Header.Get("trakt-api-key") != "cid" || r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("headers = %v", r.Header)
		}
		if r.URL.Query().Get("extended") != "full" {
			t.Errorf("query = %q", r.URL.RawQuery)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(me))
	}))
	defer srv.Close()
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/users/me?extended=full"}}).OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "tok"}, URL: o.UserinfoURL, ClientID: "cid", HTTPClient: srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (profile.User{ID: "sean", Name: "Sean Rudford", Image: "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}); got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
	got := mapJSON(t, o, me, account.TokenSet{})
	if want := (profile.User{ID: "sean", Name: "Sean Rudford", Image: "https://secure.gravatar.com/avatar/30c2f0dfbc39e77b1b0e1b8a3c1a1f1c.jpg?size=256"}); got != want {
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
