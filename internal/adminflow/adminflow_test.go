package adminflow

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// fakeHost is the handler as the routes see it: who is signed in, and
// since when.
type fakeHost struct {
	user string
	at   time.Time
	err  error
}

func (h *fakeHost) CurrentUser(context.Context, *http.Request) (string, time.Time, error) {
	return h.user, h.at, h.err
}
func (*fakeHost) CheckPost(r *http.Request, _ string) (url.Values, *autherr.Error) {
	return r.PostForm, nil
}
func (*fakeHost) SignOutHere(http.ResponseWriter, *http.Request) {}
func (*fakeHost) URL(_ *http.Request, parts ...string) string {
	return "https://app.test/auth/" + parts[0]
}
func (*fakeHost) Impersonate(http.ResponseWriter, *http.Request, string, string, time.Time) error {
	return nil
}
func (*fakeHost) StopImpersonating(http.ResponseWriter, *http.Request) (string, string, bool) {
	return "", "", false
}
func (*fakeHost) CSRFToken(http.ResponseWriter, *http.Request) string { return "tok" }
func (*fakeHost) Render(w http.ResponseWriter, _ *http.Request, status int, page any) {
	_ = pages.Render(w, status, page)
}
func (*fakeHost) Text(_ *http.Request, key string, args ...any) string {
	return pages.Text("en", key, args...)
}
func (*fakeHost) Redirect(w http.ResponseWriter, r *http.Request, target string) {
	http.Redirect(w, r, target, http.StatusSeeOther)
}
func (*fakeHost) Fail(w http.ResponseWriter, _ *http.Request, e *autherr.Error) {
	http.Error(w, string(e.Type), http.StatusServiceUnavailable)
}
func (*fakeHost) Origin(*http.Request) string { return "https://app.test" }

// TestDoor: only an administrator, named in Config or by the stored role,
// gets past the door of the admin routes, and a fresh sign-in is told
// apart from an old one.
func TestDoor(t *testing.T) {
	ctx := context.Background()
	m := memory.New()
	now := time.Now()
	named, _ := m.CreateUser(ctx, adapter.User{Email: "root@example.com", EmailVerified: &now})
	stored, _ := m.CreateUser(ctx, adapter.User{Email: "ops@example.com"})
	plain, _ := m.CreateUser(ctx, adapter.User{Email: "bob@example.com"})
	unverified, _ := m.CreateUser(ctx, adapter.User{Email: "boss@example.com"})
	if err := m.SetUserRole(ctx, stored.ID, admin.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	host := &fakeHost{}
	s := New(Config{Admin: &admin.Config{Emails: []string{"ROOT@example.com", "boss@example.com"}}, Adapter: m, Store: m,
		FreshAge: 10 * time.Minute, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, host)
	for _, tc := range []struct {
		name   string
		user   string
		at     time.Time
		err    error
		status int // 0: let in
		fresh  bool
	}{
		{"nobody", "", time.Time{}, nil, http.StatusUnauthorized, false},
		{"store down", "", time.Time{}, errors.New("down"), http.StatusServiceUnavailable, false},
		{"a user", plain.ID, now, nil, http.StatusForbidden, false},
		{"an unproven address named in Config", unverified.ID, now, nil, http.StatusForbidden, false},
		{"named, fresh", named.ID, now.Add(-time.Minute), nil, 0, true},
		{"stored role, old sign-in", stored.ID, now.Add(-time.Hour), nil, 0, false},
	} {
		host.user, host.at, host.err = tc.user, tc.at, tc.err
		w := httptest.NewRecorder()
		a, ok := s.door(ctx, w, httptest.NewRequest(http.MethodGet, "/auth/admin/users", nil))
		switch {
		case tc.status != 0 && (ok || w.Code != tc.status):
			t.Errorf("%s: let in %v, answered %d; want %d", tc.name, ok, w.Code, tc.status)
		case tc.status == 0 && (!ok || a.id != tc.user || a.fresh != tc.fresh):
			t.Errorf("%s: let in %v as %+v; want %s, fresh %v", tc.name, ok, a, tc.user, tc.fresh)
		}
	}
}

// An e-mail change token names the user and the address: one made for
// one user, or one address, is not the identifier of another.
func TestChangeIdentifier(t *testing.T) {
	a := changeIdentifier("u1", "new@example.com")
	for _, other := range []string{changeIdentifier("u2", "new@example.com"), changeIdentifier("u1", "other@example.com"),
		changeIdentifier("u1\x00new@example.com", ""), changeIdentifier("u1", "new@example.com\x00")} {
		if other == a {
			t.Errorf("identifier %q is also another change's", other)
		}
	}
	if tokenHash("t") == tokenHash("u") || len(tokenHash("t")) != 64 {
		t.Error("tokenHash is not a SHA-256 of the token")
	}
}

// storeOnly is an admin.Store that is no admin.OwnerKeeper: what an
// application's own adapter might be.
type storeOnly struct {
	adapter.Adapter
	admin.Store
}

// TestSetupOwnerKeeper: with organizations on, the routes need a store
// that keeps organizations' owners when it deletes a user; without them,
// any admin.Store does.
func TestSetupOwnerKeeper(t *testing.T) {
	m := memory.New()
	plain := storeOnly{m, m}
	if _, err := Setup(Config{Admin: &admin.Config{}, Adapter: plain}, &fakeHost{}); err != nil {
		t.Errorf("organizations off, an admin.Store: %v", err)
	}
	_, err := Setup(Config{Admin: &admin.Config{}, Adapter: plain, Organizations: true}, &fakeHost{})
	var ce *autherr.ConfigError
	if !errors.As(err, &ce) || ce.Field != "Admin" {
		t.Errorf("organizations on, no admin.OwnerKeeper: %v; want a ConfigError on Admin", err)
	}
	s, err := Setup(Config{Admin: &admin.Config{}, Adapter: m, Organizations: true}, &fakeHost{})
	if err != nil || s.cfg.Owners == nil {
		t.Errorf("organizations on, the memory adapter: %v, Owners %v", err, s.cfg.Owners)
	}
}
