package sessions

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/site"
)

// A read the cookie cache answers into a Buffer allocates nothing, and
// the session's EmailVerified is the request's own: an application that
// writes through it changes neither the cached copy nor another
// request's session.
func TestCookieCacheReadTo(t *testing.T) {
	ctx := context.Background()
	st := memory.New()
	verified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	u, err := st.CreateUser(ctx, adapter.User{Email: "alice@example.com", EmailVerified: &verified})
	if err != nil {
		t.Fatal(err)
	}
	token := RandomToken()
	if _, err := st.CreateSession(ctx, adapter.Session{Token: HashToken(token), UserID: u.ID, Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{Database: true, Adapter: st, Secret: []string{strings.Repeat("s", MinSecretLen)}, MaxAge: time.Hour,
		UpdateAge: time.Hour, CookieCache: time.Minute, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	b := (&site.Resolver{Path: "/auth"}).New("http", "app.test")
	r := httptest.NewRequest(http.MethodGet, "http://app.test/auth/session", nil)
	r.AddCookie(&http.Cookie{Name: b.Cookies.Session, Value: token})
	// The first read is the database's, and writes the copy.
	w := httptest.NewRecorder()
	if s, err := m.ReadTo(nil, w, r, b); err != nil || s == nil {
		t.Fatalf("the database read: %v, %v", s, err)
	}
	var copyCookie string
	for _, c := range w.Result().Cookies() {
		if c.Name == b.Cookies.SessionData {
			copyCookie = c.Value
		}
	}
	if copyCookie == "" {
		t.Fatal("no cookie cache copy written")
	}
	r.AddCookie(&http.Cookie{Name: b.Cookies.SessionData, Value: copyCookie})

	var one, two Buffer
	s1, err := m.ReadTo(&one, httpx.Discard{}, r, b)
	if err != nil || s1 != &one.Session || s1.User.EmailVerified == nil || !s1.User.EmailVerified.Equal(verified) {
		t.Fatalf("from the copy: %+v, %v", s1, err)
	}
	*s1.User.EmailVerified = time.Time{} // an application writing through it
	s2, err := m.ReadTo(&two, httpx.Discard{}, r, b)
	if err != nil || s2 == nil || s2.User.EmailVerified == s1.User.EmailVerified || !s2.User.EmailVerified.Equal(verified) {
		t.Fatalf("the next request's session: %+v, %v", s2, err)
	}
	if s3, _ := m.ReadTo(nil, httpx.Discard{}, r, b); s3 == nil || s3.User.EmailVerified == s2.User.EmailVerified || !s3.User.EmailVerified.Equal(verified) {
		t.Fatalf("a read without a Buffer: %+v", s3)
	}
	if n := testing.AllocsPerRun(100, func() { m.ReadTo(&two, httpx.Discard{}, r, b) }); n != 0 {
		t.Errorf("a read from the copy into a Buffer: %v allocations, want 0", n)
	}
}
