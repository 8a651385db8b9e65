package bungie

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestFetchProfile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method != http.MethodGet || r.URL.Path != "/platform/User/GetBungieAccount/14214042/254/":
			t.Errorf("%s %s, want a GET of the member's account", r.Method, r.URL.Path)
		case r.Header.Get("X-API-Key") != "api-key" || r.Header.Get("Authorization") != "Bearer bungie-at":
			t.Errorf("X-API-Key %q, Authorization %q", r.Header.Get("X-API-Key"), r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"Response": {"destinyMemberships": [{"membershipType": 3, "membershipId": "4611686018467284386",
			"displayName": "Guardian", "bungieGlobalDisplayName": "Guardian", "bungieGlobalDisplayNameCode": 1234}],
		"bungieNetUser": {"membershipId": "14214042", "uniqueName": "14214042",
			"displayName": "Guardian", "profilePicture": 70671, "profileTheme": 1064,
			"userTitle": 0, "successMessageFlags": "0", "isDeleted": false, "about": "",
			"firstAccess": "2017-08-28T22:47:40.307Z", "lastUpdate": "2023-02-01T10:00:00.000Z",
			"showActivity": true, "locale": "en", "localeInheritDefault": true,
			"profilePicturePath": "/img/profile/avatars/bungieday_24.jpg",
			"profileThemeName": "d2_25", "userTitleDisplay": "Newbie",
			"cachedBungieGlobalDisplayName": "Guardian", "cachedBungieGlobalDisplayNameCode": 1234}},
		"ErrorCode": 1, "ThrottleSeconds": 0, "ErrorStatus": "Success", "Message": "Ok", "MessageData": {}}`)
	}))
	defer srv.Close()
	tokens := account.TokenSet{AccessToken: "bungie-at", Extra: map[string]any{"membership_id": "14214042"}}
	c := NewWithAPIKey("api-key", providers.OAuthUserConfig[Profile]{
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/platform/User/GetBungieAccount/{membershipId}/254/"},
	})
	o := c.OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{URL: c.Userinfo.URL, Tokens: tokens, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, tokens)
	if err != nil || u.ID != "14214042" || u.Name != "Guardian" {
		t.Errorf("user = %+v, %v", u, err)
	}

	for _, tt := range []struct {
		name    string
		c       providers.OAuthConfig[Profile]
		tokens  account.TokenSet
		wantErr string
	}{
		{"no API key", New(providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/{membershipId}"}}), tokens, "API key"},
		{"no membership id", NewWithAPIKey("api-key", providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/{membershipId}"}}), account.TokenSet{AccessToken: "bungie-at"}, "membership_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.c.OAuth().UserinfoRequest(context.Background(), providers.UserinfoRequest{URL: tt.c.Userinfo.URL, Tokens: tt.tokens, HTTPClient: srv.Client()})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestFetchProfilePlatformError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ErrorCode": 2101, "ThrottleSeconds": 0, "ErrorStatus": "ApiInvalidOrExpiredKey", "Message": "The API key is invalid.", "MessageData": {}}`)
	}))
	defer srv.Close()
	_, err := FetchProfile("wrong-key")(context.Background(), providers.UserinfoRequest{URL: srv.URL + "/{membershipId}/254/",
		Tokens: account.TokenSet{AccessToken: "at", Extra: map[string]any{"membership_id": "1"}}, HTTPClient: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), "ApiInvalidOrExpiredKey") {
		t.Errorf("err = %v, want the platform error", err)
	}
}
