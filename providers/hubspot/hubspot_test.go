package hubspot

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestFetchProfile(t *testing.T) {
	const token = "CNGNgL3HLhICAQEYu_PmASD-t7sBKJjCgQEyGQA"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/oauth/v1/access-tokens/") || r.Header.Get("Authorization") != "" {
			t.Errorf("%s %s (Authorization %q), want a GET of the token's path", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		if r.URL.Path == "/oauth/v1/access-tokens/"+token {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"token": "CNGNgL3HLhICAQEYu_PmASD-t7sBKJjCgQEyGQA", "user": "demo@hubspot.com",
		"hub_domain": "demo-1234.com", "scopes": ["oauth", "crm.objects.contacts.read"],
		"scope_to_scope_group_pks": [25, 31], "trial_scopes": [], "trial_scope_to_scope_group_pks": [],
		"hub_id": 62515, "app_id": 456, "expires_in": 1754, "user_id": 123, "token_type": "access"}`)
			return
		}
		http.Error(w, `{"status": "error", "message": "not found"}`, http.StatusNotFound)
	}))
	defer srv.Close()
	c := New(providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/oauth/v1/access-tokens"}})
	o := c.OAuth()
	p, err := o.UserinfoRequest(context.Background(), providers.UserinfoRequest{URL: c.Userinfo.URL, Tokens: account.TokenSet{AccessToken: token}, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{})
	if err != nil || u.ID != "123" || u.Email != "demo@hubspot.com" {
		t.Errorf("user = %+v, %v", u, err)
	}

	// An error answer must not quote the token.
	_, err = FetchProfile(context.Background(), providers.UserinfoRequest{URL: srv.URL + "/oauth/v1/access-tokens", Tokens: account.TokenSet{AccessToken: "secret-token-xyz"}, HTTPClient: srv.Client()})
	var he *providers.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusNotFound {
		t.Fatalf("err = %v, want an HTTPError 404", err)
	}
	if strings.Contains(err.Error(), "secret-token-xyz") || strings.Contains(he.URL, "secret-token-xyz") {
		t.Errorf("error %q (URL %q) holds the access token", err, he.URL)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	_, err = FetchProfile(context.Background(), providers.UserinfoRequest{URL: closed.URL, Tokens: account.TokenSet{AccessToken: "secret-token-xyz"}})
	if err == nil || strings.Contains(err.Error(), "secret-token-xyz") {
		t.Errorf("transport error = %v, want one without the token", err)
	}
}
