package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
)

// outbox keeps the e-mail change messages sent.
type outbox struct {
	mu   sync.Mutex
	sent []admin.EmailChange
}

func (o *outbox) send(_ context.Context, m admin.EmailChange) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

func (o *outbox) all() []admin.EmailChange {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]admin.EmailChange(nil), o.sent...)
}

// TestChangeEmail: a signed-in user asks for a new address; the new
// address gets a single-use link, the old one a notice, and the address
// changes only when the link is followed. A taken address gets the same
// answer and nothing is sent; an old sign-in, a missing CSRF token, a
// wrong or used token change nothing.
func TestChangeEmail(t *testing.T) {
	t.Parallel()
	box := &outbox{}
	s := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{SendEmailChange: box.send})
	})
	bob := signedInAs(t, s, "bob")
	newBrowser(t).mustSignIn(s, "oidc", "carol")
	id := s.userID("bob@example.com")
	ask := func(b *browser, addr string, csrf bool) (int, map[string]any) {
		form := url.Values{"email": {addr}}
		if csrf {
			form.Set("csrfToken", b.csrf(s))
		}
		return decode(t, b.post(s.url+"/auth/account/email", form))
	}
	if code, v := ask(bob, "robert@example.com", false); code != http.StatusForbidden || v["error"] != "MissingCSRF" {
		t.Errorf("without the CSRF token: %d %v", code, v)
	}
	if code, v := ask(newBrowser(t), "robert@example.com", true); code != http.StatusUnauthorized {
		t.Errorf("nobody: %d %v; want 401", code, v)
	}
	if code, v := ask(bob, "not an address", true); code != http.StatusBadRequest {
		t.Errorf("a malformed address: %d %v; want 400", code, v)
	}
	// Taken: the same answer, nothing sent.
	if code, v := ask(bob, "Carol@Example.com", true); code != http.StatusOK || v["sent"] != true || len(box.all()) != 0 {
		t.Fatalf("a taken address: %d %v, %d messages; want 200 sent and none", code, v, len(box.all()))
	}
	if code, v := ask(bob, "Robert@Example.com", true); code != http.StatusOK || v["sent"] != true {
		t.Fatalf("ask: %d %v", code, v)
	}
	msgs := box.all()
	if len(msgs) != 2 || msgs[0].To != "robert@example.com" || msgs[0].URL == "" || msgs[0].Notice ||
		!msgs[1].Notice || msgs[1].To != "bob@example.com" || msgs[1].URL != "" || msgs[1].NewAddress != "robert@example.com" {
		t.Fatalf("messages %+v; want a link to the new address and a notice without one to the old", msgs)
	}
	if u, _ := s.db.GetUser(context.Background(), id); u.Email != "bob@example.com" {
		t.Fatalf("the address changed to %q before the link was followed", u.Email)
	}
	link, _ := url.Parse(msgs[0].URL)
	wrong := *link
	q := wrong.Query()
	q.Set("token", "x"+q.Get("token"))
	wrong.RawQuery = q.Encode()
	other := *link
	q = other.Query()
	q.Set("email", "mallory@example.com")
	other.RawQuery = q.Encode()
	for _, bad := range []*url.URL{&wrong, &other} {
		if code, v := decode(t, newBrowser(t).Get(bad.String())); code != http.StatusForbidden || v["code"] != "invalid_token" {
			t.Errorf("an altered link: %d %v; want 403 invalid_token", code, v)
		}
	}
	if code, v := decode(t, newBrowser(t).Get(link.String())); code != http.StatusOK || v["email"] != "robert@example.com" {
		t.Fatalf("following the link: %d %v", code, v)
	}
	u, err := s.db.GetUser(context.Background(), id)
	if err != nil || u.Email != "robert@example.com" || u.EmailVerified == nil || time.Since(*u.EmailVerified) > time.Minute {
		t.Fatalf("after the link: %+v, %v", u, err)
	}
	if code, _ := decode(t, newBrowser(t).Get(link.String())); code != http.StatusForbidden {
		t.Errorf("the link used twice: %d; want 403", code)
	}

	// An old sign-in is not enough; without SendEmailChange the route is not there.
	stale := newSite(t, newOP(t), memory.New(), func(c *gatehouse.Config) {
		c.Admin = admin.Enable(admin.Config{SendEmailChange: box.send})
		c.Session.FreshAge = time.Millisecond
	})
	old := newBrowser(t)
	old.mustSignIn(stale, "oidc", "bob")
	time.Sleep(5 * time.Millisecond)
	if code, v := decode(t, old.post(stale.url+"/auth/account/email", url.Values{"csrfToken": {old.csrf(stale)}, "email": {"x@example.com"}})); code != http.StatusForbidden || v["code"] != "fresh_sign_in" {
		t.Errorf("an old sign-in: %d %v; want 403 fresh_sign_in", code, v)
	}
	off := newSite(t, newOP(t), memory.New(), nil)
	if resp := newBrowser(t).Get(off.url + "/auth/account/email/confirm"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("without SendEmailChange: %d; want 404", resp.StatusCode)
	}
}
