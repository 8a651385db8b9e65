package github

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestEnterprise(t *testing.T) {
	o := NewEnterprise("https://ghe.example.com/", providers.OAuthUserConfig[Profile]{ClientID: "cid", Name: "GHE"}).OAuth()
	want := map[string]string{
		"authorization": "https://ghe.example.com/login/oauth/authorize",
		"token":         "https://ghe.example.com/login/oauth/access_token",
		"userinfo":      "https://ghe.example.com/api/v3/user",
		"issuer":        "https://ghe.example.com/login/oauth",
		"name":          "GHE",
		"id":            "github",
	}
	got := map[string]string{
		"authorization": o.Authorization.URL, "token": o.Token.URL, "userinfo": o.UserinfoURL,
		"issuer": o.Issuer, "name": o.Name, "id": o.ID,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestMergeKeepsRequest(t *testing.T) {
	// A user userinfo URL replaces the URL, not the handler.
	c := New(providers.OAuthUserConfig[Profile]{
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: "https://proxy.example/user"},
		Issuer:   "https://other",
		Checks:   []providers.Check{providers.CheckState},
	})
	if c.Userinfo.URL != "https://proxy.example/user" || c.Userinfo.Request == nil {
		t.Fatalf("userinfo = %+v", c.Userinfo)
	}
	if c.Issuer != "https://other" || len(c.Checks) != 1 || c.Type != providers.TypeOAuth {
		t.Fatalf("merge: %+v", c)
	}
	if c.Token.URL != TokenURL || c.Authorization.URL != AuthorizationURL {
		t.Fatalf("unrelated defaults changed: %+v", c)
	}
}

// fakeAPI is a GitHub Enterprise API at /api/v3 serving /user and
// /user/emails.
type fakeAPI struct {
	user, emails string
	emailsCode   int
	mu           sync.Mutex
	calls        []string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls = append(f.calls, r.URL.Path)
	f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer gho_token" || r.Header.Get("User-Agent") != UserAgent {
		http.Error(w, `{"message":"Requires authentication"}`, http.StatusUnauthorized)
		return
	}
	switch r.URL.Path {
	case "/api/v3/user":
		w.Write([]byte(f.user))
	case "/api/v3/user/emails":
		if f.emailsCode != 0 {
			http.Error(w, `{"message":"Resource not accessible by integration"}`, f.emailsCode)
			return
		}
		w.Write([]byte(f.emails))
	default:
		http.NotFound(w, r)
	}
}

const (
	userPublicEmail = `{"login":"octocat","id":583231,"node_id":"MDQ6VXNlcjU4MzIzMQ==",
		"avatar_url":"https://avatars.githubusercontent.com/u/583231?v=4","type":"User","site_admin":false,
		"name":"The Octocat","company":"@github","blog":"https://github.blog","location":"San Francisco",
		"email":"octocat@github.com","bio":null,"twitter_username":null,"public_repos":8,
		"followers":9000,"following":9,"created_at":"2011-01-25T18:44:36Z","updated_at":"2024-01-22T12:00:00Z"}`
	userPrivateEmail = `{"login":"hubot","id":42,"avatar_url":"https://avatars.githubusercontent.com/u/42?v=4",
		"name":null,"email":null}`
	emailsWithPrimary = `[
		{"email":"old@example.com","primary":false,"verified":true,"visibility":null},
		{"email":"hubot@example.com","primary":true,"verified":true,"visibility":"private"}]`
	emailsNoPrimary = `[{"email":"first@example.com","primary":false,"verified":false,"visibility":null},
		{"email":"second@example.com","primary":false,"verified":true,"visibility":null}]`
)

func TestFetchAndMap(t *testing.T) {
	tests := []struct {
		name       string
		api        *fakeAPI
		want       profile.User
		verified   bool
		wantEmails bool // whether /user/emails must be called
	}{
		{"public e-mail", &fakeAPI{user: userPublicEmail},
			profile.User{ID: "583231", Name: "The Octocat", Email: "octocat@github.com", Image: "https://avatars.githubusercontent.com/u/583231?v=4"}, false, false},
		{"private e-mail, primary entry", &fakeAPI{user: userPrivateEmail, emails: emailsWithPrimary},
			profile.User{ID: "42", Name: "hubot", Email: "hubot@example.com", Image: "https://avatars.githubusercontent.com/u/42?v=4"}, true, true},
		{"private e-mail, no primary: first entry", &fakeAPI{user: userPrivateEmail, emails: emailsNoPrimary},
			profile.User{ID: "42", Name: "hubot", Email: "first@example.com", Image: "https://avatars.githubusercontent.com/u/42?v=4"}, false, true},
		{"private e-mail, empty list", &fakeAPI{user: userPrivateEmail, emails: `[]`},
			profile.User{ID: "42", Name: "hubot", Image: "https://avatars.githubusercontent.com/u/42?v=4"}, false, true},
		{"emails forbidden", &fakeAPI{user: userPrivateEmail, emailsCode: http.StatusForbidden},
			profile.User{ID: "42", Name: "hubot", Image: "https://avatars.githubusercontent.com/u/42?v=4"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.api)
			defer srv.Close()
			o := NewEnterprise(srv.URL, providers.OAuthUserConfig[Profile]{ClientID: "cid"}).OAuth()
			v, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{
				Tokens: account.TokenSet{AccessToken: "gho_token"}, URL: o.UserinfoURL, HTTPClient: srv.Client(),
			})
			if err != nil {
				t.Fatal(err)
			}
			u, err := o.MapProfile(context.Background(), v, account.TokenSet{})
			if err != nil {
				t.Fatal(err)
			}
			providertest.CheckUser(t, u, tt.want, tt.verified)
			calledEmails := strings.Contains(strings.Join(tt.api.calls, " "), "/user/emails")
			if calledEmails != tt.wantEmails {
				t.Errorf("calls = %v", tt.api.calls)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	srv := httptest.NewServer(&fakeAPI{user: userPrivateEmail, emails: emailsWithPrimary})
	defer srv.Close()
	// A bad token: /user answers 401, which is an error.
	_, err := FetchProfile(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "wrong"}, URL: srv.URL + "/api/v3/user", HTTPClient: srv.Client(),
	})
	var he *providers.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized {
		t.Fatalf("err = %v, want a 401 HTTPError", err)
	}
	// A server error on /user/emails fails the sign-in.
	srv5 := httptest.NewServer(&fakeAPI{user: userPrivateEmail, emailsCode: http.StatusBadGateway})
	defer srv5.Close()
	_, err = FetchProfile(context.Background(), providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "gho_token"}, URL: srv5.URL + "/api/v3/user", HTTPClient: srv5.Client(),
	})
	if !errors.As(err, &he) || he.StatusCode != http.StatusBadGateway {
		t.Fatalf("err = %v, want a 502 HTTPError", err)
	}
}

func TestMapProfileNoID(t *testing.T) {
	if _, err := MapProfile(context.Background(), Profile{Login: "x"}, account.TokenSet{}); err == nil {
		t.Fatal("a profile without id mapped without error")
	}
}

func TestProfileRoundTrip(t *testing.T) {
	var p Profile
	if err := json.Unmarshal([]byte(userPublicEmail), &p); err != nil {
		t.Fatal(err)
	}
	if p.ID != 583231 || p.Login != "octocat" || p.PublicRepos != 8 || p.Bio != "" {
		t.Fatalf("decoded %+v", p)
	}
	if e, ok := PrimaryEmail(nil); ok || e != (Email{}) {
		t.Fatal("PrimaryEmail(nil)")
	}
}
