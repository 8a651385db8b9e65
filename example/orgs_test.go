package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestAcme signs Alice and Bob in with the development provider: both
// are in Acme, Alice as owner and Bob as developer; with Acme active,
// Alice may delete projects and Bob may not.
func TestAcme(t *testing.T) {
	site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1"}))
	signIn := func(who string) *http.Client {
		c := newClient()
		_, home := get(t, c, site+"/")
		resp := submit(t, c, site+"/", home, "/auth/signin/development", nil)
		resp = submit(t, c, resp.Request.URL.String(), read(t, resp), "authorize", url.Values{"authtest_user": {who}})
		read(t, resp)
		return c
	}
	alice, bob := signIn("alice"), signIn("bob")
	for who, c := range map[string]*http.Client{"alice": alice, "bob": bob} {
		_, body := get(t, c, site+"/auth/csrf")
		var csrf struct{ CSRFToken string }
		json.Unmarshal([]byte(body), &csrf)
		resp, err := c.PostForm(site+"/auth/organizations/active", url.Values{"organizationId": {"acme"}, "csrfToken": {csrf.CSRFToken}})
		if err != nil {
			t.Fatal(err)
		}
		if b := read(t, resp); resp.StatusCode != 200 {
			t.Fatalf("%s activates Acme: %d %s", who, resp.StatusCode, b)
		}
	}
	if resp, body := get(t, alice, site+"/projects/delete"); resp.StatusCode != 200 || !strings.Contains(body, "You may delete projects") {
		t.Errorf("Alice, owner: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, bob, site+"/projects/delete"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "missing_permission") {
		t.Errorf("Bob, developer: %d %s", resp.StatusCode, body)
	}
}
