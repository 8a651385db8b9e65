package keyflow_test

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

// old is a sign-in older than the default Session.FreshAge (24 hours).
func old() time.Time { return time.Now().Add(-25 * time.Hour) }

// keyCount returns how many keys b's user has, revoked ones included.
func keyCount(t *testing.T, b *browser) int {
	t.Helper()
	status, list := b.do(http.MethodGet, "/auth/api-keys", nil, nil)
	if status != http.StatusOK {
		t.Fatalf("list = %d %v", status, list)
	}
	return len(list["keys"].([]any))
}

// TestFreshSignIn: making and rotating a key need a sign-in within
// Session.FreshAge, since a key outlives the session that made it: a
// session signed in earlier, or at a time it does not record, is
// answered 403 fresh_sign_in and changes nothing. Listing and revoking
// need no fresh sign-in.
func TestFreshSignIn(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	ada, b := e.user("ada@example.com", "report:read")
	key, id := b.newKey("ci", "report:read", nil)

	for _, tc := range []struct {
		name string
		at   time.Time
	}{{"signed in 25 hours ago", old()}, {"sign-in time unknown", time.Time{}}} {
		stale := e.signedIn(ada, tc.at)
		status, out := stale.post("/auth/api-keys", url.Values{"name": {"stolen"}, "permissions": {"report:read"}})
		if status != http.StatusForbidden || out["error"] != "SessionRequired" || out["code"] != "fresh_sign_in" || out["key"] != nil {
			t.Errorf("%s: create = %d %v; want 403 SessionRequired fresh_sign_in", tc.name, status, out)
		}
		if n := keyCount(t, b); n != 1 {
			t.Errorf("%s: %d keys after a refused create; want 1", tc.name, n)
		}
		status, out = stale.post("/auth/api-keys/"+id+"/rotate", nil)
		if status != http.StatusForbidden || out["error"] != "SessionRequired" || out["code"] != "fresh_sign_in" || out["key"] != nil {
			t.Errorf("%s: rotate = %d %v; want 403 SessionRequired fresh_sign_in", tc.name, status, out)
		}
		if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
			t.Errorf("%s: the key stopped after a refused rotation: %d", tc.name, status)
		}
		if n := keyCount(t, stale); n != 1 {
			t.Errorf("%s: the old session lists %d keys; want 1", tc.name, n)
		}
	}

	// Revoking only takes power away: an old session may.
	stale := e.signedIn(ada, old())
	status, out := stale.post("/auth/api-keys/"+id+"/revoke", nil)
	if status != http.StatusOK || out["revokedAt"] == nil {
		t.Fatalf("revoke with an old session = %d %v; want 200", status, out)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("the revoked key: %d; want 401", status)
	}
}

// TestFreshAgeConfigured: the limit is Config.Session.FreshAge, not a
// fixed one.
func TestFreshAgeConfigured(t *testing.T) {
	short := newEnv(t, memory.New(), nil, func(c *testConfig) { c.Session.FreshAge = time.Hour })
	ada, _ := short.user("ada@example.com", "report:read")
	b := short.signedIn(ada, time.Now().Add(-2*time.Hour))
	if status, out := b.post("/auth/api-keys", url.Values{"name": {"ci"}}); status != http.StatusForbidden || out["code"] != "fresh_sign_in" {
		t.Errorf("FreshAge 1h, signed in 2h ago: create = %d %v; want 403 fresh_sign_in", status, out)
	}

	long := newEnv(t, memory.New(), nil, func(c *testConfig) { c.Session.FreshAge = 48 * time.Hour })
	ada, _ = long.user("ada@example.com", "report:read")
	b = long.signedIn(ada, old())
	key, id := b.newKey("ci", "report:read", nil)
	if status, out := b.post("/auth/api-keys/"+id+"/rotate", nil); status != http.StatusOK || out["key"] == key {
		t.Errorf("FreshAge 48h, signed in 25h ago: rotate = %d %v; want 200", status, out)
	}
}

// TestKeysPageFreshSignIn: the page's create and rotate forms, posted
// with an old session, make nothing and come back to the page, which
// says to sign in again and links the sign-in page that comes back to
// it (in the page's language); a fresh session is not told so, and the
// old one may still see its keys and revoke one.
func TestKeysPageFreshSignIn(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	ada, b := e.user("ada@example.com", "report:read")
	key, id := b.newKey("ci", "report:read", nil)
	stale := e.signedIn(ada, old())
	refused := e.srv.URL + "/auth/api-keys?failed=fresh_sign_in"
	signIn := "/auth/signin?" + url.Values{"callbackUrl": {e.srv.URL + "/auth/api-keys"}}.Encode()

	for _, path := range []string{"/auth/api-keys", "/auth/api-keys/" + id + "/rotate"} {
		a := stale.page(http.MethodPost, path, url.Values{"name": {"stolen"}, "permissions": {"report:read"}})
		if a.status != http.StatusSeeOther || a.header.Get("Location") != refused {
			t.Fatalf("POST %s = %d to %q; want 303 to %s", path, a.status, a.header.Get("Location"), refused)
		}
		for _, c := range (&http.Response{Header: a.header}).Cookies() {
			if c.Name == "gatehouse.new-key" && c.MaxAge >= 0 {
				t.Errorf("POST %s kept a new key in its cookie", path)
			}
		}
		a = stale.page(http.MethodGet, "/auth/api-keys?failed=fresh_sign_in", nil)
		if a.status != http.StatusOK || !strings.Contains(a.body, "Sign in again to continue") ||
			!strings.Contains(a.body, `href="`+html.EscapeString(signIn)+`"`) || shownKey.MatchString(a.body) {
			t.Errorf("the page after POST %s = %d, without the notice and the link to %s:\n%s", path, a.status, signIn, a.body)
		}
	}
	if n := keyCount(t, b); n != 1 {
		t.Errorf("%d keys after the refused forms; want 1", n)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Errorf("the key stopped after a refused rotation: %d", status)
	}

	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/auth/api-keys?failed=fresh_sign_in", nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Accept-Language", "de")
	resp, err := stale.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(raw), "Erneut anmelden") {
		t.Error("the German notice is not in German")
	}

	// Signed in again since: the query says nothing any more.
	if a := b.page(http.MethodGet, "/auth/api-keys?failed=fresh_sign_in", nil); a.status != http.StatusOK ||
		strings.Contains(a.body, "Sign in again") || !strings.Contains(a.body, "gh_"+id) {
		t.Errorf("a fresh session's page with the query = %d, with the notice or without the keys", a.status)
	}

	if a := stale.page(http.MethodGet, "/auth/api-keys", nil); a.status != http.StatusOK || !strings.Contains(a.body, "gh_"+id) {
		t.Errorf("the old session's page = %d, without the key", a.status)
	}
	a := stale.page(http.MethodPost, "/auth/api-keys/"+id+"/revoke", url.Values{})
	if a.status != http.StatusSeeOther || a.header.Get("Location") != e.srv.URL+"/auth/api-keys?done=revoked" {
		t.Errorf("revoke with an old session = %d to %q; want 303 back to the page", a.status, a.header.Get("Location"))
	}
}
