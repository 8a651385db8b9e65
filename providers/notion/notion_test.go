package notion

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestUserinfo(t *testing.T) {
	answer := `{
		"object": "user",
		"id": "16d84278-ab0e-484c-9bdd-b35da3bd8905",
		"name": "pied piper",
		"avatar_url": null,
		"type": "bot",
		"bot": {
			"owner": {
				"type": "user",
				"user": {
					"object": "user",
					"id": "5389a034-eb5c-47b5-8a9e-f79c99ef166c",
					"name": "christine makenotion",
					"avatar_url": "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png",
					"type": "person",
					"person": {"email": "christine@makenotion.com"}
				}
			},
			"workspace_name": "Christine's workspace"
		}
	}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/users/me" {
			t.Errorf("path = %q", r.URL.Path)
		}
		if r.Header.Get("Notion-Version") != "2022-06-28" || r.Header.Get("Authorization") != "Bearer secret_abc" {
			t.Errorf("headers = %v", r.Header)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	}))
	defer srv.Close()

	o := New(providers.OAuthUserConfig[Profile]{
		ClientID: "cid",
		Userinfo: providers.UserinfoEndpoint[Profile]{URL: srv.URL + "/v1/users/me"},
	}).OAuth()
	req := providers.UserinfoRequest{Tokens: account.TokenSet{AccessToken: "secret_abc"}, URL: o.UserinfoURL, HTTPClient: srv.Client()}
	p, err := o.UserinfoRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, req.Tokens)
	if err != nil {
		t.Fatal(err)
	}
	want := profile.User{
		ID: "5389a034-eb5c-47b5-8a9e-f79c99ef166c", Name: "christine makenotion",
		Email: "christine@makenotion.com",
		Image: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avatar.png",
	}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	answer = `{"object":"user","id":"x","type":"bot","bot":{"owner":{"type":"workspace","workspace":true}}}`
	if _, err := o.UserinfoRequest(context.Background(), req); err == nil {
		t.Error("a workspace-owned token gave no error")
	}
}
