package selfservice

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

const csrf = "csrf-ok"

// fakeHost is the handler as the routes see it: the signed-in user is
// whoever user says, and CheckPost wants the csrfToken field (and refuses
// a cross-site request first).
type fakeHost struct {
	flowtest.Failures
	flowtest.Pages
	user      string
	at        time.Time
	userErr   error
	current   string // this browser's session token hash
	signedOut int
	redirects []string
	ways      []Way
}

func (h *fakeHost) CurrentUser(context.Context, *http.Request) (string, time.Time, error) {
	return h.user, h.at, h.userErr
}
func (h *fakeHost) SessionHash(*http.Request) string                    { return h.current }
func (h *fakeHost) SignOutHere(http.ResponseWriter, *http.Request)      { h.signedOut++ }
func (h *fakeHost) CSRFToken(http.ResponseWriter, *http.Request) string { return csrf }
func (h *fakeHost) CheckPost(r *http.Request, step string) (url.Values, *autherr.Error) {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return nil, autherr.New(autherr.MissingCSRF, "cross_site", "", step, nil)
	}
	if err := r.ParseForm(); err != nil || r.PostForm.Get("csrfToken") != csrf {
		return nil, autherr.New(autherr.MissingCSRF, "csrf", "", step, errors.New("CSRF token missing or wrong"))
	}
	return r.PostForm, nil
}
func (h *fakeHost) Redirect(w http.ResponseWriter, _ *http.Request, target string) {
	h.redirects = append(h.redirects, target)
	w.Header().Set("Location", target)
	w.WriteHeader(http.StatusSeeOther)
}

func (h *fakeHost) URL(_ *http.Request, parts ...string) string {
	return "/auth/" + strings.Join(parts, "/")
}
func (h *fakeHost) Origin(*http.Request) string { return "https://app.test" }

// fakeWays is the way the test gives h, if any.
type fakeWays struct{ h *fakeHost }

func (f fakeWays) Way(context.Context, string, func() (adapter.User, error)) (string, int, error) {
	if len(f.h.ways) == 0 {
		return "", 0, nil
	}
	return f.h.ways[0].Name, f.h.ways[0].Count, nil
}

// env is the routes over a memory store where ada has a GitHub account,
// a credentials account, and three sessions (s-here is this browser's).
type env struct {
	r       *Routes
	h       *fakeHost
	m       *memory.Adapter
	ada     string
	revoked []int
	changes []twofactorcore.Change
	// tf keeps ada's two-factor settings, which settings serves.
	tf       *fakeTwoFactor
	settings http.HandlerFunc
}

// goodCode is the one code fakeTwoFactor takes: the settings routes'
// rules are tested here, the codes themselves in package twofactor and,
// through the Handler, in package gatehouse.
const goodCode = "123456"

// fakeTwoFactor is a twofactorcore.Settings whose one right code is
// goodCode.
type fakeTwoFactor struct {
	enrolled, enabled map[string]bool
	backup            map[string]int
}

func (f *fakeTwoFactor) Status(_ context.Context, id string) (twofactorcore.Status, error) {
	return twofactorcore.Status{Enabled: f.enabled[id], BackupCodesLeft: f.backup[id]}, nil
}

func (f *fakeTwoFactor) Enroll(_ context.Context, id, name string) (twofactorcore.Enrollment, error) {
	if f.enabled[id] {
		return twofactorcore.Enrollment{}, twofactorcore.ErrAlreadyEnabled
	}
	f.enrolled[id] = true
	return twofactorcore.Enrollment{Secret: "SECRET", URI: "otpauth://totp/Test:" + url.PathEscape(name) + "?secret=SECRET", QR: []byte("png")}, nil
}

func (f *fakeTwoFactor) Confirm(_ context.Context, id, code string) ([]string, error) {
	switch {
	case f.enabled[id]:
		return nil, twofactorcore.ErrAlreadyEnabled
	case !f.enrolled[id]:
		return nil, twofactorcore.ErrNotEnrolled
	case code != goodCode:
		return nil, twofactorcore.ErrInvalidCode
	}
	f.enabled[id], f.backup[id] = true, 2
	return []string{"backup-1", "backup-2"}, nil
}

func (f *fakeTwoFactor) Verify(_ context.Context, id, code string) (twofactorcore.Method, error) {
	switch {
	case !f.enabled[id]:
		return "", twofactorcore.ErrNotEnrolled
	case code != goodCode:
		return "", twofactorcore.ErrInvalidCode
	}
	return twofactorcore.MethodTOTP, nil
}

func (f *fakeTwoFactor) RegenerateBackupCodes(_ context.Context, id string) ([]string, error) {
	f.backup[id] = 2
	return []string{"backup-3", "backup-4"}, nil
}

func (f *fakeTwoFactor) Disable(_ context.Context, id string) error {
	f.enabled[id], f.enrolled[id], f.backup[id] = false, false, 0
	return nil
}

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{h: &fakeHost{at: time.Now()}, m: memory.New(),
		tf: &fakeTwoFactor{enrolled: map[string]bool{}, enabled: map[string]bool{}, backup: map[string]int{}}}
	u, err := e.m.CreateUserWithAccount(ctx, adapter.User{Email: "ada@example.com", Name: "Ada"},
		account.Account{Type: account.TypeOAuth, Provider: "github", ProviderAccountID: "gh-1"})
	if err != nil {
		t.Fatal(err)
	}
	e.ada, e.h.user = u.ID, u.ID
	if err := e.m.LinkAccount(ctx, account.Account{UserID: u.ID, Type: account.TypeCredentials, Provider: "credentials", ProviderAccountID: u.ID}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []adapter.Session{
		{Token: "s-here", Provider: "github", UserAgent: "Firefox on Linux", Expires: time.Now().Add(time.Hour)},
		{Token: "s-phone", Provider: "credentials", Expires: time.Now().Add(2 * time.Hour)},
		{Token: "s-old", Expires: time.Now().Add(-time.Hour)},
	} {
		s.UserID = u.ID
		if _, err := e.m.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	e.h.current = "s-here"
	AddMessages() // as selfservice.Routes and twofactorflow.New do
	e.r = New(Config{
		Adapter:          e.m,
		Linker:           accountlink.Linker{Adapter: e.m},
		Logger:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		DatabaseSessions: true,
		FreshAge:         10 * time.Minute,
		Providers: []Provider{
			{ID: "github", Name: "GitHub", OAuth: true},
			{ID: "google", Name: "Google", OAuth: true},
			{ID: "credentials", Name: "Password"},
		},
		Ways: []Counter{fakeWays{e.h}},
		Events: Events{
			RevokeSessions: func(_ context.Context, _ profile.User, n int) { e.revoked = append(e.revoked, n) },
			TwoFactor:      func(_ context.Context, _ profile.User, c twofactorcore.Change) { e.changes = append(e.changes, c) },
		},
	}, e.h)
	e.settings = e.r.TwoFactor(e.tf, limit.NewMemory(3, time.Hour))
	return e
}

// request builds a request to path: a POST with form (csrfToken added
// unless noCSRF) or a GET; html makes it a browser's navigation.
func request(method, path string, form url.Values, html bool) *http.Request {
	var r *http.Request
	if method == http.MethodPost {
		r = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	if html {
		r.Header.Set("Accept", "text/html")
	}
	return r
}

func withCSRF(kv ...string) url.Values {
	v := url.Values{"csrfToken": {csrf}}
	for i := 0; i < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func serve(h http.HandlerFunc, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h(w, r)
	return w
}

func jsonOf(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("answer %d is not a JSON object: %s", w.Code, w.Body)
	}
	return m
}

func (e *env) accounts(t *testing.T) []string {
	t.Helper()
	list, err := e.m.ListAccounts(context.Background(), e.ada)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range list {
		out = append(out, a.Provider)
	}
	return out
}

func (e *env) sessionAlive(tok string) bool {
	_, _, err := e.m.GetSessionAndUser(context.Background(), tok)
	return err == nil
}

// routes are every route, with the request that would change something.
func (e *env) routes() map[string]func(form url.Values, html bool) *httptest.ResponseRecorder {
	post := func(h http.HandlerFunc, path, pathKey, pathValue string) func(url.Values, bool) *httptest.ResponseRecorder {
		return func(form url.Values, html bool) *httptest.ResponseRecorder {
			r := request(http.MethodPost, path, form, html)
			if pathKey != "" {
				r.SetPathValue(pathKey, pathValue)
			}
			return serve(h, r)
		}
	}
	return map[string]func(url.Values, bool) *httptest.ResponseRecorder{
		"unlink":        post(e.r.Unlink, "/auth/accounts/unlink/github", "provider", "github"),
		"revoke":        post(e.r.Revoke, "/auth/sessions/revoke", "", ""),
		"revoke-others": post(e.r.Revoke, "/auth/sessions/revoke-others", "", ""),
		"revoke-all":    post(e.r.Revoke, "/auth/sessions/revoke-all", "", ""),
		"2fa enroll":    post(e.settings, "/auth/two-factor/enroll", "action", "enroll"),
	}
}

// TestNoSession: every route refuses without a signed-in user: 401 in
// JSON, the sign-in page coming back to the route for a browser, and no
// change made.
func TestNoSession(t *testing.T) {
	e := newEnv(t)
	e.h.user = ""
	gets := map[string]http.HandlerFunc{"/auth/accounts": e.r.Accounts, "/auth/sessions": e.r.Sessions, "/auth/two-factor/setup": e.settings}
	for path, h := range gets {
		w := serve(h, request(http.MethodGet, path, nil, false))
		if w.Code != http.StatusUnauthorized || jsonOf(t, w)["error"] != string(autherr.SessionRequired) || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s: %d %s, Cache-Control %q", path, w.Code, w.Body, w.Header().Get("Cache-Control"))
		}
		e.h.redirects = nil
		serve(h, request(http.MethodGet, path, nil, true))
		if want := "/auth/signin?callbackUrl=" + url.QueryEscape(path); len(e.h.redirects) != 1 || e.h.redirects[0] != want {
			t.Errorf("GET %s (browser): redirects %q, want %q", path, e.h.redirects, want)
		}
	}
	for name, do := range e.routes() {
		w := do(withCSRF("id", sessionID("s-phone"), "confirm", "yes"), false)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("%s: %d %s, want 401", name, w.Code, w.Body)
		}
	}
	if len(e.accounts(t)) != 2 || !e.sessionAlive("s-here") || !e.sessionAlive("s-phone") {
		t.Error("a route changed something without a session")
	}
	if e.h.signedOut != 0 {
		t.Error("signed out")
	}
}

// TestNoCSRF: every POST refuses without the CSRF token (403 in JSON
// naming it; for a browser's form the page again, or the host's failure
// for a cross-site one), before it reads the session or changes
// anything.
func TestNoCSRF(t *testing.T) {
	e := newEnv(t)
	for name, do := range e.routes() {
		form := url.Values{"id": {sessionID("s-phone")}, "confirm": {"yes"}}
		w := do(form, false)
		if m := jsonOf(t, w); w.Code != http.StatusForbidden || m["error"] != string(autherr.MissingCSRF) || m["code"] != "csrf" {
			t.Errorf("%s: %d %v, want 403 MissingCSRF", name, w.Code, m)
		}
		form.Set("csrfToken", "stale")
		do(form, false)
	}
	if len(e.accounts(t)) != 2 || !e.sessionAlive("s-here") || !e.sessionAlive("s-phone") || e.h.signedOut != 0 {
		t.Error("a POST without the CSRF token changed something")
	}
	if e.tf.enrolled[e.ada] {
		t.Error("enrolled without the CSRF token")
	}

	// A browser's form with a stale token gets the page again, saying so.
	w := e.routes()["unlink"](url.Values{"csrfToken": {"stale"}, "confirm": {"yes"}}, true)
	if w.Code != http.StatusForbidden || len(e.h.Rendered) != 1 {
		t.Fatalf("stale unlink form: %d, rendered %d", w.Code, len(e.h.Rendered))
	}
	if p := e.h.Rendered[0].Page.(pages.Accounts); !strings.Contains(p.Error, "expired") {
		t.Errorf("page error %q", p.Error)
	}
	// A cross-site form is the host's failure.
	r := request(http.MethodPost, "/auth/accounts/unlink/github", withCSRF("confirm", "yes"), true)
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	r.SetPathValue("provider", "github")
	serve(e.r.Unlink, r)
	if len(e.h.Failed) != 1 || e.h.Failed[0].Code != "cross_site" {
		t.Errorf("cross-site form: failures %v", e.h.Failed)
	}
	if len(e.accounts(t)) != 2 {
		t.Error("a refused form unlinked")
	}
}

// TestStoreAndAdapter: without an adapter 501; a store that cannot be
// read 503 with Retry-After (JSON) or the host's AdapterError (page).
func TestStoreAndAdapter(t *testing.T) {
	e := newEnv(t)
	e.h.userErr = errors.New("db down")
	w := serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, false))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || strings.Contains(w.Body.String(), "db down") {
		t.Errorf("store down: %d %s", w.Code, w.Body)
	}
	serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, true))
	if len(e.h.Failed) != 1 || e.h.Failed[0].Type != autherr.AdapterError {
		t.Errorf("store down (page): %v", e.h.Failed)
	}
	e.r.cfg.Adapter = nil
	w = serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, true))
	if m := jsonOf(t, w); w.Code != http.StatusNotImplemented || m["code"] != "no_adapter" {
		t.Errorf("no adapter: %d %v", w.Code, m)
	}
}

// TestAccounts: the linked accounts with their display names, never
// tokens; a credentials account is never unlinkable, and the last way
// in is not either.
func TestAccounts(t *testing.T) {
	e := newEnv(t)
	w := serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, false))
	var list []linkedAccount
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	got := map[string]linkedAccount{}
	for _, a := range list {
		got[a.Provider] = a
	}
	// github is the only account that may go, and only with another way
	// in: the credentials account is not one (it cannot be unlinked, but
	// it counts as an account).
	if a := got["github"]; a.Name != "GitHub" || a.ProviderAccountID != "gh-1" || !a.CanUnlink {
		t.Errorf("github %+v", a)
	}
	if a := got["credentials"]; a.Name != "Password" || a.CanUnlink {
		t.Errorf("credentials %+v", a)
	}

	if err := e.m.UnlinkAccount(context.Background(), "credentials", e.ada); err != nil {
		t.Fatal(err)
	}
	w = serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, false))
	list = nil
	_ = json.Unmarshal(w.Body.Bytes(), &list)
	if len(list) != 1 || list[0].CanUnlink {
		t.Errorf("the last way in is unlinkable: %+v", list)
	}
	e.h.ways = []Way{{Name: "Passkey", Count: 2}}
	w = serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts", nil, false))
	list = nil
	_ = json.Unmarshal(w.Body.Bytes(), &list)
	if len(list) != 1 || !list[0].CanUnlink {
		t.Errorf("with passkeys the account is not unlinkable: %+v", list)
	}

	// The page offers to link the OAuth providers not linked yet.
	serve(e.r.Accounts, request(http.MethodGet, "/auth/accounts?linked=github", nil, true))
	p := e.h.Rendered[len(e.h.Rendered)-1].Page.(pages.Accounts)
	if len(p.Link) != 1 || p.Link[0].ID != "google" || p.Notice != "Linked GitHub." || len(p.Ways) != 1 || p.Ways[0] != "2 passkeys" {
		t.Errorf("page link %+v, notice %q, ways %q", p.Link, p.Notice, p.Ways)
	}
}

// TestUnlink: an unlink needs a fresh sign-in; it refuses the last way
// in, a credentials account and an account not linked, and removes the
// account otherwise. A browser is asked to confirm first.
func TestUnlink(t *testing.T) {
	e := newEnv(t)
	unlink := func(prov string, html bool, kv ...string) *httptest.ResponseRecorder {
		r := request(http.MethodPost, "/auth/accounts/unlink/"+prov, withCSRF(kv...), html)
		r.SetPathValue("provider", prov)
		return serve(e.r.Unlink, r)
	}
	e.h.at = time.Now().Add(-time.Hour)
	if w := unlink("github", false); w.Code != http.StatusForbidden || jsonOf(t, w)["code"] != "fresh_sign_in" {
		t.Errorf("stale sign-in: %d %s", w.Code, w.Body)
	}
	e.h.at = time.Time{}
	if w := unlink("github", false); w.Code != http.StatusForbidden {
		t.Errorf("sign-in time unknown: %d %s", w.Code, w.Body)
	}
	e.h.at = time.Now()
	for _, tc := range []struct {
		prov   string
		status int
		code   string
	}{
		{"credentials", http.StatusConflict, "not_unlinkable"},
		{"google", http.StatusNotFound, "not_linked"},
	} {
		if w := unlink(tc.prov, false); w.Code != tc.status || jsonOf(t, w)["code"] != tc.code {
			t.Errorf("unlink %s: %d %s, want %d %s", tc.prov, w.Code, w.Body, tc.status, tc.code)
		}
	}
	if len(e.accounts(t)) != 2 {
		t.Fatal("a refused unlink removed an account")
	}
	// Without the credentials account, github is the last way in.
	if err := e.m.UnlinkAccount(context.Background(), "credentials", e.ada); err != nil {
		t.Fatal(err)
	}
	if w := unlink("github", false); w.Code != http.StatusConflict || jsonOf(t, w)["code"] != "last_way" {
		t.Errorf("unlink the last way: %d %s, want 409 last_way", w.Code, w.Body)
	}
	if len(e.accounts(t)) != 1 {
		t.Fatal("the last way in was unlinked")
	}

	e.h.ways = []Way{{Name: "Password", Count: 1}}
	w := unlink("github", true)
	if w.Code != http.StatusOK || len(e.accounts(t)) != 1 {
		t.Fatalf("the browser's first click: %d, accounts %q", w.Code, e.accounts(t))
	}
	p := e.h.Rendered[len(e.h.Rendered)-1].Page.(pages.Accounts)
	if p.Confirm == nil || p.Confirm.Name != "GitHub" || p.Confirm.UnlinkURL != "/auth/accounts/unlink/github" || strings.Join(p.Confirm.Remaining, ",") != "Password" {
		t.Errorf("confirmation %+v", p.Confirm)
	}
	unlink("github", true, "confirm", "yes")
	if got := e.accounts(t); len(got) != 0 {
		t.Errorf("accounts after unlinking: %q", got)
	}
	if last := e.h.redirects[len(e.h.redirects)-1]; last != "/auth/accounts?unlinked=github" {
		t.Errorf("redirect %q", last)
	}
}

// TestSessions: the live sessions, named by ids that are neither token
// nor hash, this browser's marked current; 501 with JWT sessions.
func TestSessions(t *testing.T) {
	e := newEnv(t)
	w := serve(e.r.Sessions, request(http.MethodGet, "/auth/sessions", nil, false))
	var list []listed
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if len(list) != 2 {
		t.Fatalf("listed %d sessions, want the 2 live ones: %+v", len(list), list)
	}
	for _, x := range list {
		if strings.Contains(w.Body.String(), "s-here") || x.ID == "" {
			t.Errorf("the answer shows a session token: %s", w.Body)
		}
		if x.Current != (x.ID == sessionID("s-here")) {
			t.Errorf("session %+v: current is wrong", x)
		}
	}
	serve(e.r.Sessions, request(http.MethodGet, "/auth/sessions", nil, true))
	p := e.h.Rendered[0].Page.(pages.Sessions)
	if len(p.Sessions) != 2 || !p.Sessions[0].Current || p.Sessions[0].Provider != "GitHub" || p.Sessions[1].Provider != "Password" {
		t.Errorf("page rows %+v", p.Sessions)
	}

	e.r.cfg.DatabaseSessions = false
	w = serve(e.r.Sessions, request(http.MethodGet, "/auth/sessions", nil, false))
	if w.Code != http.StatusNotImplemented || jsonOf(t, w)["code"] != "not_listable" {
		t.Errorf("JWT sessions: %d %s", w.Code, w.Body)
	}
}

// TestRevoke: one session by its id (an unknown id is 404), the others
// (this browser's kept), or all (this browser signed out); each told to
// Events.RevokeSessions with its count.
func TestRevoke(t *testing.T) {
	e := newEnv(t)
	do := e.routes()
	if w := do["revoke"](withCSRF("id", "nope"), false); w.Code != http.StatusNotFound {
		t.Errorf("unknown id: %d %s", w.Code, w.Body)
	}
	if w := do["revoke"](withCSRF("id", "s-phone"), false); w.Code != http.StatusNotFound || !e.sessionAlive("s-phone") {
		t.Errorf("a session named by its token: %d %s", w.Code, w.Body)
	}
	w := do["revoke"](withCSRF("id", sessionID("s-phone")), false)
	if w.Code != http.StatusOK || jsonOf(t, w)["revoked"] != 1.0 || e.sessionAlive("s-phone") || !e.sessionAlive("s-here") || e.h.signedOut != 0 {
		t.Errorf("revoke one: %d %s, signed out %d", w.Code, w.Body, e.h.signedOut)
	}

	e = newEnv(t)
	do = e.routes()
	w = do["revoke-others"](withCSRF(), true)
	if e.sessionAlive("s-phone") || !e.sessionAlive("s-here") || e.h.signedOut != 0 || w.Header().Get("Location") != "/auth/sessions" {
		t.Errorf("revoke others: phone %v, here %v, signed out %d, Location %q", e.sessionAlive("s-phone"), e.sessionAlive("s-here"), e.h.signedOut, w.Header().Get("Location"))
	}

	e = newEnv(t)
	do = e.routes()
	w = do["revoke-all"](withCSRF(), false)
	if e.sessionAlive("s-phone") || e.sessionAlive("s-here") || e.h.signedOut != 1 || jsonOf(t, w)["revoked"] != 3.0 {
		t.Errorf("revoke all: %s, signed out %d", w.Body, e.h.signedOut)
	}
	if len(e.revoked) != 1 || e.revoked[0] != 3 {
		t.Errorf("RevokeSessions events %v", e.revoked)
	}

	e = newEnv(t)
	do = e.routes()
	do["revoke"](withCSRF("id", sessionID("s-here")), false)
	if e.h.signedOut != 1 || e.sessionAlive("s-here") {
		t.Error("revoking this browser's session did not sign it out")
	}

}

// TestTwoFactorSettings: an unknown action is not there; turning
// two-factor sign-in on takes a fresh sign-in and a right code; a refused
// code is counted per user, past the limit 429; disabling takes a code.
func TestTwoFactorSettings(t *testing.T) {
	e := newEnv(t)
	act := func(action string, kv ...string) *httptest.ResponseRecorder {
		method := http.MethodPost
		if action == "setup" {
			method = http.MethodGet
		}
		r := request(method, "/auth/two-factor/"+action, withCSRF(kv...), false)
		r.SetPathValue("action", action)
		return serve(e.settings, r)
	}
	if w := act("nonsense"); w.Code != http.StatusNotFound {
		t.Errorf("unknown action: %d", w.Code)
	}

	e.h.at = time.Now().Add(-time.Hour)
	if w := act("enroll"); w.Code != http.StatusForbidden || jsonOf(t, w)["error"] != "fresh_sign_in" {
		t.Errorf("stale enroll: %d %s", w.Code, w.Body)
	}
	e.h.at = time.Now()
	w := act("enroll")
	m := jsonOf(t, w)
	secret, _ := m["secret"].(string)
	if w.Code != http.StatusOK || secret == "" || !strings.HasPrefix(m["otpauthUri"].(string), "otpauth://totp/") {
		t.Fatalf("enroll: %d %v", w.Code, m)
	}
	if w := act("confirm", "code", "000000"); w.Code != http.StatusUnauthorized || jsonOf(t, w)["error"] != "invalid_code" {
		t.Errorf("wrong confirm code: %d %s", w.Code, w.Body)
	}
	code := goodCode
	w = act("confirm", "code", code)
	m = jsonOf(t, w)
	if codes, _ := m["backupCodes"].([]any); w.Code != http.StatusOK || m["enabled"] != true || len(codes) == 0 {
		t.Fatalf("confirm: %d %v", w.Code, m)
	}
	if w := act("enroll"); w.Code != http.StatusConflict || jsonOf(t, w)["error"] != "already_enabled" {
		t.Errorf("enroll again: %d %s", w.Code, w.Body)
	}
	want := []twofactorcore.Change{twofactorcore.CodeRefused, twofactorcore.Enabled}
	if len(e.changes) != 2 || e.changes[0] != want[0] || e.changes[1] != want[1] {
		t.Errorf("changes %q, want %q", e.changes, want)
	}

	// Three codes per user (the confirm reset the count): then 429, even
	// for a right code.
	for i := range 3 {
		if w := act("disable", "code", "00000"+string(rune('0'+i))); w.Code != http.StatusUnauthorized {
			t.Errorf("wrong disable code %d: %d %s", i, w.Code, w.Body)
		}
	}
	if w := act("disable", "code", code); w.Code != http.StatusTooManyRequests || jsonOf(t, w)["error"] != "too_many_attempts" {
		t.Errorf("past the limit: %d %s", w.Code, w.Body)
	}
	if !e.tf.enabled[e.ada] {
		t.Fatal("disabled past the limit")
	}
	e.settings = e.r.TwoFactor(e.tf, limit.NewMemory(3, time.Hour))
	if w := act("disable", "code", code); w.Code != http.StatusOK {
		t.Errorf("disable: %d %s", w.Code, w.Body)
	}
	if e.tf.enabled[e.ada] {
		t.Error("still enabled")
	}

	notFound := 0
	e.r.cfg.NotFound = func(w http.ResponseWriter, _ *http.Request) { notFound++; w.WriteHeader(http.StatusNotFound) }
	if w := act("nonsense"); w.Code != http.StatusNotFound || notFound != 1 {
		t.Errorf("unknown action: %d, NotFound called %d", w.Code, notFound)
	}
}
