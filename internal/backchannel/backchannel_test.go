package backchannel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// onlyAdapter hides every optional interface of the adapter it holds.
type onlyAdapter struct{ adapter.Adapter }

// byUserOnly is an adapter that can end a user's sessions but knows
// nothing of providers (adapter.SessionRevoker only).
type byUserOnly struct {
	adapter.Adapter
	m *memory.Adapter
}

func (a byUserOnly) DeleteUserSessions(ctx context.Context, userID string) (int, error) {
	return a.m.DeleteUserSessions(ctx, userID)
}

// failingLookup is the memory adapter with GetUserByAccount down.
type failingLookup struct{ *memory.Adapter }

func (failingLookup) GetUserByAccount(context.Context, string, string) (adapter.User, error) {
	return adapter.User{}, errors.New("database down")
}

// env is a receiver for the provider "dev" at an in-process OpenID
// provider, with a memory store holding alice's and bob's sessions.
type env struct {
	op  *authtest.Server
	m   *memory.Adapter
	rc  *Receiver
	log *bytes.Buffer
	ids map[string]string // subject → user id
}

func newEnv(t *testing.T) *env {
	t.Helper()
	op := authtest.NewServer(authtest.Options{})
	t.Cleanup(op.Close)
	cfg := providers.OAuthConfig[profile.Claims]{
		ID: "dev", Type: providers.TypeOIDC,
		Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
	}.OAuth()
	p := rp.New(cfg, op.Client(), time.Minute, 5*time.Second)
	e := &env{op: op, m: memory.New(), log: &bytes.Buffer{}, ids: map[string]string{}}
	e.rc = &Receiver{
		Adapter: e.m,
		Provider: func(id string) (*rp.Provider, bool) {
			return p, id == "dev"
		},
		Logger: slog.New(slog.NewTextHandler(e.log, nil)),
	}
	ctx := context.Background()
	for _, sub := range []string{"alice", "bob"} {
		u, err := e.m.CreateUserWithAccount(ctx, adapter.User{Email: sub + "@example.com"},
			account.Account{Type: account.TypeOIDC, Provider: "dev", ProviderAccountID: sub})
		if err != nil {
			t.Fatal(err)
		}
		e.ids[sub] = u.ID
	}
	// alice: two sessions at dev (sids s1, s2), one from another
	// provider, one recorded before provider and sid were (legacy);
	// bob: one at dev with sid s3.
	for _, s := range []adapter.Session{
		{Token: "alice-s1", UserID: e.ids["alice"], Provider: "dev", SID: "s1"},
		{Token: "alice-s2", UserID: e.ids["alice"], Provider: "dev", SID: "s2"},
		{Token: "alice-other", UserID: e.ids["alice"], Provider: "other", SID: "x"},
		{Token: "alice-legacy", UserID: e.ids["alice"]},
		{Token: "bob-s3", UserID: e.ids["bob"], Provider: "dev", SID: "s3"},
	} {
		s.Expires = time.Now().Add(time.Hour)
		if _, err := e.m.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// token is a logout token of dev for sub with claims (see
// authtest.Provider.LogoutToken).
func (e *env) token(t *testing.T, sub string, claims map[string]any) string {
	t.Helper()
	tok, err := e.op.LogoutToken(sub, claims)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// post sends form to the receiver as the provider id and returns the
// answer.
func post(rc *Receiver, id string, form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/auth/backchannel-logout/"+id, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetPathValue("provider", id)
	w := httptest.NewRecorder()
	rc.ServeHTTP(w, r)
	return w
}

func logout(rc *Receiver, tok string) *httptest.ResponseRecorder {
	return post(rc, "dev", url.Values{"logout_token": {tok}})
}

// alive returns which of the sessions are still stored.
func (e *env) alive(tokens ...string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range tokens {
		_, _, err := e.m.GetSessionAndUser(context.Background(), tok)
		out[tok] = err == nil
	}
	return out
}

var allSessions = []string{"alice-s1", "alice-s2", "alice-other", "alice-legacy", "bob-s3"}

func (e *env) wantAlive(t *testing.T, want ...string) {
	t.Helper()
	keep := map[string]bool{}
	for _, w := range want {
		keep[w] = true
	}
	for tok, ok := range e.alive(allSessions...) {
		if ok != keep[tok] {
			t.Errorf("session %s alive = %v, want %v", tok, ok, keep[tok])
		}
	}
}

// wantRefused checks the answer of §2.8: the status, no-store, and the
// one error without its reason.
func wantRefused(t *testing.T, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status %d, want %d (%s)", w.Code, status, w.Body)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	var body map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || len(body) != 1 || body["error"] != "invalid_request" {
		t.Errorf("body %q, want {\"error\":\"invalid_request\"}", w.Body)
	}
}

// TestBySubject: a token with only a sub ends that user's sessions from
// this provider and those that recorded no provider, not the user's
// sessions from another provider nor anyone else's; the same token
// again is refused (jti replay).
func TestBySubject(t *testing.T) {
	e := newEnv(t)
	tok := e.token(t, "alice", nil)
	w := logout(e.rc, tok)
	if w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("logout answered %d, Cache-Control %q: %s", w.Code, w.Header().Get("Cache-Control"), w.Body)
	}
	e.wantAlive(t, "alice-other", "bob-s3")
	if !strings.Contains(e.log.String(), "sessions=3") {
		t.Errorf("the log does not count 3 sessions:\n%s", e.log)
	}
	wantRefused(t, logout(e.rc, tok), http.StatusBadRequest)
}

// TestBySID: a token with a sid ends that provider session only; with a
// sub too, the user's legacy sessions end with it.
func TestBySID(t *testing.T) {
	e := newEnv(t)
	if w := logout(e.rc, e.token(t, "", map[string]any{"sid": "s1"})); w.Code != http.StatusOK {
		t.Fatalf("sid-only logout answered %d: %s", w.Code, w.Body)
	}
	e.wantAlive(t, "alice-s2", "alice-other", "alice-legacy", "bob-s3")

	// A sid of another user's session with alice's sub ends nothing of bob's.
	if w := logout(e.rc, e.token(t, "alice", map[string]any{"sid": "s3"})); w.Code != http.StatusOK {
		t.Fatalf("sub+sid logout answered %d: %s", w.Code, w.Body)
	}
	e.wantAlive(t, "alice-s2", "alice-other", "bob-s3")

	if w := logout(e.rc, e.token(t, "alice", map[string]any{"sid": "s2"})); w.Code != http.StatusOK {
		t.Fatalf("sub+sid logout answered %d: %s", w.Code, w.Body)
	}
	e.wantAlive(t, "alice-other", "bob-s3")
}

// TestUnknownSubject: a subject with no user here is nothing to do: 200,
// and every session stays.
func TestUnknownSubject(t *testing.T) {
	e := newEnv(t)
	if w := logout(e.rc, e.token(t, "carol", nil)); w.Code != http.StatusOK {
		t.Fatalf("unknown subject answered %d", w.Code)
	}
	e.wantAlive(t, allSessions...)
}

// TestRefusals: each refusal answers its status without ending a
// session, and is logged with its step.
func TestRefusals(t *testing.T) {
	e := newEnv(t)
	noEvents := e.token(t, "alice", map[string]any{"events": nil})
	wrongEvent := e.token(t, "alice", map[string]any{"events": map[string]any{"http://example.com/other": map[string]any{}}})
	withNonce := e.token(t, "alice", map[string]any{"nonce": "n"})
	noSubNoSID := e.token(t, "", nil)
	wrongAud := e.token(t, "alice", map[string]any{"aud": "other-client"})
	expired := e.token(t, "alice", map[string]any{"exp": time.Now().Add(-time.Hour).Unix(), "iat": time.Now().Add(-2 * time.Hour).Unix()})
	for _, tc := range []struct {
		name, id string
		form     url.Values
		status   int
		step     string
	}{
		{"no token", "dev", url.Values{}, http.StatusBadRequest, "request"},
		{"not a JWT", "dev", url.Values{"logout_token": {"not.a.jwt"}}, http.StatusBadRequest, "logout_token"},
		{"no events claim", "dev", url.Values{"logout_token": {noEvents}}, http.StatusBadRequest, "logout_token"},
		{"another event", "dev", url.Values{"logout_token": {wrongEvent}}, http.StatusBadRequest, "logout_token"},
		{"a nonce", "dev", url.Values{"logout_token": {withNonce}}, http.StatusBadRequest, "logout_token"},
		{"neither sub nor sid", "dev", url.Values{"logout_token": {noSubNoSID}}, http.StatusBadRequest, "logout_token"},
		{"another audience", "dev", url.Values{"logout_token": {wrongAud}}, http.StatusBadRequest, "logout_token"},
		{"expired", "dev", url.Values{"logout_token": {expired}}, http.StatusBadRequest, "logout_token"},
	} {
		e.log.Reset()
		w := post(e.rc, tc.id, tc.form)
		wantRefused(t, w, tc.status)
		if !strings.Contains(e.log.String(), "step="+tc.step) {
			t.Errorf("%s: log lacks step=%s:\n%s", tc.name, tc.step, e.log)
		}
	}
	e.wantAlive(t, allSessions...)

	w := post(e.rc, "nope", url.Values{"logout_token": {e.token(t, "alice", nil)}})
	if w.Code != http.StatusBadRequest {
		t.Errorf("unknown provider answered %d", w.Code)
	}
	e.wantAlive(t, allSessions...)
}

// TestUnavailable: 501 without a store that can end sessions (JWT
// strategy, or an adapter with neither interface), 503 when the
// provider's keys or the store cannot be reached.
func TestUnavailable(t *testing.T) {
	e := newEnv(t)
	tok := e.token(t, "alice", nil)
	for name, a := range map[string]adapter.Adapter{"JWT strategy": nil, "plain adapter": onlyAdapter{e.m}} {
		rc := *e.rc
		rc.Adapter = a
		if w := logout(&rc, tok); w.Code != http.StatusNotImplemented {
			t.Errorf("%s: answered %d, want 501", name, w.Code)
		}
	}

	rc := *e.rc
	rc.Adapter = failingLookup{e.m}
	wantRefused(t, logout(&rc, tok), http.StatusServiceUnavailable)
	e.wantAlive(t, allSessions...)

	// A provider whose discovery fails.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	cfg := providers.OAuthConfig[profile.Claims]{ID: "dev", Type: providers.TypeOIDC, Issuer: down.URL, ClientID: "c", ClientSecret: "s"}.OAuth()
	p := rp.New(cfg, &http.Client{}, time.Minute, time.Second)
	rc = *e.rc
	rc.Provider = func(string) (*rp.Provider, bool) { return p, true }
	wantRefused(t, logout(&rc, tok), http.StatusServiceUnavailable)
	e.wantAlive(t, allSessions...)
}

// TestUserRevokerOnly: with an adapter.SessionRevoker only, a sub ends
// every session of the user (other providers' too), and a sid alone is
// refused.
func TestUserRevokerOnly(t *testing.T) {
	e := newEnv(t)
	rc := *e.rc
	rc.Adapter = byUserOnly{Adapter: e.m, m: e.m}
	wantRefused(t, logout(&rc, e.token(t, "", map[string]any{"sid": "s1"})), http.StatusBadRequest)
	e.wantAlive(t, allSessions...)
	if w := logout(&rc, e.token(t, "alice", map[string]any{"sid": "s1"})); w.Code != http.StatusOK {
		t.Fatalf("logout answered %d: %s", w.Code, w.Body)
	}
	e.wantAlive(t, "bob-s3")
}
