package finish

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

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/profile"
)

const secret = "a-secret-of-enough-length-for-tests"

// newFinisher returns a Finisher for http://app.test/auth: with a memory
// adapter (database sessions) when db, else without one (JWT sessions).
func newFinisher(t *testing.T, db bool) *Finisher {
	t.Helper()
	csrf, err := checks.NewCSRF([]string{secret})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	s := &site.Site{Resolver: &site.Resolver{Path: "/auth"}, CSRF: csrf, Logger: quiet}
	cfg := sessions.Config{Secret: []string{secret}, Logger: quiet, MaxAge: time.Hour, UpdateAge: time.Minute}
	f := &Finisher{}
	if db {
		m := memory.New()
		cfg.Database, cfg.Adapter = true, m
		f.Adapter, f.Linker = m, accountlink.Linker{Adapter: m}
	}
	m, err := sessions.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.Site = &Site{Site: s, Sessions: m}
	return f
}

// github is a sign-in by GitHub user 42.
func github() signin.Result {
	return signin.Result{User: profile.User{ID: "42", Email: "ada@example.com", Name: "Ada"},
		Account: &account.Account{Type: account.TypeOAuth, Provider: "github", ProviderAccountID: "42"}, CallbackURL: "/dash"}
}

// request is a request to the callback carrying the cookies of w.
func request(w *httptest.ResponseRecorder) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://app.test/auth/callback/github", nil)
	if w != nil {
		for _, c := range w.Result().Cookies() {
			r.AddCookie(c)
		}
	}
	return r
}

// signedIn returns who the browser holding w's cookies is signed in as.
func signedIn(t *testing.T, f *Finisher, w *httptest.ResponseRecorder) string {
	t.Helper()
	id, err := f.CurrentUserID(context.Background(), request(w))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestFinishSignIn: without a database the user is the provider's
// subject, scoped by the provider; the browser gets a session and goes to
// the sign-in's callback URL; Events.SignIn is told.
func TestFinishSignIn(t *testing.T) {
	f := newFinisher(t, false)
	var told []string
	f.SignedIn = func(_ context.Context, u profile.User, _ *account.Account, isNew bool) {
		told = append(told, u.ID)
	}
	w := httptest.NewRecorder()
	if err := f.FinishSignIn(w, request(nil), github()); err != nil {
		t.Fatal(err)
	}
	if loc := w.Header().Get("Location"); loc != "http://app.test/dash" {
		t.Errorf("Location %q, want the callback URL", loc)
	}
	if id := signedIn(t, f, w); id != "github:42" {
		t.Errorf("signed in as %q, want github:42", id)
	}
	if len(told) != 1 || told[0] != "github:42" {
		t.Errorf("Events.SignIn told %v", told)
	}
}

// TestFinishSignInRefused: the SignIn callback's refusal and error end
// the sign-in with AccessDenied and no session; its redirect replaces the
// callback URL, when same-origin.
func TestFinishSignInRefused(t *testing.T) {
	f := newFinisher(t, false)
	f.Allow = func(context.Context, *http.Request, signin.Result) (bool, string, error) { return false, "", nil }
	w := httptest.NewRecorder()
	if e := flowtest.AsAuthErr(t, f.FinishSignIn(w, request(nil), github())); e.Type != autherr.AccessDenied || e.Code != "signin_callback" {
		t.Errorf("refused: %v", e)
	}
	if signedIn(t, f, w) != "" {
		t.Error("a refused sign-in made a session")
	}
	f.Allow = func(context.Context, *http.Request, signin.Result) (bool, string, error) {
		return false, "", errors.New("down")
	}
	if e := flowtest.AsAuthErr(t, f.FinishSignIn(httptest.NewRecorder(), request(nil), github())); e.Type != autherr.AccessDenied {
		t.Errorf("callback error: %v", e)
	}
	for to, want := range map[string]string{"/welcome": "http://app.test/welcome", "https://evil.test/": "http://app.test/"} {
		f.Allow = func(context.Context, *http.Request, signin.Result) (bool, string, error) { return true, to, nil }
		w := httptest.NewRecorder()
		if err := f.FinishSignIn(w, request(nil), github()); err != nil {
			t.Fatal(err)
		}
		if loc := w.Header().Get("Location"); loc != want {
			t.Errorf("callback redirect %q: Location %q, want %q", to, loc, want)
		}
	}
}

// askAll is a second step every user must take.
type askAll struct{ asked []string }

func (a *askAll) Ask(_ context.Context, w http.ResponseWriter, _ *http.Request, u profile.User, _ signin.Result) (bool, error) {
	a.asked = append(a.asked, u.ID)
	w.WriteHeader(http.StatusSeeOther)
	return true, nil
}

// TestSecondStep: a user the second step asks gets no session yet.
func TestSecondStep(t *testing.T) {
	f := newFinisher(t, false)
	step := &askAll{}
	f.SecondStep = step
	w := httptest.NewRecorder()
	if err := f.FinishSignIn(w, request(nil), github()); err != nil {
		t.Fatal(err)
	}
	if len(step.asked) != 1 || step.asked[0] != "github:42" || signedIn(t, f, w) != "" {
		t.Errorf("asked %v, signed in as %q", step.asked, signedIn(t, f, w))
	}
}

// TestNewUserAndSameUser: with a database a first sign-in creates the
// user and goes to the new-user page; an unbound sign-in (credentials,
// e-mail link, passkey) for someone else while a user is signed in is
// refused, and the session left as it was.
func TestNewUserAndSameUser(t *testing.T) {
	f := newFinisher(t, true)
	f.NewUserPage = "/welcome"
	w := httptest.NewRecorder()
	if err := f.FinishSignIn(w, request(nil), github()); err != nil {
		t.Fatal(err)
	}
	if loc := w.Header().Get("Location"); loc != "/welcome?callbackUrl="+url.QueryEscape("http://app.test/dash") {
		t.Errorf("a new user went to %q", loc)
	}
	ada := signedIn(t, f, w)
	if ada == "" {
		t.Fatal("no session")
	}
	// Signed in as Ada, an e-mail link for Bob arrives.
	bob := signin.Result{User: profile.User{ID: "bob@example.com", Email: "bob@example.com"},
		Account: &account.Account{Type: account.TypeEmail, Provider: "email", ProviderAccountID: "bob@example.com"}, Unbound: true}
	w2 := httptest.NewRecorder()
	e := flowtest.AsAuthErr(t, f.FinishSignIn(w2, request(w), bob))
	if e.Type != autherr.AccountLinkMismatch || e.Code != "signed_in_as_other_user" || len(w2.Result().Cookies()) != 0 {
		t.Errorf("a sign-in for another user: %v, cookies %v", e, w2.Result().Cookies())
	}
	// Ada's own sign-in again is fine, and not new.
	w3 := httptest.NewRecorder()
	if err := f.FinishSignIn(w3, request(w), github()); err != nil || w3.Header().Get("Location") != "http://app.test/dash" {
		t.Errorf("Ada again: %v, Location %q", err, w3.Header().Get("Location"))
	}
}

// TestCheckBinding: a sign-in finishes in the browser and session that
// started it; another browser (CSRF cookie) or no recorded binding is
// InvalidCheck, another session AccountLinkMismatch.
func TestCheckBinding(t *testing.T) {
	f := newFinisher(t, false)
	browser := func(csrf string, session *httptest.ResponseRecorder) *http.Request {
		r := request(session)
		r.AddCookie(&http.Cookie{Name: f.For(r).Cookies.CSRF, Value: csrf})
		return r
	}
	recorded := f.Binding(browser("one", nil))
	if err := f.CheckBinding(browser("one", nil), "github", recorded); err != nil {
		t.Errorf("same browser: %v", err)
	}
	if e := flowtest.AsAuthErr(t, f.CheckBinding(browser("two", nil), "github", recorded)); e.Type != autherr.InvalidCheck || e.Code != "browser_mismatch" {
		t.Errorf("another browser: %v", e)
	}
	if e := flowtest.AsAuthErr(t, f.CheckBinding(browser("one", nil), "github", "")); e.Type != autherr.InvalidCheck {
		t.Errorf("no binding: %v", e)
	}
	w := httptest.NewRecorder()
	if err := f.FinishSignIn(w, request(nil), github()); err != nil {
		t.Fatal(err)
	}
	if e := flowtest.AsAuthErr(t, f.CheckBinding(browser("one", w), "github", recorded)); e.Type != autherr.AccountLinkMismatch {
		t.Errorf("signed in since: %v", e)
	}
}
