package credentialsflow

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const goodCSRF = "csrf-ok"

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// log records, in order, the limiters' and Authorize's steps.
type log struct {
	mu    sync.Mutex
	steps []string
}

func (l *log) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.steps = append(l.steps, s)
}

func (l *log) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.steps)
}

// recLimiter is a limit.Memory that logs each call under its name.
type recLimiter struct {
	name string
	*limit.Memory
	log *log
	err error // Reserve's error, when set
}

func (l *recLimiter) Reserve(ctx context.Context, key string) (time.Duration, error) {
	l.log.add("reserve " + l.name)
	if l.err != nil {
		return 0, l.err
	}
	return l.Memory.Reserve(ctx, key)
}

func (l *recLimiter) Release(ctx context.Context, key string) error {
	l.log.add("release " + l.name)
	return l.Memory.Release(ctx, key)
}

func (l *recLimiter) Reset(ctx context.Context, key string) error {
	l.log.add("reset " + l.name)
	return l.Memory.Reset(ctx, key)
}

// fakeHost records what the flow asked of the Handler.
type fakeHost struct {
	flowtest.Throttles
	flowtest.Finishes
	kept   []string // field=identifier
	failed []*autherr.Error
}

func (h *fakeHost) CSRFOK(_ *http.Request, submitted string) bool { return submitted == goodCSRF }
func (h *fakeHost) KeepTyped(_ http.ResponseWriter, _ *http.Request, _, field, identifier string) {
	h.kept = append(h.kept, field+"="+identifier)
}
func (h *fakeHost) URL(_ *http.Request, parts ...string) string {
	return "https://app.test/auth/" + strings.Join(parts, "/")
}
func (h *fakeHost) Fail(_ http.ResponseWriter, _ *http.Request, e *autherr.Error) {
	h.failed = append(h.failed, e)
}

// setup returns a prepared provider whose Authorize answers with auth
// and logs its calls, and whose limiters (pair, ident, client: per
// identifier and address, per identifier, per address) log theirs.
func setup(t *testing.T, pair, ident, client int, auth authorizeFunc) (*Config, *log, map[string]*recLimiter) {
	t.Helper()
	l := &log{}
	lims := map[string]*recLimiter{
		"pair":   {name: "pair", Memory: limit.NewMemory(pair, time.Hour), log: l},
		"ident":  {name: "ident", Memory: limit.NewMemory(ident, time.Hour), log: l},
		"client": {name: "client", Memory: limit.NewMemory(client, time.Hour), log: l},
	}
	c := &Config{
		ID: "pw", Name: "Password", IdentifierField: "email",
		Fields: []pages.Field{{Name: "email"}, {Name: "password"}},
		Authorize: func(ctx context.Context, creds map[string]string, r *http.Request) (*profile.User, error) {
			l.add("authorize")
			return auth(ctx, creds, r)
		},
		PerIdentifierAndIP: lims["pair"], PerIdentifier: lims["ident"], PerIP: lims["client"],
		ClientIP:                          remoteIP,
		AllowDangerousEmailAccountLinking: true,
	}
	return c, l, lims
}

type authorizeFunc = func(ctx context.Context, creds map[string]string, r *http.Request) (*profile.User, error)

// remoteIP is the host of r.RemoteAddr.
func remoteIP(r *http.Request) string {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	return host
}

func post(form url.Values) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/auth/callback/pw", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = "192.0.2.7:4321"
	return r
}

func creds(email, password string) url.Values {
	return url.Values{"csrfToken": {goodCSRF}, "email": {email}, "password": {password}, "callbackUrl": {"/after"}}
}

// wrongPassword is an Authorize that refuses every guess.
func wrongPassword(context.Context, map[string]string, *http.Request) (*profile.User, error) {
	return nil, ErrInvalid
}

// TestRefusedBeforeCounting: a GET and a POST without the right CSRF
// token are refused before any attempt is counted or Authorize runs.
func TestRefusedBeforeCounting(t *testing.T) {
	c, l, _ := setup(t, 5, 5, 5, wrongPassword)
	h := &fakeHost{}

	get := httptest.NewRequest(http.MethodGet, "/auth/callback/pw?email=a&password=b", nil)
	e := flowtest.AsAuthErr(t, SignIn(httptest.NewRecorder(), get, c, false, h, quiet))
	if e.Type != autherr.CredentialsSignin || e.Code != "method" {
		t.Errorf("GET: %v, want CredentialsSignin (method)", e)
	}

	for _, tok := range []string{"", "forged"} {
		form := creds("ada@example.com", "pw")
		form.Set("csrfToken", tok)
		e := flowtest.AsAuthErr(t, SignIn(httptest.NewRecorder(), post(form), c, false, h, quiet))
		if e.Type != autherr.MissingCSRF || e.Provider != "pw" {
			t.Errorf("CSRF %q: %v, want MissingCSRF at pw", tok, e)
		}
	}
	if steps := l.get(); len(steps) != 0 {
		t.Errorf("refused requests were counted or authorized: %q", steps)
	}
	if len(h.Finished)+len(h.kept)+len(h.TooMany) != 0 {
		t.Errorf("host was asked %+v", h)
	}
}

// TestReservedBeforeAuthorize: every limit is reserved (address, pair,
// identifier) before Authorize runs, and a wrong guess stays counted.
func TestReservedBeforeAuthorize(t *testing.T) {
	c, l, _ := setup(t, 5, 5, 5, wrongPassword)
	h := &fakeHost{}
	e := flowtest.AsAuthErr(t, SignIn(httptest.NewRecorder(), post(creds("Ada@Example.com", "guess")), c, false, h, quiet))
	if e.Type != autherr.CredentialsSignin || e.Code != "credentials" {
		t.Errorf("wrong guess: %v, want CredentialsSignin (credentials)", e)
	}
	want := []string{"reserve client", "reserve pair", "reserve ident", "authorize"}
	if got := l.get(); !slices.Equal(got, want) {
		t.Errorf("steps = %q, want %q", got, want)
	}
	if !slices.Equal(h.kept, []string{"email=Ada@Example.com"}) {
		t.Errorf("kept = %q, want the typed identifier", h.kept)
	}
}

// TestLockedOut: past the per-identifier-and-address limit the answer is
// the host's TooManyAttempts with the wait, Authorize is not asked (a
// right guess is not told apart), and the identifier is counted under
// its normalized form.
func TestLockedOut(t *testing.T) {
	right := false
	c, l, _ := setup(t, 2, 100, 100, func(context.Context, map[string]string, *http.Request) (*profile.User, error) {
		if right {
			return &profile.User{ID: "u1"}, nil
		}
		return nil, ErrInvalid
	})
	h := &fakeHost{}
	for _, email := range []string{"ada@example.com", "ADA@example.com "} {
		if err := SignIn(httptest.NewRecorder(), post(creds(email, "wrong")), c, false, h, quiet); !errors.Is(err, autherr.CredentialsSignin) {
			t.Fatalf("guess for %q: %v", email, err)
		}
	}
	right = true
	w := httptest.NewRecorder()
	if err := SignIn(w, post(creds("Ada@example.com", "right")), c, false, h, quiet); err != nil {
		t.Fatalf("locked-out attempt: %v, want nil (answered by the host)", err)
	}
	if len(h.TooMany) != 1 || h.TooMany[0] <= 0 || h.TooMany[0] > time.Hour {
		t.Errorf("TooManyAttempts waits = %v, want one wait within the window", h.TooMany)
	}
	if w.Code != http.StatusTooManyRequests || len(h.Finished) != 0 {
		t.Errorf("locked out: status %d, finished %d", w.Code, len(h.Finished))
	}
	if n := strings.Count(strings.Join(l.get(), ","), "authorize"); n != 2 {
		t.Errorf("Authorize ran %d times, want 2 (not when locked out)", n)
	}
	// Another identifier from the same address is not locked out.
	if err := SignIn(httptest.NewRecorder(), post(creds("bob@example.com", "right")), c, false, h, quiet); err != nil || len(h.Finished) != 1 {
		t.Errorf("another identifier: %v, finished %d", err, len(h.Finished))
	}
}

// TestLimiterError: a failing limiter refuses (fail closed) without
// asking Authorize, and gives back what it reserved.
func TestLimiterError(t *testing.T) {
	c, l, lims := setup(t, 5, 5, 5, wrongPassword)
	lims["ident"].err = errors.New("store down")
	e := flowtest.AsAuthErr(t, SignIn(httptest.NewRecorder(), post(creds("ada@example.com", "pw")), c, false, &fakeHost{}, quiet))
	if e.Type != autherr.CallbackRouteError || e.Code != "limiter" {
		t.Errorf("limiter error: %v, want CallbackRouteError (limiter)", e)
	}
	want := []string{"reserve client", "reserve pair", "reserve ident", "release client", "release pair"}
	if got := l.get(); !slices.Equal(got, want) {
		t.Errorf("steps = %q, want %q", got, want)
	}
}

// TestAuthorizeErrors: a server error gives every attempt back; a
// *SignInError shows its code when it is public, else the generic one;
// a nil user is a wrong guess; a user without an ID is refused.
func TestAuthorizeErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		user     *profile.User
		err      error
		typ      autherr.Type
		code     string
		released bool
	}{
		{"server error", nil, errors.New("db down"), autherr.CallbackRouteError, "authorize", true},
		{"public code", nil, &SignInError{Code: "account_locked"}, autherr.CredentialsSignin, "account_locked", false},
		{"unsafe code", nil, &SignInError{Code: "<b>Locked</b>"}, autherr.CredentialsSignin, "credentials", false},
		{"nil user", nil, nil, autherr.CredentialsSignin, "credentials", false},
		{"no id", &profile.User{Email: "a@example.com"}, nil, autherr.CallbackRouteError, "id_missing", false},
	} {
		c, l, _ := setup(t, 5, 5, 5, func(context.Context, map[string]string, *http.Request) (*profile.User, error) {
			return tc.user, tc.err
		})
		h := &fakeHost{}
		err := SignIn(httptest.NewRecorder(), post(creds("ada@example.com", "pw")), c, false, h, quiet)
		e := flowtest.AsAuthErr(t, err)
		if e.Type != tc.typ || e.Code != tc.code {
			t.Errorf("%s: %v, want %s (%s)", tc.name, e, tc.typ, tc.code)
		}
		if tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("%s: the cause %v is lost", tc.name, tc.err)
		}
		steps := strings.Join(l.get(), ",")
		if got := strings.Contains(steps, "release"); got != tc.released {
			t.Errorf("%s: steps %q, released = %v, want %v", tc.name, steps, got, tc.released)
		}
		if len(h.Finished) != 0 {
			t.Errorf("%s: a refused sign-in was finished", tc.name)
		}
	}
}

// TestSuccess: the user is handed to FinishSignIn as an unbound
// credentials account of the provider, with the form's callback URL and
// a normalized e-mail; the identifier's counts are cleared and the
// address's attempt given back, its earlier failures kept.
func TestSuccess(t *testing.T) {
	c, l, lims := setup(t, 5, 5, 3, func(_ context.Context, cr map[string]string, _ *http.Request) (*profile.User, error) {
		if cr["password"] != "right" {
			return nil, ErrInvalid
		}
		return &profile.User{ID: "user-7", Email: "  Ada@Example.COM "}, nil
	})
	h := &fakeHost{}
	_ = SignIn(httptest.NewRecorder(), post(creds("eve@example.com", "wrong")), c, false, h, quiet)
	_ = SignIn(httptest.NewRecorder(), post(creds("ada@example.com", "wrong")), c, false, h, quiet)
	l.steps = nil
	if err := SignIn(httptest.NewRecorder(), post(creds("ada@example.com", "right")), c, false, h, quiet); err != nil {
		t.Fatal(err)
	}
	want := []string{"reserve client", "reserve pair", "reserve ident", "authorize", "reset pair", "reset ident", "release client"}
	if got := l.get(); !slices.Equal(got, want) {
		t.Errorf("steps = %q, want %q", got, want)
	}
	if len(h.Finished) != 1 {
		t.Fatalf("finished %d sign-ins, want 1", len(h.Finished))
	}
	res := h.Finished[0]
	if a := res.Account; a == nil || a.Type != account.TypeCredentials || a.Provider != "pw" || a.ProviderAccountID != "user-7" || a.UserID != "" {
		t.Errorf("account = %+v, want a credentials account of pw for user-7, no user id", a)
	}
	if res.User.ID != "user-7" || res.User.Email != "ada@example.com" {
		t.Errorf("user = %+v, want user-7 with a normalized e-mail", res.User)
	}
	if !res.Unbound || !res.AllowDangerousLinking || res.CallbackURL != "/after" || res.Persist != nil {
		t.Errorf("result = unbound %v, dangerous %v, callback %q, persist %v", res.Unbound, res.AllowDangerousLinking, res.CallbackURL, res.Persist != nil)
	}
	// The address keeps its two failures: one attempt is left of 3.
	ctx := context.Background()
	if wait, _ := lims["client"].Memory.Reserve(ctx, "ip:"+limit.IPKey("192.0.2.7")); wait != 0 {
		t.Error("the success was counted against the address")
	}
	if wait, _ := lims["client"].Memory.Reserve(ctx, "ip:"+limit.IPKey("192.0.2.7")); wait == 0 {
		t.Error("the address's earlier failures were forgotten")
	}
}

// TestStored: a stored user (the password-accounts provider's) is
// persisted as it is and its account names it as its user.
func TestStored(t *testing.T) {
	c, _, _ := setup(t, 5, 5, 5, func(context.Context, map[string]string, *http.Request) (*profile.User, error) {
		return &profile.User{ID: "stored-1", Email: "ada@example.com"}, nil
	})
	h := &fakeHost{}
	if err := SignIn(httptest.NewRecorder(), post(creds("ada@example.com", "pw")), c, true, h, quiet); err != nil {
		t.Fatal(err)
	}
	res := h.Finished[0]
	if res.Account.UserID != "stored-1" || res.Persist == nil {
		t.Fatalf("account user %q, persist %v", res.Account.UserID, res.Persist != nil)
	}
	u, created, err := res.Persist(context.Background())
	if err != nil || created || u.ID != "stored-1" {
		t.Errorf("Persist = %+v, %v, %v; want the stored user, not new", u, created, err)
	}
}

// TestFlow: the flow's routes: the sign-in page redirect, a callback
// failure handed to Fail as the sign-in's own error, the form posting to
// the callback with the CSRF token and every field.
func TestFlow(t *testing.T) {
	c, _, _ := setup(t, 5, 5, 5, wrongPassword)
	c.Fields[1].Type = "password"
	h := &fakeHost{}
	f := New(c, h, quiet)

	if got := f.Info(); got.ID != "pw" || got.Type != providers.TypeCredentials {
		t.Errorf("Info = %+v", got)
	}
	if f.CrossSiteCallback() {
		t.Error("a credentials form is taken as cross-site")
	}

	w := httptest.NewRecorder()
	f.SignIn(w, httptest.NewRequest(http.MethodPost, "/auth/signin/pw", nil), nil)
	if loc := w.Header().Get("Location"); loc != "https://app.test/auth/signin" {
		t.Errorf("SignIn redirects to %q", loc)
	}

	f.Callback(httptest.NewRecorder(), post(creds("ada@example.com", "wrong")))
	if len(h.failed) != 1 || h.failed[0].Type != autherr.CredentialsSignin || h.failed[0].Code != "credentials" {
		t.Errorf("Callback failures = %v, want the CredentialsSignin", h.failed)
	}

	form := string(f.Form("/auth", pages.HelperForm{CSRF: "tok-123", Callback: "/next"}))
	for _, want := range []string{`action="/auth/callback/pw"`, `value="tok-123"`, `name="email"`, `name="password"`, `type="password"`, `value="/next"`} {
		if !strings.Contains(form, want) {
			t.Errorf("form lacks %s:\n%s", want, form)
		}
	}

	page := &pages.SignIn{}
	f.AddTo(page, providers.AppProvider{ID: "pw", Name: "Password"}, nil)
	if len(page.Forms) != 1 {
		t.Fatalf("AddTo = %+v", page.Forms)
	}
	if c, ok := page.Forms[0].(pages.CredentialsForm); !ok || c.ID != "pw" || len(c.Fields) != 2 || c.Fields[1].Type != "password" {
		t.Errorf("AddTo = %+v", page.Forms)
	}
}
