package dropbox

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestNew(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "secret"})
	scope, hasScope := c.Authorization.Scope()
	for _, tt := range []struct {
		field     string
		got, want any
	}{
		{"id", c.ID, "dropbox"},
		{"name", c.Name, "Dropbox"},
		{"type", c.Type, providers.TypeOAuth},
		{"authorization", c.Authorization.URL, "https://www.dropbox.com/oauth2/authorize"},
		{"token", c.Token.URL, "https://api.dropboxapi.com/oauth2/token"},
		{"userinfo", c.Userinfo.URL, "https://api.dropboxapi.com/2/users/get_current_account"},
		{"scope", scope, "account_info.read"},
		{"scope set", hasScope, true},
		{"checks", c.OAuth().EffectiveChecks(false), []providers.Check{providers.CheckPKCE}},
		{"client auth", c.Client.TokenEndpointAuthMethod, providers.AuthMethod("")},
		{"style", c.Style, providers.Style{BrandColor: "#0061fe"}},
		{"issuer", c.Issuer, ""},
		{"profile callback set", c.Profile != nil, true},
		{"token_access_type", c.Authorization.Params["token_access_type"], "offline"},
		{"userinfo handler", c.Userinfo.Request != nil, true},
	} {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
		}
	}
	if err := c.OAuth().Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		tokens   account.TokenSet
		want     profile.User
		verified bool // EmailVerified is set
		wantErr  bool
	}{
		{
			name: "account",
			json: `{"account_id": "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
		"name": {"given_name": "Franz", "surname": "Ferdinand", "familiar_name": "Franz",
			"display_name": "Franz Ferdinand (Personal)", "abbreviated_name": "FF"},
		"email": "franz@dropbox.com", "email_verified": true, "disabled": false, "locale": "en",
		"referral_link": "https://db.tt/ZITNuhtI", "is_paired": true,
		"account_type": {".tag": "basic"},
		"root_info": {".tag": "user", "root_namespace_id": "3235641", "home_namespace_id": "3235641"},
		"profile_photo_url": "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
		"country": "US"}`,
			want: profile.User{ID: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", Name: "Franz Ferdinand (Personal)", Email: "franz@dropbox.com", Image: "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128"},
		},
		{
			name:    "no account id",
			json:    `{"name": {"display_name": "x"}}`,
			wantErr: true,
		},
	}
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := o.DecodeProfile([]byte(tt.json))
			if err != nil {
				t.Fatalf("DecodeProfile: %v", err)
			}
			u, err := o.MapProfile(context.Background(), p, tt.tokens)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("MapProfile = %+v, want an error", u)
				}
				return
			}
			if err != nil {
				t.Fatalf("MapProfile: %v", err)
			}
			if (u.EmailVerified != nil) != tt.verified {
				t.Errorf("EmailVerified = %v, want set: %v", u.EmailVerified, tt.verified)
			}
			u.EmailVerified = nil
			if u != tt.want {
				t.Errorf("user = %+v\nwant   %+v", u, tt.want)
			}
		})
	}
}

func TestFetchProfile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case r.Method != http.MethodPost:
			t.Errorf("method %s, want POST", r.Method)
		case r.URL.Path != "/2/users/get_current_account":
			t.Errorf("path %s", r.URL.Path)
		case r.Header.Get("Authorization") != "Bearer sl.at-123":
			t.Errorf("Authorization %q", r.Header.Get("Authorization"))
		case len(body) != 0:
			t.Errorf("body %q, want none", body)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"account_id": "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
		"name": {"given_name": "Franz", "surname": "Ferdinand", "familiar_name": "Franz",
			"display_name": "Franz Ferdinand (Personal)", "abbreviated_name": "FF"},
		"email": "franz@dropbox.com", "email_verified": true, "disabled": false, "locale": "en",
		"referral_link": "https://db.tt/ZITNuhtI", "is_paired": true,
		"account_type": {".tag": "basic"},
		"root_info": {".tag": "user", "root_namespace_id": "3235641", "home_namespace_id": "3235641"},
		"profile_photo_url": "https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128",
		"country": "US"}`)
	}))
	defer srv.Close()
	c := New(providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/2/users/get_current_account"}})
	o := c.OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{URL: c.Userinfo.URL, Tokens: account.TokenSet{AccessToken: "sl.at-123"}, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil || u.ID != "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc" || u.Email != "franz@dropbox.com" {
		t.Errorf("user = %+v, %v", u, err)
	}

	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error_summary": "invalid_access_token/.."}`, http.StatusUnauthorized)
	}))
	defer bad.Close()
	_, err = FetchProfile(context.Background(), providers.UserinfoRequest{URL: bad.URL, Tokens: account.TokenSet{AccessToken: "x"}, HTTPClient: bad.Client()})
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("err = %v, want the 401", err)
	}
}
