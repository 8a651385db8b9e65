package sessions

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// revokingStore is a memory adapter on which an administrator ends the
// user's sessions (package admin's revoke-sessions: RevokedBefore stored,
// then the database sessions deleted) while a session is being made,
// just before its row is inserted.
type revokingStore struct {
	*memory.Adapter
}

func (s revokingStore) CreateSession(ctx context.Context, sess adapter.Session) (adapter.Session, error) {
	if err := s.RevokeSessions(ctx, sess.UserID, time.Now()); err != nil {
		return adapter.Session{}, err
	}
	if _, err := s.DeleteUserSessions(ctx, sess.UserID); err != nil {
		return adapter.Session{}, err
	}
	return s.Adapter.CreateSession(ctx, sess)
}

// wantRevoked fails the test unless err is the refusal of a sign-in whose
// user's sessions were ended while it was in progress.
func wantRevoked(t *testing.T, err error) {
	t.Helper()
	var e *autherr.Error
	if !errors.As(err, &e) || e.Type != autherr.AccessDenied || e.Code != "revoked" {
		t.Fatalf("Issue = %v; want AccessDenied (revoked)", err)
	}
}

// TestIssueRevokedMeanwhile: a revocation stored while Issue makes a
// database session deletes the sessions before the new row exists; Issue
// finds it after inserting the row, deletes the row and refuses the
// sign-in.
func TestIssueRevokedMeanwhile(t *testing.T) {
	ctx := context.Background()
	st := revokingStore{memory.New()}
	u, err := st.CreateUser(ctx, adapter.User{Email: "alice@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{Database: true, Adapter: st, Admin: st, Secret: []string{strings.Repeat("s", MinSecretLen)}, MaxAge: time.Hour, UpdateAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	b := (&site.Resolver{Path: "/auth"}).New("http", "app.test")
	r := httptest.NewRequest(http.MethodPost, "http://app.test/auth/callback/dev", nil)
	w := httptest.NewRecorder()
	res := signin.Result{Account: &account.Account{Provider: "dev"}}
	wantRevoked(t, m.Issue(ctx, w, r, b, profile.User{ID: u.ID}, res, false))
	if list, err := st.ListSessions(ctx, u.ID); err != nil || len(list) != 0 {
		t.Errorf("sessions after the refused sign-in: %d, %v; want none", len(list), err)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == b.Cookies.Session && c.Value != "" {
			t.Errorf("the refused sign-in wrote a session cookie")
		}
	}
}

// TestIssueBeganBeforeRevocation: a sign-in is judged by when it began
// (Result.Began), not by when its session is made. With either strategy,
// one begun before a revocation is refused; a JWT session whose sign-in
// began before a revocation stored after Issue is refused at its next
// read; and one begun after the revocation lives.
func TestIssueBeganBeforeRevocation(t *testing.T) {
	for name, database := range map[string]bool{"database": true, "jwt": false} {
		t.Run(name, func(t *testing.T) {
			testIssueBeganBeforeRevocation(t, database)
		})
	}
}

// testIssueBeganBeforeRevocation is TestIssueBeganBeforeRevocation with
// database or JWT sessions.
func testIssueBeganBeforeRevocation(t *testing.T, database bool) {
	ctx := context.Background()
	st := memory.New()
	u, err := st.CreateUser(ctx, adapter.User{Email: "alice@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{Database: database, Adapter: st, Admin: st, Secret: []string{strings.Repeat("s", MinSecretLen)}, MaxAge: time.Hour, UpdateAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	b := (&site.Resolver{Path: "/auth"}).New("http", "app.test")
	issue := func(began time.Time) (*http.Request, error) {
		r := httptest.NewRequest(http.MethodPost, "http://app.test/auth/two-factor", nil)
		w := httptest.NewRecorder()
		res := signin.Result{Account: &account.Account{Provider: "dev"}, Began: began}
		if err := m.Issue(ctx, w, r, b, profile.User{ID: u.ID, Email: "alice@example.com"}, res, false); err != nil {
			return nil, err
		}
		next := httptest.NewRequest(http.MethodGet, "http://app.test/auth/session", nil)
		for _, c := range w.Result().Cookies() {
			next.AddCookie(c)
		}
		return next, nil
	}
	signedIn := func(r *http.Request) bool {
		s, err := m.Read(httptest.NewRecorder(), r, b)
		if err != nil {
			t.Fatal(err)
		}
		return s != nil
	}

	// The first factor a minute ago, the revocation since.
	firstFactor := time.Now().Add(-time.Minute)
	if err := st.RevokeSessions(ctx, u.ID, firstFactor.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = issue(firstFactor)
	wantRevoked(t, err)
	if list, err := st.ListSessions(ctx, u.ID); err != nil || len(list) != 0 {
		t.Errorf("sessions after the refused sign-in: %d, %v; want none", len(list), err)
	}
	// Begun after the revocation: signed in.
	r, err := issue(firstFactor.Add(2 * time.Second))
	if err != nil || !signedIn(r) {
		t.Fatalf("a sign-in begun after the revocation: %v", err)
	}
	if database {
		return // the revocation's deletion of the rows ends those
	}
	// A revocation stored after Issue, between the first factor and
	// the session: the token says when the sign-in began.
	if err := st.RevokeSessions(ctx, u.ID, firstFactor.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if signedIn(r) {
		t.Error("a JWT session whose sign-in began before a revocation outlived it")
	}
}
