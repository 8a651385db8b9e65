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
// Alice may delete projects and Bob may not. Acme has one team,
// Engineering, with Alice alone in it, after a second sign-in of hers
// too; Bob, a developer, may not create teams.
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
	signIn("alice") // Acme and its team are made once
	post := func(c *http.Client, path string, form url.Values) (*http.Response, string) {
		t.Helper()
		_, body := get(t, c, site+"/auth/csrf")
		var csrf struct{ CSRFToken string }
		json.Unmarshal([]byte(body), &csrf)
		form.Set("csrfToken", csrf.CSRFToken)
		resp, err := c.PostForm(site+path, form)
		if err != nil {
			t.Fatal(err)
		}
		return resp, read(t, resp)
	}
	for who, c := range map[string]*http.Client{"alice": alice, "bob": bob} {
		if resp, b := post(c, "/auth/organizations/active", url.Values{"organizationId": {"acme"}}); resp.StatusCode != 200 {
			t.Fatalf("%s activates Acme: %d %s", who, resp.StatusCode, b)
		}
	}
	if resp, body := get(t, alice, site+"/projects/delete"); resp.StatusCode != 200 || !strings.Contains(body, "You may delete projects") {
		t.Errorf("Alice, owner: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, bob, site+"/projects/delete"); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "missing_permission") {
		t.Errorf("Bob, developer: %d %s", resp.StatusCode, body)
	}

	// Teams.
	_, body := get(t, bob, site+"/auth/organizations/acme/teams")
	var teams []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(body), &teams); err != nil || len(teams) != 1 || teams[0].Name != "Engineering" {
		t.Fatalf("Acme's teams, as Bob sees them: %s (%v)", body, err)
	}
	_, body = get(t, alice, site+"/auth/session")
	var session struct{ User struct{ ID string } }
	json.Unmarshal([]byte(body), &session)
	_, body = get(t, alice, site+"/auth/organizations/acme/teams/"+url.PathEscape(teams[0].ID)+"/members")
	var members []struct{ UserID string }
	if err := json.Unmarshal([]byte(body), &members); err != nil || len(members) != 1 || session.User.ID == "" || members[0].UserID != session.User.ID {
		t.Errorf("Engineering's members: %s (%v); want Alice (%q) alone", body, err, session.User.ID)
	}
	if resp, b := post(bob, "/auth/organizations/acme/teams", url.Values{"name": {"Bob's"}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("Bob, developer, creates a team: %d %s", resp.StatusCode, b)
	}
}
