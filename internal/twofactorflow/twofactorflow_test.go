package twofactorflow_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

var names = cookies.NewNames(false, false)

type issued struct {
	user profile.User
	res  signin.Result
}

// fakeHost records what the step asked of the Handler. Its CSRF token
// is the browser's CSRF cookie; CheckPost wants the form's csrfToken to
// equal it.
type fakeHost struct {
	flowtest.Failures
	flowtest.Pages
	flowtest.Throttles
	issued      []issued
	rateLimited bool
}

func (h *fakeHost) CSRFToken(_ http.ResponseWriter, r *http.Request) string { return h.CSRFOf(r) }
func (h *fakeHost) CSRFOf(r *http.Request) string                           { return cookies.Value(r, names.CSRF) }
func (h *fakeHost) CheckPost(r *http.Request, step string) (url.Values, *autherr.Error) {
	if err := r.ParseForm(); err != nil {
		return nil, autherr.New(autherr.MissingCSRF, "csrf", "", step, err)
	}
	if tok := r.PostForm.Get("csrfToken"); tok == "" || tok != h.CSRFOf(r) {
		return nil, autherr.New(autherr.MissingCSRF, "csrf", "", step, nil)
	}
	return r.PostForm, nil
}
func (h *fakeHost) Cookies(*http.Request) cookies.Names { return names }
func (h *fakeHost) CallbackURL(_ *http.Request, raw string) string {
	if raw == "" {
		return "/"
	}
	return raw
}
func (h *fakeHost) URL(_ *http.Request, parts ...string) string {
	return "/auth/" + strings.Join(parts, "/")
}

func (h *fakeHost) RateLimited(w http.ResponseWriter, _ *http.Request, _ string) bool {
	if h.rateLimited {
		w.WriteHeader(http.StatusTooManyRequests)
	}
	return h.rateLimited
}
func (h *fakeHost) IssueSession(_ context.Context, _ http.ResponseWriter, _ *http.Request, user profile.User, res signin.Result) error {
	h.issued = append(h.issued, issued{user, res})
	return nil
}

// env is a step over a memory store holding ada, whose two-factor
// sign-in is on, and bob, whose is off.
type env struct {
	s        *twofactorflow.Step
	h        *fakeHost
	m        *memory.Adapter
	totp     twofactor.TOTP
	secret   string
	backup   []string
	ada, bob profile.User
	mu       sync.Mutex
	now      time.Time
	changes  []twofactor.Change
	signedIn []string
}

func (e *env) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

func (e *env) advance(d time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.now.Add(d)
}

func newEnv(t *testing.T, perPending int) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{h: &fakeHost{}, m: memory.New(), totp: twofactor.TOTP{Issuer: "Test"}, now: time.Now()}
	svc, err := twofactor.New(twofactor.Config{TOTP: e.totp, Secret: []string{"a-secret-of-enough-length-for-tests"}, Store: e.m, Now: e.clock})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ada", "bob"} {
		u, err := e.m.CreateUser(ctx, adapter.User{Email: name + "@example.com", Name: name})
		if err != nil {
			t.Fatal(err)
		}
		p := profile.User{ID: u.ID, Email: u.Email, Name: u.Name}
		if name == "ada" {
			e.ada = p
		} else {
			e.bob = p
		}
	}
	en, err := svc.Enroll(ctx, e.ada.ID, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	e.secret = en.Secret
	if e.backup, err = svc.Confirm(ctx, e.ada.ID, e.code(t)); err != nil {
		t.Fatal(err)
	}
	e.advance(time.Minute) // the enrolment's code is spent
	e.s = &twofactorflow.Step{
		Service:    svc,
		PerPending: limit.NewMemory(perPending, time.Hour),
		PerUser:    limit.NewMemory(100, time.Hour),
		Users:      e.m,
		Changed: func(_ context.Context, _ string, c twofactor.Change) {
			e.changes = append(e.changes, c)
		},
		SignedIn: func(_ context.Context, u profile.User, _ *account.Account, _ bool) {
			e.signedIn = append(e.signedIn, u.ID)
		},
		Host: e.h,
	}
	return e
}

// code is ada's TOTP code now.
func (e *env) code(t *testing.T) string {
	t.Helper()
	c, err := e.totp.Code(e.secret, e.clock())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func firstFactor() signin.Result {
	return signin.Result{Account: &account.Account{Provider: "dev"}, SID: "sid-1", CallbackURL: "/dash"}
}

// ask runs step 1 for user in the browser whose CSRF token is csrf, and
// returns the answer and whether the step was asked for.
func (e *env) ask(t *testing.T, user profile.User, res signin.Result, csrf string) (*httptest.ResponseRecorder, bool) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/auth/callback/dev", nil)
	r.AddCookie(&http.Cookie{Name: names.CSRF, Value: csrf})
	w := httptest.NewRecorder()
	asked, err := e.s.Ask(context.Background(), w, r, user, res)
	if err != nil {
		t.Fatal(err)
	}
	return w, asked
}

// pendingOf returns the pending cookie an answer set.
func pendingOf(t *testing.T, w *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	for _, c := range w.Result().Cookies() {
		if c.Name == names.TwoFactor && c.Value != "" {
			return c
		}
	}
	t.Fatal("no pending cookie was set")
	return nil
}

// adaPending runs step 1 for ada, signed in with firstFactor in the
// browser whose CSRF token is "tok-A", and returns the pending cookie it
// set.
func (e *env) adaPending(t *testing.T) *http.Cookie {
	t.Helper()
	w, _ := e.ask(t, e.ada, firstFactor(), "tok-A")
	return pendingOf(t, w)
}

// verify posts code to step 2 from a browser with the pending cookie and
// the CSRF token csrf (cookie and form field).
func (e *env) verify(pending *http.Cookie, csrf, code string, html bool) *httptest.ResponseRecorder {
	form := url.Values{"csrfToken": {csrf}, "code": {code}}
	r := httptest.NewRequest(http.MethodPost, "/auth/two-factor", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if html {
		r.Header.Set("Accept", "text/html")
	}
	r.AddCookie(&http.Cookie{Name: names.CSRF, Value: csrf})
	if pending != nil {
		r.AddCookie(&http.Cookie{Name: pending.Name, Value: pending.Value})
	}
	r.AddCookie(&http.Cookie{Name: names.CallbackURL, Value: "/dash"})
	w := httptest.NewRecorder()
	e.s.Verify(w, r)
	return w
}

func cleared(w *httptest.ResponseRecorder) bool { return clearedCookie(w, names.TwoFactor) }

// clearedCookie reports whether w clears the cookie name.
func clearedCookie(w *httptest.ResponseRecorder, name string) bool {
	for _, c := range w.Result().Cookies() {
		if c.Name == name && c.MaxAge < 0 {
			return true
		}
	}
	return false
}

// TestAskSkips: no second step when the user has not turned two-factor
// sign-in on, for a passkey that verified the user, or for the user the
// browser is signed in as.
func TestAskSkips(t *testing.T) {
	e := newEnv(t, 5)
	uv := firstFactor()
	uv.UserVerified = true
	same := firstFactor()
	same.SignedIn = e.ada.ID
	for name, tc := range map[string]struct {
		user profile.User
		res  signin.Result
	}{
		"not enabled":   {e.bob, firstFactor()},
		"user verified": {e.ada, uv},
		"same user":     {e.ada, same},
	} {
		w, asked := e.ask(t, tc.user, tc.res, "tok-A")
		if asked || len(w.Result().Cookies()) != 0 || w.Header().Get("Location") != "" {
			t.Errorf("%s: asked %v, cookies %v", name, asked, w.Result().Cookies())
		}
	}
}

// TestAsk: for an enrolled user the browser gets the sealed pending
// cookie and the callback URL, and is sent to the code form.
func TestAsk(t *testing.T) {
	e := newEnv(t, 5)
	w, asked := e.ask(t, e.ada, firstFactor(), "tok-A")
	if !asked {
		t.Fatal("not asked for a second factor")
	}
	if loc := w.Header().Get("Location"); loc != "/auth/two-factor" {
		t.Errorf("Location %q", loc)
	}
	p := pendingOf(t, w)
	if !p.HttpOnly || p.MaxAge <= 0 || p.MaxAge > int(twofactor.PendingMaxAge.Seconds()) {
		t.Errorf("pending cookie %+v", p)
	}
	if strings.Contains(p.Value, e.ada.ID) {
		t.Error("the pending cookie shows the user id")
	}
	var cb string
	for _, c := range w.Result().Cookies() {
		if c.Name == names.CallbackURL {
			cb = c.Value
		}
	}
	if cb != "/dash" {
		t.Errorf("callback-url cookie %q, want /dash", cb)
	}
	if len(e.h.issued) != 0 {
		t.Error("a session was made before the second factor")
	}
}

// TestVerify: a right code makes the session once, as the first factor's
// provider and sid, clears the pending cookie and goes to the callback
// URL; the same pending sign-in with another right code makes none.
func TestVerify(t *testing.T) {
	e := newEnv(t, 5)
	pending := e.adaPending(t)

	w := e.verify(pending, "tok-A", e.code(t), true)
	if len(e.h.Failed) != 0 || len(e.h.issued) != 1 {
		t.Fatalf("failed %v, issued %d", e.h.Failed, len(e.h.issued))
	}
	is := e.h.issued[0]
	if is.user.ID != e.ada.ID || is.res.Account.Provider != "dev" || is.res.SID != "sid-1" {
		t.Errorf("session for %q via %q sid %q", is.user.ID, is.res.Account.Provider, is.res.SID)
	}
	if loc := w.Header().Get("Location"); loc != "/dash" || !cleared(w) {
		t.Errorf("Location %q, pending cleared %v", loc, cleared(w))
	}
	// The sign-in is over: its callback-url cookie is not left for the
	// signed-in browser to send with every request.
	if !clearedCookie(w, names.CallbackURL) {
		t.Error("the callback-url cookie is kept after the sign-in")
	}
	if len(e.signedIn) != 1 || e.signedIn[0] != e.ada.ID {
		t.Errorf("SignedIn events %q", e.signedIn)
	}

	e.verify(pending, "tok-A", e.backup[0], true)
	if f := e.h.LastFail(t); f.Type != autherr.TwoFactorFailed || f.Code != "two_factor_used" {
		t.Errorf("reused pending sign-in: %v, want TwoFactorFailed (two_factor_used)", f)
	}
	if len(e.h.issued) != 1 {
		t.Error("a used pending sign-in made a second session")
	}
}

// TestVerifyBegan: the session made after the code says the sign-in began
// with its first factor, minutes before the code: a revocation of the
// user's sessions stored in between refuses it (internal/sessions).
func TestVerifyBegan(t *testing.T) {
	e := newEnv(t, 5)
	first := e.clock()
	pending := e.adaPending(t)
	e.advance(3 * time.Minute)
	e.verify(pending, "tok-A", e.code(t), false)
	if len(e.h.issued) != 1 {
		t.Fatalf("failed %v", e.h.Failed)
	}
	// The pending cookie keeps the time to the second.
	if began := e.h.issued[0].res.Began; began.Before(first.Add(-time.Second)) || began.After(first) {
		t.Errorf("Began %v; want the first factor's time, %v", began, first)
	}
}

// TestVerifyBackupCode: a backup code signs in and is reported as used.
func TestVerifyBackupCode(t *testing.T) {
	e := newEnv(t, 5)
	e.verify(e.adaPending(t), "tok-A", e.backup[1], false)
	if len(e.h.issued) != 1 {
		t.Fatalf("failed %v", e.h.Failed)
	}
	if len(e.changes) != 1 || e.changes[0] != twofactor.BackupCodeUsed {
		t.Errorf("changes %q, want backup_code_used", e.changes)
	}
}

// TestVerifyOtherBrowser: a pending cookie bound to another CSRF token
// (planted from another browser) is refused and cleared, even with a
// right code, before any attempt is counted.
func TestVerifyOtherBrowser(t *testing.T) {
	e := newEnv(t, 1)
	pending := e.adaPending(t)
	w := e.verify(pending, "tok-B", e.code(t), true)
	if f := e.h.LastFail(t); f.Type != autherr.TwoFactorFailed || f.Code != "two_factor_invalid" {
		t.Errorf("other browser: %v, want TwoFactorFailed (two_factor_invalid)", f)
	}
	if len(e.h.issued) != 0 || !cleared(w) {
		t.Errorf("issued %d, cleared %v", len(e.h.issued), cleared(w))
	}
	// Nothing was counted: the real browser still has its one attempt.
	e.verify(pending, "tok-A", e.code(t), true)
	if len(e.h.issued) != 1 {
		t.Errorf("the right browser was refused: %v", e.h.Failed)
	}
}

// TestVerifyRefusals: no pending cookie, a forged one, an expired one, a
// POST without the CSRF token, and a rate-limited client make no session.
func TestVerifyRefusals(t *testing.T) {
	e := newEnv(t, 5)
	pending := e.adaPending(t)

	e.verify(nil, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Code != "two_factor_invalid" {
		t.Errorf("no cookie: %v", f)
	}
	// Changed in its middle: a change to the last character alone can
	// fall in bits base64 decoding drops.
	v, mid, c := pending.Value, len(pending.Value)/2, byte('A')
	if v[mid] == c {
		c = 'B'
	}
	e.verify(&http.Cookie{Name: names.TwoFactor, Value: v[:mid] + string(c) + v[mid+1:]}, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Code != "two_factor_invalid" {
		t.Errorf("forged cookie: %v", f)
	}

	form := url.Values{"code": {e.code(t)}}
	r := httptest.NewRequest(http.MethodPost, "/auth/two-factor", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(&http.Cookie{Name: names.CSRF, Value: "tok-A"})
	r.AddCookie(&http.Cookie{Name: pending.Name, Value: pending.Value})
	e.s.Verify(httptest.NewRecorder(), r)
	if f := e.h.LastFail(t); f.Type != autherr.MissingCSRF {
		t.Errorf("no CSRF token: %v", f)
	}

	e.h.rateLimited = true
	n := len(e.h.Failed)
	if w := e.verify(pending, "tok-A", e.code(t), true); w.Code != http.StatusTooManyRequests || len(e.h.Failed) != n {
		t.Errorf("rate limited: %d, failures %v", w.Code, e.h.Failed[n:])
	}
	e.h.rateLimited = false

	e.advance(twofactor.PendingMaxAge + time.Second)
	e.verify(pending, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Type != autherr.TwoFactorFailed || f.Code != "two_factor_expired" {
		t.Errorf("expired: %v", f)
	}
	if len(e.h.issued) != 0 {
		t.Errorf("a refused request made a session")
	}
}

// TestVerifyAttempts: wrong codes are answered 401 (the form again, or
// JSON) and reported; past the per-pending limit the pending sign-in is
// spent: refused, and unusable even with a right code afterwards.
func TestVerifyAttempts(t *testing.T) {
	e := newEnv(t, 2)
	pending := e.adaPending(t)

	w := e.verify(pending, "tok-A", "000000", true)
	if w.Code != http.StatusUnauthorized || len(e.h.Rendered) != 1 {
		t.Fatalf("wrong code (HTML): %d, rendered %d", w.Code, len(e.h.Rendered))
	}
	if p, ok := e.h.Rendered[0].Page.(pages.TwoFactorChallenge); !ok || p.Error != pages.Text("en", selfservice.WrongCode) || p.CSRFToken != "tok-A" || p.ActionURL != "/auth/two-factor" {
		t.Errorf("rendered %+v", e.h.Rendered[0].Page)
	}
	w = e.verify(pending, "tok-A", "000001", false)
	var body map[string]string
	if w.Code != http.StatusUnauthorized || json.Unmarshal(w.Body.Bytes(), &body) != nil || body["error"] != "invalid_code" {
		t.Errorf("wrong code (JSON): %d %s", w.Code, w.Body)
	}
	if len(e.changes) != 2 || e.changes[0] != twofactor.CodeRefused {
		t.Errorf("changes %q, want two code_refused", e.changes)
	}

	w = e.verify(pending, "tok-A", e.code(t), true)
	if len(e.h.TooMany) != 1 || e.h.TooMany[0] <= 0 || !cleared(w) || len(e.h.issued) != 0 {
		t.Fatalf("past the limit: waits %v, cleared %v, issued %d", e.h.TooMany, cleared(w), len(e.h.issued))
	}
	// With the count forgotten, the spent pending sign-in still fails.
	e.s.PerPending = limit.NewMemory(2, time.Hour)
	e.verify(pending, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Code != "two_factor_used" || len(e.h.issued) != 0 {
		t.Errorf("spent pending sign-in: %v, issued %d", f, len(e.h.issued))
	}
}

// TestVerifyPerUser: the per-user limit counts every pending sign-in of
// the user, and a right code resets it.
func TestVerifyPerUser(t *testing.T) {
	e := newEnv(t, 5)
	e.s.PerUser = limit.NewMemory(2, time.Hour)
	one := e.adaPending(t)
	e.verify(one, "tok-A", "000000", true)
	e.verify(one, "tok-A", e.code(t), true)
	if len(e.h.issued) != 1 {
		t.Fatalf("failed %v", e.h.Failed)
	}
	e.advance(time.Minute)
	two := e.adaPending(t)
	e.verify(two, "tok-A", "000000", true)
	e.verify(two, "tok-A", "000000", true)
	if len(e.h.TooMany) != 0 {
		t.Fatalf("the user's count was not reset by the right code: waits %v", e.h.TooMany)
	}
	e.verify(two, "tok-A", e.code(t), true)
	if len(e.h.TooMany) != 1 || len(e.h.issued) != 1 {
		t.Errorf("past the per-user limit: waits %v, issued %d", e.h.TooMany, len(e.h.issued))
	}
}

// TestVerifyAfterChange: a password set since the first factor makes
// the pending sign-in unusable; two-factor sign-in turned off since
// answers two_factor_off.
func TestVerifyAfterChange(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, 5)
	pending := e.adaPending(t)
	if err := e.m.SetPasswordHash(ctx, e.ada.ID, "$argon2id$new"); err != nil {
		t.Fatal(err)
	}
	e.verify(pending, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Code != "two_factor_used" || len(e.h.issued) != 0 {
		t.Errorf("after a password change: %v, issued %d", f, len(e.h.issued))
	}

	e.advance(time.Minute)
	pending = e.adaPending(t)
	if err := e.s.Service.Disable(ctx, e.ada.ID); err != nil {
		t.Fatal(err)
	}
	w := e.verify(pending, "tok-A", e.code(t), true)
	if f := e.h.LastFail(t); f.Type != autherr.TwoFactorFailed || f.Code != "two_factor_off" || !cleared(w) {
		t.Errorf("after disabling: %v, cleared %v", f, cleared(w))
	}
	if len(e.h.issued) != 0 {
		t.Error("a session was made")
	}
}

// TestPage: the code form only for a browser with a pending sign-in
// (with two-factor sign-in off there is no step: package gatehouse
// answers the route).
func TestPage(t *testing.T) {
	e := newEnv(t, 5)
	r := httptest.NewRequest(http.MethodGet, "/auth/two-factor", nil)
	w := httptest.NewRecorder()
	e.s.Page(w, r)
	if loc := w.Header().Get("Location"); loc != "/auth/signin" || len(e.h.Rendered) != 0 {
		t.Errorf("no pending: Location %q, rendered %d", loc, len(e.h.Rendered))
	}
	r.AddCookie(&http.Cookie{Name: names.TwoFactor, Value: "sealed"})
	r.AddCookie(&http.Cookie{Name: names.CSRF, Value: "tok-A"})
	e.s.Page(httptest.NewRecorder(), r)
	if len(e.h.Rendered) != 1 || e.h.Rendered[0].Status != http.StatusOK {
		t.Fatalf("rendered %+v", e.h.Rendered)
	}
	if p := e.h.Rendered[0].Page.(pages.TwoFactorChallenge); p.CSRFToken != "tok-A" || p.Error != "" || p.SignInURL != "/auth/signin" {
		t.Errorf("page %+v", p)
	}
}
