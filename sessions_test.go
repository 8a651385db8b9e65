package gatehouse_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
)

func (b *browser) sessions(a *app) (int, []map[string]any) { return b.getList(a, "/auth/sessions") }

func (b *browser) revoke(a *app, path string, form url.Values) int {
	b.t.Helper()
	form.Set("csrfToken", b.csrf(a))
	resp := b.post(a.url+"/auth/sessions/"+path, form)
	resp.Body.Close()
	return resp.StatusCode
}

// TestSessionManagement: GET {base}/sessions lists the user's sessions
// (this browser's marked current, no token or hash), POST revoke ends one
// by id and revoke-others every other; the event is told.
func TestSessionManagement(t *testing.T) {
	st := openStore(t, "memory")
	revoked := 0
	a, _ := newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Events.RevokeSessions = func(_ context.Context, _ profile.User, n int) { revoked += n }
	})
	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)

	code, list := laptop.sessions(a)
	if code != http.StatusOK || len(list) != 2 {
		t.Fatalf("sessions: %d %v", code, list)
	}
	var other string
	for _, s := range list {
		if s["current"] != true {
			other = s["id"].(string)
		}
		if id := s["id"].(string); len(id) != 24 || id == laptop.cookie(a, sessionCookie) {
			t.Fatalf("session id %q", id)
		}
		// When and by what each session was made: a coarse device, never
		// the raw User-Agent header.
		created, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(s["created"]))
		if s["device"] != "Go HTTP client" || time.Since(created) > time.Minute || s["lastSeen"] != s["created"] {
			t.Fatalf("session metadata: %v", s)
		}
	}
	if other == "" {
		t.Fatalf("no session other than the current one: %v", list)
	}
	if code := laptop.revoke(a, "revoke", url.Values{"id": {"nope"}}); code != http.StatusNotFound {
		t.Fatalf("revoking an unknown id: %d", code)
	}
	if code := laptop.revoke(a, "revoke", url.Values{"id": {other}}); code != http.StatusOK {
		t.Fatalf("revoke: %d", code)
	}
	if s := phone.session(a); s != nil {
		t.Fatalf("the revoked phone is still signed in: %v", s)
	}
	if s := laptop.session(a); s == nil {
		t.Fatal("revoking the phone signed the laptop out")
	}

	signedIn(t, a, phone)
	tablet := newBrowser(t)
	signedIn(t, a, tablet)
	if code := laptop.revoke(a, "revoke-others", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-others: %d", code)
	}
	if phone.session(a) != nil || tablet.session(a) != nil || laptop.session(a) == nil {
		t.Fatal("revoke-others did not end exactly the other sessions")
	}
	if revoked != 3 {
		t.Fatalf("RevokeSessions told of %d sessions, want 3", revoked)
	}
	if _, list := laptop.sessions(a); len(list) != 1 || list[0]["current"] != true {
		t.Fatalf("after revoke-others: %v", list)
	}
	// Another site cannot end them.
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/sessions/revoke-others", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp := laptop.do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site revoke: %d", resp.StatusCode)
	}
}

// TestSessionManagementJWT: JWT sessions cannot be listed, and say so.
func TestSessionManagementJWT(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	signedIn(t, a, b)
	if code, _ := b.sessions(a); code != http.StatusNotImplemented {
		t.Fatalf("GET sessions with JWT sessions: %d", code)
	}
}

// TestSessionsPageSignedOut: a browser that is not signed in is sent to
// sign in and back to the sessions page; a script gets 401.
func TestSessionsPageSignedOut(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodGet, a.url+"/auth/sessions", nil)
	req.Header.Set("Accept", "text/html")
	resp := b.do(req)
	resp.Body.Close()
	want := a.url + "/auth/signin?callbackUrl=" + url.QueryEscape(a.url+"/auth/sessions")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != want {
		t.Fatalf("signed-out page: %d to %q, want 302 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	if code, _ := b.sessions(a); code != http.StatusUnauthorized {
		t.Fatalf("signed-out JSON: %d, want 401", code)
	}
}

// TestSessionsRevokeAll: POST {base}/sessions/revoke-all ends every
// session of the user, this browser's too, and clears its cookie.
func TestSessionsRevokeAll(t *testing.T) {
	a, _ := newDBApp(t, openStore(t, "memory"), authtest.Options{}, nil)
	laptop, phone := newBrowser(t), newBrowser(t)
	signedIn(t, a, laptop)
	signedIn(t, a, phone)
	if code := laptop.revoke(a, "revoke-all", url.Values{}); code != http.StatusOK {
		t.Fatalf("revoke-all: %d", code)
	}
	if laptop.session(a) != nil || phone.session(a) != nil {
		t.Fatal("a session outlived revoke-all")
	}
	if laptop.cookie(a, sessionCookie) != "" {
		t.Fatal("this browser's session cookie was not cleared")
	}
}
