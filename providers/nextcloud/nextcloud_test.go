package nextcloud

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

const ocsFrank = `{
	"ocs": {
		"meta": {"status": "ok", "statuscode": 100, "message": "OK", "totalitems": "", "itemsperpage": ""},
		"data": {
			"enabled": true,
			"storageLocation": "/var/www/nextcloud/data/frank",
			"id": "frank",
			"lastLogin": 1700000000000,
			"backend": "Database",
			"subadmin": [],
			"quota": {"free": 1000, "used": 20, "total": 1020, "relative": 1.96, "quota": -3},
			"email": "frank@example.com",
			"phone": "",
			"address": "Foobar 12, 12345 Town",
			"website": "https://nextcloud.com",
			"twitter": "Nextcloud",
			"fediverse": "",
			"organisation": "",
			"role": "",
			"headline": "",
			"biography": "",
			"groups": ["admin", "group1"],
			"language": "en",
			"locale": "en_US",
			"displayname": "Frank K."
		}
	}
}`

func TestUserinfo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("OCS-APIRequest") != "true" || r.Header.Get("Accept") != "application/json" {
			t.Errorf("headers = %v", r.Header)
		}
		if r.Header.Get("Authorization") != "Bearer at-1" {
			t.Errorf("authorization = %q", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.EscapedPath() {
		case "/ocs/v1.php/cloud/users/frank":
			w.Write([]byte(ocsFrank))
		case "/ocs/v1.php/cloud/users/jane%20doe":
			w.Write([]byte(`{"ocs":{"meta":{"status":"failure","statuscode":404,"message":"User does not exist"},"data":[]}}`))
		default:
			t.Errorf("path = %q", r.URL.EscapedPath())
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: srv.URL}).OAuth()
	req := providers.UserinfoRequest{
		Tokens: account.TokenSet{AccessToken: "at-1", Extra: map[string]any{"user_id": "frank"}},
		URL:    o.UserinfoURL, HTTPClient: srv.Client(),
	}
	p, err := o.UserinfoRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := o.MapProfile(context.Background(), p, req.Tokens)
	if err != nil {
		t.Fatal(err)
	}
	want := profile.User{ID: "frank", Name: "Frank K.", Email: "frank@example.com", Image: srv.URL + "/avatar/frank/512"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}

	req.Tokens.Extra["user_id"] = "jane doe"
	if _, err := o.UserinfoRequest(context.Background(), req); err == nil || !strings.Contains(err.Error(), "User does not exist") {
		t.Errorf("an OCS failure gave error %v", err)
	}
	req.Tokens.Extra = nil
	if _, err := o.UserinfoRequest(context.Background(), req); err == nil {
		t.Error("a token response without user_id gave no error")
	}
}

func TestMapProfile(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", Issuer: "https://cloud.example.com"}).OAuth()
	const raw = `{"id": "frank", "email": null, "displayname": "Frank K.", "groups": ["admin"], "enabled": true}`
	got := providertest.MapJSON(t, o, raw, account.TokenSet{})
	want := profile.User{ID: "frank", Name: "Frank K.", Image: "https://cloud.example.com/avatar/frank/512"}
	if got != want {
		t.Errorf("user = %+v, want %+v", got, want)
	}
}
