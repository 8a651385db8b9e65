package emailflow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	"github.com/gatehouse-auth/gatehouse/internal/linktoken"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// fakeHost records what the flow asked of the Handler.
type fakeHost struct {
	flowtest.Failures
	flowtest.Throttles
	flowtest.Finishes
}

func (*fakeHost) Lang(r *http.Request) pages.Language { return pages.RequestLanguage(r) }

func (h *fakeHost) CallbackURL(_ *http.Request, raw string) string {
	if raw == "" {
		return "https://app.test/"
	}
	return "https://app.test" + raw
}
func (h *fakeHost) URL(_ *http.Request, parts ...string) string {
	return "https://app.test/auth/" + strings.Join(parts, "/")
}
func (h *fakeHost) Origin(*http.Request) string { return "https://app.test" }

// sentLink is a link the flow sent.
type sentLink struct {
	Identifier, URL, Host, Language string
	Expires                         time.Time
}

// normalize stands for email.Normalize: lower case, trimmed, an address.
func normalize(addr string) (string, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if i := strings.IndexByte(addr, '@'); i <= 0 || i == len(addr)-1 || strings.ContainsAny(addr, " \t") {
		return "", errors.New("not an address")
	}
	return addr, nil
}

// newToken makes a token as email.Config.NewToken does: 32 random bytes.
func newToken() (string, error) {
	b := make([]byte, 32)
	_, err := rand.Read(b)
	return hex.EncodeToString(b), err
}

// env is a flow for the provider "mail" with a memory store that knows
// ada@example.com, and a sender that records each request.
type env struct {
	f      *Flow
	h      *fakeHost
	m      *memory.Adapter
	tokens *linktoken.Tokens
	sent   []sentLink
	sendEr error
}

func newEnv(t *testing.T, mutate func(*Config)) *env {
	t.Helper()
	e := &env{h: &fakeHost{}, m: memory.New()}
	c := Provider{
		ID: "mail", Name: "Email", MaxAge: time.Hour,
		Send: func(_ context.Context, _ *http.Request, identifier, link, host, lang string, expires time.Time) error {
			if e.sendEr != nil {
				return e.sendEr
			}
			e.sent = append(e.sent, sentLink{Identifier: identifier, URL: link, Host: host, Language: lang, Expires: expires})
			return nil
		},
		PerIP:         limit.None{},
		PerIdentifier: limit.None{},
		ClientIP:      func(r *http.Request) string { return r.RemoteAddr },
		Normalize:     normalize,
		NewToken:      newToken,
	}
	var err error
	e.tokens, err = linktoken.NewTokens([]string{"a-secret-of-enough-length-for-tests"}, "salt", "email")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.CreateUser(context.Background(), adapter.User{Email: "ada@example.com", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Provider: c, Tokens: e.tokens, Adapter: e.m, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BasePath: "/auth"}
	if mutate != nil {
		mutate(&cfg)
	}
	e.f = New(cfg, e.h)
	return e
}

// signIn posts the form with the address and returns the answer.
func (e *env) signIn(addr string) *httptest.ResponseRecorder {
	form := url.Values{"email": {addr}, "callbackUrl": {"/dash"}}
	r := httptest.NewRequest(http.MethodPost, "/auth/signin/mail", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = "192.0.2.1:1234"
	w := httptest.NewRecorder()
	e.f.SignIn(w, r, form)
	return w
}

func (e *env) callback(rawQuery string) {
	r := httptest.NewRequest(http.MethodGet, "/auth/callback/mail?"+rawQuery, nil)
	e.f.Callback(httptest.NewRecorder(), r)
}

// tokenOf returns the token of a sent link.
func tokenOf(t *testing.T, req sentLink) string {
	t.Helper()
	u, err := url.Parse(req.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("token")
}

// TestMalformedAddress: a malformed address is refused with
// EmailSignInError before anything is counted, stored or sent.
func TestMalformedAddress(t *testing.T) {
	counted := limit.NewMemory(1, time.Hour)
	e := newEnv(t, func(c *Config) { c.Provider.PerIP = counted })
	for _, addr := range []string{"", "not-an-address", "a@", "@example.com", "a b@example.com"} {
		e.signIn(addr)
		f := e.h.LastFail(t)
		if f.Type != autherr.EmailSignInError || f.Code != "invalid_email" || f.Provider != "mail" {
			t.Errorf("%q: %v, want EmailSignInError (invalid_email)", addr, f)
		}
	}
	if len(e.sent) != 0 {
		t.Errorf("sent %d messages", len(e.sent))
	}
	if wait, _ := counted.Reserve(context.Background(), "ip:"+limit.IPKey("192.0.2.1")); wait != 0 {
		t.Error("a malformed address was counted against the client")
	}
}

// TestSameAnswer: a known and an unknown address get the same answer
// (status, headers, body), each a stored token and a message; the
// answer is the verify-request page.
func TestSameAnswer(t *testing.T) {
	e := newEnv(t, nil)
	known, unknown := e.signIn("ada@example.com"), e.signIn("nobody@example.com")
	if known.Code != unknown.Code || known.Body.String() != unknown.Body.String() || !equalHeaders(known.Header(), unknown.Header()) {
		t.Errorf("known: %d %v %q; unknown: %d %v %q", known.Code, known.Header(), known.Body, unknown.Code, unknown.Header(), unknown.Body)
	}
	if loc := known.Header().Get("Location"); loc != "/auth/verify-request?provider=mail&type=email" {
		t.Errorf("Location %q", loc)
	}
	if known.Code != http.StatusSeeOther {
		t.Errorf("status %d, want 303", known.Code)
	}
	if len(e.sent) != 2 || len(e.h.Failed) != 0 {
		t.Fatalf("sent %d, failed %v; want 2 messages", len(e.sent), e.h.Failed)
	}
	for _, req := range e.sent {
		if err := e.tokens.Use(context.Background(), e.m, req.Identifier, tokenOf(t, req)); err != nil {
			t.Errorf("the link to %s has no stored token: %v", req.Identifier, err)
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestLink: the link is built on the host's URL with the normalised
// address, the callback URL and the token; only the token's hash is
// stored.
func TestLink(t *testing.T) {
	var stored []adapter.VerificationToken
	e := newEnv(t, nil)
	e.f.cfg.Adapter = recordingStore{Adapter: e.m, got: &stored}
	e.signIn("  Ada@EXAMPLE.com ")
	if len(e.sent) != 1 {
		t.Fatalf("sent %d messages", len(e.sent))
	}
	req := e.sent[0]
	u, _ := url.Parse(req.URL)
	q := u.Query()
	if u.Scheme+"://"+u.Host+u.Path != "https://app.test/auth/callback/mail" {
		t.Errorf("link %q, want the callback on the site's URL", req.URL)
	}
	if q.Get("email") != "ada@example.com" || req.Identifier != "ada@example.com" || q.Get("callbackUrl") != "https://app.test/dash" {
		t.Errorf("link query %v, identifier %q", q, req.Identifier)
	}
	if req.Host != "app.test" || time.Until(req.Expires) <= 0 {
		t.Errorf("request host %q, expires %v", req.Host, req.Expires)
	}
	tok := q.Get("token")
	if len(tok) < 32 {
		t.Errorf("token %q is short", tok)
	}
	if len(stored) != 1 || stored[0].TokenHash != e.tokens.Hash(tok) || stored[0].TokenHash == tok || stored[0].Identifier != "ada@example.com" {
		t.Errorf("stored %+v; want the token's hash only", stored)
	}
}

// recordingStore records the verification tokens stored.
type recordingStore struct {
	adapter.Adapter
	got *[]adapter.VerificationToken
}

func (s recordingStore) CreateVerificationToken(ctx context.Context, vt adapter.VerificationToken) error {
	*s.got = append(*s.got, vt)
	return s.Adapter.CreateVerificationToken(ctx, vt)
}

// TestAllow: a refusal by the SignIn callback sends nothing and answers
// as a success; the callback sees the stored user; its error is
// AccessDenied.
func TestAllow(t *testing.T) {
	var seen []profile.User
	var seenAcct []*account.Account
	e := newEnv(t, func(c *Config) {
		c.Allow = func(_ context.Context, u profile.User, a *account.Account, _ *http.Request) (bool, error) {
			seen, seenAcct = append(seen, u), append(seenAcct, a)
			return false, nil
		}
	})
	refused := e.signIn("ada@example.com")
	if len(e.sent) != 0 || len(e.h.Failed) != 0 {
		t.Fatalf("a refused sign-in sent %d messages, failed %v", len(e.sent), e.h.Failed)
	}
	allowed := newEnv(t, nil).signIn("ada@example.com")
	if refused.Code != allowed.Code || refused.Header().Get("Location") != allowed.Header().Get("Location") {
		t.Errorf("refused answers %d %q, allowed %d %q", refused.Code, refused.Header().Get("Location"), allowed.Code, allowed.Header().Get("Location"))
	}
	if len(seen) != 1 || seen[0].ID == "" || seen[0].Name != "Ada" {
		t.Errorf("the callback saw %+v, want the stored user", seen)
	}
	if a := seenAcct[0]; a.Type != account.TypeEmail || a.Provider != "mail" || a.ProviderAccountID != "ada@example.com" {
		t.Errorf("the callback saw the account %+v", a)
	}

	e = newEnv(t, func(c *Config) {
		c.Allow = func(context.Context, profile.User, *account.Account, *http.Request) (bool, error) {
			return false, errors.New("callback broke")
		}
	})
	e.signIn("ada@example.com")
	if f := e.h.LastFail(t); f.Type != autherr.AccessDenied || f.Code != "signin_callback" || len(e.sent) != 0 {
		t.Errorf("callback error: %v, sent %d", f, len(e.sent))
	}
}

// TestLimits: past the per-address limit (counted under the normalised
// address) the host answers 429 and nothing is sent; a limiter error
// refuses.
func TestLimits(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Provider.PerIdentifier = limit.NewMemory(1, time.Hour) })
	e.signIn("ada@example.com")
	w := e.signIn("ADA@example.com")
	if len(e.h.TooMany) != 1 || w.Code != http.StatusTooManyRequests || len(e.sent) != 1 {
		t.Errorf("second request: %d, waits %v, sent %d; want 429 and one message", w.Code, e.h.TooMany, len(e.sent))
	}
	e.signIn("bob@example.com")
	if len(e.sent) != 2 {
		t.Errorf("another address was limited too")
	}

	e = newEnv(t, func(c *Config) { c.Provider.PerIP = failingLimiter{} })
	e.signIn("ada@example.com")
	if f := e.h.LastFail(t); f.Type != autherr.EmailSignin || f.Code != "limiter" || len(e.sent) != 0 {
		t.Errorf("limiter error: %v, sent %d", f, len(e.sent))
	}
}

type failingLimiter struct{ limit.None }

func (failingLimiter) Reserve(context.Context, string) (time.Duration, error) {
	return 0, errors.New("limiter down")
}

// TestSendFailure: a message that cannot be sent leaves no working
// token, and the error reported names neither the token nor the address.
func TestSendFailure(t *testing.T) {
	var stored []adapter.VerificationToken
	e := newEnv(t, nil)
	e.f.cfg.Adapter = recordingStore{Adapter: e.m, got: &stored}
	var link string
	e.f.cfg.Provider.Send = func(_ context.Context, _ *http.Request, identifier, sent, _, _ string, _ time.Time) error {
		link = sent
		u, _ := url.Parse(sent)
		return errors.New("smtp refused " + sent + " token " + u.Query().Get("token") + " for " + identifier)
	}
	e.signIn("ada@example.com")
	f := e.h.LastFail(t)
	if f.Type != autherr.EmailSignin || f.Code != "send_failed" {
		t.Fatalf("send failure: %v", f)
	}
	u, _ := url.Parse(link)
	tok := u.Query().Get("token")
	if msg := f.Error(); strings.Contains(msg, tok) || strings.Contains(msg, "ada@example.com") || !strings.Contains(msg, "[link]") {
		t.Errorf("the error leaks the link: %s", msg)
	}
	if len(stored) != 1 {
		t.Fatalf("stored %d tokens", len(stored))
	}
	if _, err := e.m.UseVerificationToken(context.Background(), "ada@example.com", stored[0].TokenHash); !errors.Is(err, adapter.ErrNotFound) {
		t.Errorf("the unsent link's token is still stored: %v", err)
	}
}

// TestVerifyRequestPage: the application's own page gets the same query.
func TestVerifyRequestPage(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.VerifyRequestPage = "/check-mail" })
	if loc := e.signIn("ada@example.com").Header().Get("Location"); loc != "/check-mail?provider=mail&type=email" {
		t.Errorf("Location %q", loc)
	}
}

// TestCallback: a link signs in once, as an unbound e-mail account with
// a verified address and the link's callback URL; used again it fails.
func TestCallback(t *testing.T) {
	e := newEnv(t, nil)
	e.signIn("ada@example.com")
	link, _ := url.Parse(e.sent[0].URL)
	e.callback(link.RawQuery)
	if len(e.h.Finished) != 1 || len(e.h.Failed) != 0 {
		t.Fatalf("finished %d, failed %v", len(e.h.Finished), e.h.Failed)
	}
	res := e.h.Finished[0]
	if res.User.ID != "ada@example.com" || res.User.Email != "ada@example.com" || res.User.EmailVerified == nil {
		t.Errorf("user %+v, want a verified ada@example.com", res.User)
	}
	if a := res.Account; a.Type != account.TypeEmail || a.Provider != "mail" || a.ProviderAccountID != "ada@example.com" {
		t.Errorf("account %+v", a)
	}
	if !res.Unbound || res.CallbackURL != "https://app.test/dash" {
		t.Errorf("unbound %v, callback %q", res.Unbound, res.CallbackURL)
	}

	e.callback(link.RawQuery)
	if f := e.h.LastFail(t); f.Type != autherr.Verification || f.Code != "invalid_token" {
		t.Errorf("replayed link: %v, want Verification (invalid_token)", f)
	}
	if len(e.h.Finished) != 1 {
		t.Error("a replayed link signed in")
	}
}

// TestCallbackRefusals: malformed, altered, other-address and expired
// links are refused with their codes, and nobody is signed in.
func TestCallbackRefusals(t *testing.T) {
	e := newEnv(t, nil)
	e.signIn("ada@example.com")
	tok := tokenOf(t, e.sent[0])
	expired := "expired-token-0123456789abcdef"
	if err := e.m.CreateVerificationToken(context.Background(), adapter.VerificationToken{Identifier: "ada@example.com", TokenHash: e.tokens.Hash(expired), Expires: time.Now().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v.Encode()
	}
	for _, tc := range []struct{ name, query, code string }{
		{"no token", q("email", "ada@example.com"), "malformed_link"},
		{"two tokens", q("token", tok, "token", tok, "email", "ada@example.com"), "malformed_link"},
		{"two addresses", q("token", tok, "email", "ada@example.com", "email", "eve@example.com"), "malformed_link"},
		{"bad address", q("token", tok, "email", "not-an-address"), "malformed_link"},
		{"bad query", "token=%zz&email=ada@example.com", "malformed_link"},
		{"long token", q("token", strings.Repeat("a", linktoken.MaxTokenLen+1), "email", "ada@example.com"), "malformed_link"},
		{"altered token", q("token", tok+"x", "email", "ada@example.com"), "invalid_token"},
		{"another address", q("token", tok, "email", "eve@example.com"), "invalid_token"},
		{"expired", q("token", expired, "email", "ada@example.com"), "expired"},
	} {
		e.callback(tc.query)
		if f := e.h.LastFail(t); f.Type != autherr.Verification || f.Code != tc.code || f.Provider != "mail" {
			t.Errorf("%s: %v, want Verification (%s)", tc.name, f, tc.code)
		}
	}
	if len(e.h.Finished) != 0 {
		t.Errorf("a refused link signed in: %+v", e.h.Finished)
	}
}

// TestLinkLanguage: the message is in the language of the request's
// pages (the Host's Lang).
func TestLinkLanguage(t *testing.T) {
	e := newEnv(t, nil)
	form := url.Values{"email": {"ada@example.com"}}
	r := httptest.NewRequest(http.MethodPost, "/auth/signin/mail", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Accept-Language", "de-CH, en;q=0.5")
	e.f.SignIn(httptest.NewRecorder(), r, form)
	e.signIn("ada@example.com") // no Accept-Language: English
	if len(e.sent) != 2 || e.sent[0].Language != "de" || e.sent[1].Language != "en" {
		t.Fatalf("sent %d messages, languages %q and %q; want de, en", len(e.sent), e.sent[0].Language, e.sent[len(e.sent)-1].Language)
	}
}
