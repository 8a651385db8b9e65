package gatehouse_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/dbtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// mailApp is an app with an e-mail provider sending through a real SMTP
// server on loopback, a memory adapter, and a log kept in memory.
type mailApp struct {
	*app
	mail *authtest.MailServer
	db   *memory.Adapter
	log  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newMailApp(t *testing.T, mutate func(*gatehouse.Config, *email.Config)) *mailApp {
	t.Helper()
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ms.Close() })
	m := &mailApp{mail: ms, db: memory.New(), log: &syncBuffer{}}
	m.app = newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		e := email.Config{Server: ms.URL(), From: "Gatehouse <no-reply@example.com>"}
		c.Adapter = m.db
		c.Logger = slog.New(slog.NewTextHandler(m.log, nil))
		if mutate != nil {
			mutate(c, &e)
		}
		c.Providers = append(c.Providers, e)
	})
	return m
}

// requestLink posts the e-mail form and returns the answer.
func (m *mailApp) requestLink(b *browser, addr, callbackURL string) *http.Response {
	m.t.Helper()
	return b.Post(m.url+"/auth/signin/email", url.Values{"csrfToken": {b.csrf(m.app)}, "email": {addr}, "callbackUrl": {callbackURL}})
}

// receive waits for the next message and returns it.
func (m *mailApp) receive() authtest.Message {
	m.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := m.mail.Next(ctx)
	if err != nil {
		m.t.Fatal(err)
	}
	return msg
}

// TestVerifyRequestNeedsEmail: the "check your e-mail" page is the e-mail
// provider's. A site without one answers {base}/verify-request like an
// unknown path (405 for a POST, as for every GET route).
func TestVerifyRequestNeedsEmail(t *testing.T) {
	a := newApp(t, authtest.Options{}, nil)
	b := newBrowser(t)
	for path, want := range map[string]int{"/auth/verify-request?provider=email&type=email": http.StatusNotFound, "/auth/no-such-route": http.StatusNotFound} {
		if resp := b.Get(a.url + path); resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	m := newMailApp(t, nil)
	if resp := b.Get(m.url + "/auth/verify-request?provider=email&type=email"); resp.StatusCode != http.StatusOK {
		t.Errorf("with an e-mail provider, GET verify-request: %d", resp.StatusCode)
	}
}

func TestEmailSignIn(t *testing.T) {
	for _, strategy := range []gatehouse.Strategy{gatehouse.StrategyDatabase, gatehouse.StrategyJWT} {
		t.Run(string(strategy), func(t *testing.T) {
			m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Session.Strategy = strategy })
			b := newBrowser(t)
			resp := m.requestLink(b, "  Carol@Example.COM ", "/private")
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/auth/verify-request?provider=email&type=email" {
				t.Fatalf("the form answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
			}
			page := b.Follow(resp)
			body, _ := io.ReadAll(page.Body)
			if page.StatusCode != http.StatusOK || !strings.Contains(string(body), "Check your email") {
				t.Fatalf("verify-request page: %d\n%s", page.StatusCode, body)
			}

			msg := m.receive()
			if len(msg.To) != 1 || msg.To[0] != "carol@example.com" || msg.From != "no-reply@example.com" {
				t.Fatalf("message from %q to %v", msg.From, msg.To)
			}
			if msg.Subject != "Sign in to 127.0.0.1" || !strings.Contains(msg.HTML, "Sign in") {
				t.Fatalf("subject %q, html:\n%s", msg.Subject, msg.HTML)
			}
			link := msg.Link()
			if !strings.HasPrefix(link, m.url+"/auth/callback/email?") {
				t.Fatalf("link %q in:\n%s", link, msg.Text)
			}
			token := mustParse(t, link).Query().Get("token")
			if len(token) != 64 {
				t.Fatalf("token %q", token)
			}

			// Following the link (in the same browser) signs in, creating the
			// user with the address marked verified.
			resp, body2 := b.FollowBody(b.Get(link))
			if resp.Request.URL.Path != "/private" || body2 != "hello carol@example.com" {
				t.Fatalf("after the link: %s %q (hops %v)", resp.Request.URL, body2, b.Hops)
			}
			u, err := m.db.GetUserByEmail(context.Background(), "carol@example.com")
			if err != nil || u.EmailVerified == nil || time.Since(*u.EmailVerified) > time.Minute {
				t.Fatalf("stored user %+v, %v", u, err)
			}
			s := b.session(m.app)
			if su, _ := s["user"].(map[string]any); su["email"] != "carol@example.com" || su["id"] != u.ID {
				t.Fatalf("session %v, stored id %s", s, u.ID)
			}

			// Replay: the same link, from another browser, fails.
			other := newBrowser(t)
			replay := other.Get(link)
			if loc := replay.Header.Get("Location"); replay.StatusCode != http.StatusFound || loc != "/auth/error?code=invalid_token&error=Verification" {
				t.Fatalf("replayed link answered %d to %q", replay.StatusCode, loc)
			}
			if errPage := other.Follow(replay); errPage.StatusCode != http.StatusForbidden {
				t.Fatalf("error page status %d", errPage.StatusCode)
			}
			if s := other.session(m.app); s != nil {
				t.Fatalf("the replayed link signed in: %v", s)
			}

			// The link's response hides it from third parties.
			if got := replay.Header.Get("Referrer-Policy"); got != "no-referrer" {
				t.Fatalf("Referrer-Policy %q", got)
			}
			if strings.Contains(m.log.String(), token) {
				t.Fatalf("the token reached the log:\n%s", m.log)
			}
		})
	}
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestEmailLinkExpired(t *testing.T) {
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) { e.MaxAge = time.Nanosecond })
	b := newBrowser(t)
	m.requestLink(b, "dave@example.com", "/").Body.Close()
	link := m.receive().Link()
	resp := b.Get(link)
	if loc := resp.Header.Get("Location"); loc != "/auth/error?code=expired&error=Verification" {
		t.Fatalf("expired link answered %d to %q", resp.StatusCode, loc)
	}
	if s := b.session(m.app); s != nil {
		t.Fatalf("signed in with an expired link: %v", s)
	}
	if _, err := m.db.GetUserByEmail(context.Background(), "dave@example.com"); !errors.Is(err, adapter.ErrNotFound) {
		t.Fatalf("an expired link created a user: %v", err)
	}
	// Used up all the same: the token is gone.
	if resp := b.Get(link); resp.Header.Get("Location") != "/auth/error?code=invalid_token&error=Verification" {
		t.Fatalf("second use of an expired link: %q", resp.Header.Get("Location"))
	}
}

func TestEmailLinkAltered(t *testing.T) {
	m := newMailApp(t, nil)
	b := newBrowser(t)
	m.requestLink(b, "erin@example.com", "/private").Body.Close()
	link := mustParse(t, m.receive().Link())
	q := link.Query()
	token := q.Get("token")

	alter := func(k, v string) string {
		u := *link
		q := u.Query()
		q.Set(k, v)
		u.RawQuery = q.Encode()
		return u.String()
	}
	flip := "0"
	if token[0] == '0' {
		flip = "1"
	}
	for name, u := range map[string]string{
		"one character changed": alter("token", flip+token[1:]),
		"token cut short":       alter("token", token[:32]),
		"another address":       alter("email", "mallory@example.com"),
		"no token":              alter("token", ""),
		"token twice":           link.String() + "&token=" + token,
		"malformed address":     alter("email", "erin@example.com,mallory@example.com"),
	} {
		resp := newBrowser(t).Get(u)
		loc := resp.Header.Get("Location")
		if !strings.HasPrefix(loc, "/auth/error?code=") || !strings.HasSuffix(loc, "&error=Verification") {
			t.Errorf("%s: answered %d to %q", name, resp.StatusCode, loc)
		}
	}
	// None of them used the real token up.
	resp, body := b.FollowBody(b.Get(link.String()))
	if resp.Request.URL.Path != "/private" || body != "hello erin@example.com" {
		t.Fatalf("the untouched link failed after the altered ones: %s %q", resp.Request.URL, body)
	}
}

// TestEmailNoEnumeration: the form's answer is the same, byte for byte,
// for an address a user has and one nobody has; both get a message.
func TestEmailNoEnumeration(t *testing.T) {
	m := newMailApp(t, nil)
	if _, err := m.db.CreateUser(context.Background(), adapter.User{Email: "known@example.com", Name: "Known"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.csrf(m.app) // the CSRF cookie is set before either request
	answer := func(addr string) string {
		resp := m.requestLink(b, addr, "/private")
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header.Clone()
		h.Del("Date")
		var sb strings.Builder
		h.Write(&sb)
		return resp.Status + "\n" + sb.String() + "\n" + string(body)
	}
	known, unknown := answer("known@example.com"), answer("unknown@example.com")
	if known != unknown {
		t.Fatalf("answers differ:\nknown:\n%s\nunknown:\n%s", known, unknown)
	}
	got := []string{m.receive().To[0], m.receive().To[0]}
	slices.Sort(got)
	if got[0] != "known@example.com" || got[1] != "unknown@example.com" {
		t.Fatalf("messages went to %v", got)
	}
}

// TestEmailSignInCallbackRefusalIsSilent: a SignIn callback that refuses an
// address before the link is sent changes nothing in the answer.
func TestEmailSignInCallbackRefusalIsSilent(t *testing.T) {
	var sawRequest bool
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) {
		c.Callbacks.SignIn = func(_ context.Context, p gatehouse.SignInParams) (bool, string, error) {
			sawRequest = sawRequest || p.VerificationRequest
			return p.User.Email != "banned@example.com", "", nil
		}
	})
	b := newBrowser(t)
	a := m.requestLink(b, "banned@example.com", "/")
	c := m.requestLink(b, "fine@example.com", "/")
	if a.StatusCode != c.StatusCode || a.Header.Get("Location") != c.Header.Get("Location") {
		t.Fatalf("refused %d %q, allowed %d %q", a.StatusCode, a.Header.Get("Location"), c.StatusCode, c.Header.Get("Location"))
	}
	if msg := m.receive(); msg.To[0] != "fine@example.com" || len(m.mail.Messages()) != 1 || !sawRequest {
		t.Fatalf("messages %d, first to %v, callback saw the request: %v", len(m.mail.Messages()), msg.To, sawRequest)
	}
}

func TestEmailMalformedAddress(t *testing.T) {
	m := newMailApp(t, nil)
	b := newBrowser(t)
	for _, addr := range []string{
		"",
		"alice",
		"alice@example.com,mallory@evil.com",   // CVE-2022-35924
		"alice@example.com\uff20evil.com",      // full-width @ (GHSA-7rqj-j65f-68wh)
		"\"alice@example.com\"@evil.com",       // quoted local part
		"Alice <alice@example.com>",            // display name
		"alice@example.com\r\nBcc: x@evil.com", // header injection
		"alice@localhost",
	} {
		resp := m.requestLink(b, addr, "/")
		if loc := resp.Header.Get("Location"); loc != "/auth/signin?code=invalid_email&error=EmailSignInError" {
			t.Errorf("%q: answered %d to %q", addr, resp.StatusCode, loc)
		}
	}
	page := b.Follow(m.requestLink(b, "not an address", "/"))
	body, _ := io.ReadAll(page.Body)
	if !strings.Contains(string(body), "That e-mail address cannot receive a sign-in link") {
		t.Fatalf("the sign-in page does not say what is wrong:\n%s", body)
	}
	if n := len(m.mail.Messages()); n != 0 {
		t.Fatalf("%d messages sent to malformed addresses", n)
	}
}

func TestEmailSendFailure(t *testing.T) {
	var sent int
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.SendVerificationRequest = func(context.Context, email.VerificationRequest) error {
			sent++
			return errors.New("the mail service is down")
		}
	})
	b := newBrowser(t)
	resp := m.requestLink(b, "frank@example.com", "/")
	if loc := resp.Header.Get("Location"); loc != "/auth/signin?code=send_failed&error=EmailSignin" || sent != 1 {
		t.Fatalf("answered %q after %d sends", loc, sent)
	}
	if !strings.Contains(m.log.String(), "the mail service is down") {
		t.Fatalf("the cause is not logged:\n%s", m.log)
	}
}

// A sender's error that repeats the message's address or link (an API
// answering "invalid recipient frank@…") is logged without either.
func TestEmailSendFailureLogsNoAddress(t *testing.T) {
	var link string
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.SendVerificationRequest = func(_ context.Context, req email.VerificationRequest) error {
			link = req.URL
			return fmt.Errorf("refused recipient %s for %s", req.Identifier, req.URL)
		}
	})
	b := newBrowser(t)
	resp := m.requestLink(b, "Frank@Example.com", "/")
	if loc := resp.Header.Get("Location"); loc != "/auth/signin?code=send_failed&error=EmailSignin" {
		t.Fatalf("answered %q", loc)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	token := u.Query().Get("token")
	log := m.log.String()
	if token == "" || !strings.Contains(log, "refused recipient") {
		t.Fatalf("no token in the link, or the cause is not logged:\n%s", log)
	}
	for _, secret := range []string{"frank@example.com", url.QueryEscape("frank@example.com"), token} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
}

func TestEmailJSONClient(t *testing.T) {
	m := newMailApp(t, nil)
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodPost, m.url+"/auth/signin/email",
		strings.NewReader(url.Values{"csrfToken": {b.csrf(m.app)}, "email": {"gina@example.com"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	resp := b.Do(req)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"url":"/auth/verify-request?provider=email\u0026type=email"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	m.receive()
}

func TestEmailNeedsCSRF(t *testing.T) {
	m := newMailApp(t, nil)
	resp := newBrowser(t).Post(m.url+"/auth/signin/email", url.Values{"email": {"h@example.com"}})
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=MissingCSRF") {
		t.Fatalf("answered %q", loc)
	}
	if n := len(m.mail.Messages()); n != 0 {
		t.Fatalf("%d messages sent without CSRF", n)
	}
}

func TestEmailConfig(t *testing.T) {
	base := func(p ...providers.Provider) gatehouse.Config {
		return gatehouse.Config{Secret: []string{testSecret}, Providers: p}
	}
	_, err := gatehouse.New(base(email.Config{Server: "smtps://mail.example.com", From: "a@example.com"}))
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Provider != "email" || ce.Field != "Adapter" {
		t.Fatalf("no adapter: %v", err)
	}
	cfg := base(email.Config{Server: "smtps://mail.example.com", From: "a@example.com"})
	cfg.Adapter = memory.New()
	if _, err := gatehouse.New(cfg); !errors.As(err, &ce) || ce.Field != "URL" {
		t.Fatalf("no URL: %v", err)
	}
	base = func(p ...providers.Provider) gatehouse.Config {
		return gatehouse.Config{Secret: []string{testSecret}, Providers: p, URL: "https://app.example.com/auth"}
	}
	cfg = base(email.Config{From: "a@example.com"})
	cfg.Adapter = memory.New()
	if _, err := gatehouse.New(cfg); !errors.As(err, &ce) || ce.Field != "server" {
		t.Fatalf("no server: %v", err)
	}
	cfg = base(email.Config{Server: "smtp://mail.example.com:25?tls=none", From: "a@example.com"})
	cfg.Adapter = memory.New()
	if _, err := gatehouse.New(cfg); !errors.As(err, &ce) || !strings.Contains(ce.Reason, "loopback") {
		t.Fatalf("plain SMTP to a remote host: %v", err)
	}
	cfg = base(email.Config{Server: "smtp://mail.example.com", From: "a@example.com"}, email.Config{Server: "smtp://mail.example.com", From: "a@example.com"})
	cfg.Adapter = memory.New()
	if _, err := gatehouse.New(cfg); !errors.As(err, &ce) || ce.Field != "id" {
		t.Fatalf("two e-mail providers with one id: %v", err)
	}
}

// TestEmailLinkConcurrentUse: of many simultaneous uses of one link,
// exactly one signs in, on each adapter.
func TestEmailLinkConcurrentUse(t *testing.T) {
	for _, kind := range append(stores, "postgres") {
		t.Run(kind, func(t *testing.T) {
			var db adapter.Adapter
			if kind == "postgres" {
				db = migratedPostgres(t)
			} else {
				db = openStore(t, kind).raw
			}
			m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
			m.requestLink(newBrowser(t), "ivy@example.com", "/private").Body.Close()
			link := m.receive().Link()
			var wg sync.WaitGroup
			var mu sync.Mutex
			signedIn := 0
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp := newBrowser(t).Get(link)
					resp.Body.Close()
					if resp.Header.Get("Location") == m.url+"/private" {
						mu.Lock()
						signedIn++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if signedIn != 1 {
				t.Fatalf("%d of 8 concurrent uses signed in, want 1", signedIn)
			}
		})
	}
}

// TestNonOAuthProvidersListed: GET providers and the template helper know
// the e-mail and credentials providers.
func TestNonOAuthProvidersListed(t *testing.T) {
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Name:      "Password",
			Fields:    []credentials.Field{{Name: "user", Label: "User <name>"}, {Name: "pw", Type: "password", Required: true}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil },
		})
	})
	resp := newBrowser(t).Get(m.url + "/auth/providers")
	var got map[string]struct{ ID, Name, Type, SigninURL, CallbackURL string }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	e, c := got["email"], got["credentials"]
	if e.Type != "email" || e.Name != "Email" || e.SigninURL != m.url+"/auth/signin/email" ||
		c.Type != "credentials" || c.Name != "Password" || c.CallbackURL != m.url+"/auth/callback/credentials" {
		t.Fatalf("providers: %+v", got)
	}

	tmpl := template.Must(template.New("t").Funcs(m.h.FuncMap()).Parse(`{{signIn "email"}}|{{signIn "credentials"}}`))
	req, _ := http.NewRequest(http.MethodGet, m.url+"/", nil)
	rec := httptest.NewRecorder()
	if err := m.h.Execute(rec, req, tmpl, nil); err != nil {
		t.Fatal(err)
	}
	out := rec.Body
	for _, want := range []string{
		`action="/auth/signin/email"`, `type="email" name="email"`, "Sign in with Email",
		`action="/auth/callback/credentials"`, `User &lt;name&gt; <input type="text" name="user">`, `type="password" name="pw" required`, "Sign in with Password",
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("signIn helper lacks %s:\n%s", want, out.String())
		}
	}
}

// TestEmailSendLimit: past the per-address limit the form answers 429 with
// Retry-After and sends nothing, for a known address as for an unknown
// one; the per-client limit covers many addresses.
func TestEmailSendLimit(t *testing.T) {
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.PerIdentifier = limit.NewMemory(2, time.Hour)
		e.PerIP = limit.NewMemory(6, time.Hour)
	})
	if _, err := m.db.CreateUser(context.Background(), adapter.User{Email: "known@example.com"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	for _, addr := range []string{"known@example.com", "unknown@example.com"} {
		for i := range 3 {
			resp := m.requestLink(b, addr, "/")
			resp.Body.Close()
			want := http.StatusSeeOther
			if i == 2 {
				want = http.StatusTooManyRequests
			}
			if resp.StatusCode != want || (want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "3600") {
				t.Fatalf("%s, request %d: %d, Retry-After %q", addr, i+1, resp.StatusCode, resp.Header.Get("Retry-After"))
			}
		}
	}
	if n := len(m.mail.Messages()); n != 4 {
		t.Fatalf("%d messages sent, want 4", n)
	}
	// Four links asked for, two refused: the client has made 4 counted
	// requests of 6; two more addresses pass, the next is refused.
	m.requestLink(b, "a@example.com", "/").Body.Close()
	m.requestLink(b, "b@example.com", "/").Body.Close()
	if resp := m.requestLink(b, "c@example.com", "/"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("per-client limit: %d", resp.StatusCode)
	}
}

// TestEmailLinkIgnoresHostHeader: a forged Host or X-Forwarded-Host does
// not change where the link points.
func TestEmailLinkIgnoresHostHeader(t *testing.T) {
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.TrustHost = true })
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodPost, m.url+"/auth/signin/email", strings.NewReader(url.Values{
		"csrfToken": {b.csrf(m.app)}, "email": {"victim@example.com"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Host", "evil.example")
	for _, c := range b.Client.Jar.Cookies(req.URL) {
		req.AddCookie(c) // by hand: the jar sends nothing for a request whose Host differs
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/auth/verify-request?provider=email&type=email" {
		t.Fatalf("answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if link := m.receive().Link(); !strings.HasPrefix(link, m.url+"/auth/callback/email?") {
		t.Fatalf("the link follows the forged host: %s", link)
	}
}

// migratedPostgres is an adapter on a schema of the test's own.
func migratedPostgres(t *testing.T) adapter.Adapter {
	t.Helper()
	schema, _ := dbtest.PostgresSchema(t, "gatehouse_scaleout")
	return dbtest.Postgres(t, schema)
}

// TestEmailScaleOut: a link asked for on one instance works on another
// that shares the secret and the PostgreSQL database, once.
func TestEmailScaleOut(t *testing.T) {
	db := migratedPostgres(t)
	first := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
	second := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
	first.requestLink(newBrowser(t), "scale@example.com", "/private").Body.Close()
	link := strings.Replace(first.receive().Link(), first.url, second.url, 1)
	b := newBrowser(t)
	// The link's callbackUrl names the first instance's origin, which the
	// second does not redirect to: it sends the browser home.
	resp, _ := b.FollowBody(b.Get(link))
	if resp.Request.URL.String() != second.url+"/" {
		t.Fatalf("on the second instance: %s", resp.Request.URL)
	}
	if _, body := b.FollowBody(b.Get(second.url + "/private")); body != "hello scale@example.com" {
		t.Fatalf("not signed in on the second instance: %q", body)
	}
	again := newBrowser(t).Get(strings.Replace(link, second.url, first.url, 1))
	if loc := again.Header.Get("Location"); loc != "/auth/error?code=invalid_token&error=Verification" {
		t.Fatalf("the link worked twice across instances: %q", loc)
	}
}

// TestEmailSignInStalledDatabase: asking for a sign-in link while the
// database stalls ends within the store bound, on the error page, and no
// link is sent. Before, the e-mail form's adapter calls had no bound and
// the request hung with the database.
func TestEmailSignInStalledDatabase(t *testing.T) {
	store := &outage{Adapter: memory.New()}
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = store })
	b := newBrowser(t)
	b.csrf(m.app)
	store.stall.Store(true)
	start := time.Now()
	resp := m.requestLink(b, "ada@example.com", "/private")
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the request took %v", d)
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/auth/error?code=adapter&error=AdapterError" {
		t.Fatalf("the form answered %d to %q, want the error page with AdapterError", resp.StatusCode, loc)
	}
	if n := len(m.mail.Messages()); n != 0 {
		t.Fatalf("%d messages sent", n)
	}
}
