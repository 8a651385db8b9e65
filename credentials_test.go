package gatehouse_test

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/password"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
	"github.com/gatehouse-auth/gatehouse/selfservice"
)

// credsApp is an app with a credentials provider that knows one user,
// jane with password "correct horse", and counts Authorize calls.
type credsApp struct {
	*app
	calls atomic.Int32
	db    *memory.Adapter
}

func newCredsApp(t *testing.T, mutate func(*gatehouse.Config, *credentials.Config)) *credsApp {
	t.Helper()
	a := &credsApp{}
	a.app = newApp(t, authtest.Options{}, func(c *gatehouse.Config) {
		cc := credentials.Config{
			Fields: []credentials.Field{
				{Name: "username", Label: "Username", Autocomplete: "username", Required: true},
				{Name: "password", Label: "Password", Type: "password", Placeholder: "your password", Required: true},
			},
			Authorize: func(_ context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
				a.calls.Add(1)
				switch {
				case c["username"] == "boom":
					return nil, errors.New("the user table is unreachable")
				case c["username"] == "suspended":
					return nil, &credentials.SignInError{Code: "suspended"}
				}
				ok := subtle.ConstantTimeCompare([]byte(c["password"]), []byte("correct horse")) == 1
				if c["username"] != "jane" || !ok {
					return nil, nil
				}
				return &profile.User{ID: "u-jane", Name: "Jane", Email: "Jane@Example.com"}, nil
			},
		}
		if mutate != nil {
			mutate(c, &cc)
		}
		a.db, _ = c.Adapter.(*memory.Adapter)
		c.Providers = append(c.Providers, cc)
	})
	return a
}

func (a *credsApp) post(b *browser, user, pass string) *http.Response {
	a.t.Helper()
	return b.Post(a.url+"/auth/callback/credentials", url.Values{
		"csrfToken": {b.csrf(a.app)}, "callbackUrl": {"/private"}, "username": {user}, "password": {pass}})

}

// credentialsFailed is where every failed attempt goes, whatever failed:
// the sign-in page, which keeps the destination for the next try.
const credentialsFailed = "/auth/signin?callbackUrl=%2Fprivate&code=credentials&error=CredentialsSignin"

func TestCredentialsSignIn(t *testing.T) {
	for _, tc := range []struct {
		name    string
		adapter bool
		s       gatehouse.Strategy
	}{
		{"jwt without adapter", false, gatehouse.StrategyJWT},
		{"jwt with adapter", true, gatehouse.StrategyJWT},
		{"database", true, gatehouse.StrategyDatabase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newCredsApp(t, func(c *gatehouse.Config, _ *credentials.Config) {
				if tc.adapter {
					c.Adapter = memory.New()
				}
				c.Session.Strategy = tc.s
			})
			b := newBrowser(t)

			// The sign-in page renders the declared fields, posting to the
			// callback with the CSRF token.
			resp := b.Get(a.url + "/auth/signin")
			page, _ := io.ReadAll(resp.Body)
			for _, want := range []string{`action="` + a.url + `/auth/callback/credentials"`, `name="username"`, `type="password" name="password" placeholder="your password"`, `>Password</label>`, `name="csrfToken"`} {
				if !strings.Contains(string(page), want) {
					t.Fatalf("sign-in page lacks %s:\n%s", want, page)
				}
			}

			resp = a.post(b, "jane", "correct horse")
			if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/private" {
				t.Fatalf("sign-in answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
			}
			final, body := b.FollowBody(resp)
			if final.Request.URL.Path != "/private" || body != "hello jane@example.com" {
				t.Fatalf("landed on %s: %q", final.Request.URL, body)
			}
			s := b.session(a.app)
			su, _ := s["user"].(map[string]any)
			wantID := "credentials:u-jane"
			if tc.adapter {
				u, err := a.db.GetUserByAccount(context.Background(), "credentials", "u-jane")
				if err != nil {
					t.Fatalf("no stored user for the account: %v", err)
				}
				wantID = u.ID
			}
			if su["id"] != wantID || su["name"] != "Jane" {
				t.Fatalf("session %v, want id %s", s, wantID)
			}

			// A second sign-in finds the same user.
			b2 := newBrowser(t)
			b2.FollowBody(a.post(b2, "jane", "correct horse"))
			if su2, _ := b2.session(a.app)["user"].(map[string]any); su2["id"] != wantID {
				t.Fatalf("second sign-in is user %v, want %s", su2["id"], wantID)
			}
		})
	}
}

// TestCredentialsGenericError: a wrong password and an unknown user get
// the same answer, and no session.
func TestCredentialsGenericError(t *testing.T) {
	a := newCredsApp(t, nil)
	b := newBrowser(t)
	wrong := a.post(b, "jane", "wrong")
	unknown := a.post(b, "nobody", "correct horse")
	// The same answer, but for the identifier typed, which the sign-in
	// page shows again: one cookie, sealed, kept for a minute.
	for i, r := range []*http.Response{wrong, unknown} {
		c := r.Cookies()
		typed := []string{"jane", "nobody"}[i]
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != credentialsFailed || len(c) != 1 ||
			c[0].Name != "gatehouse.typed" || strings.Contains(c[0].Value, typed) || c[0].MaxAge > 60 || !c[0].HttpOnly {
			t.Fatalf("answered %d to %q with cookies %v", r.StatusCode, r.Header.Get("Location"), c)
		}
	}
	page := b.Follow(a.post(b, "jane", "wrong"))
	body, _ := io.ReadAll(page.Body)
	for _, want := range []string{
		"Check the details you provided are correct",
		`name="username" value="jane"`,
		`aria-invalid="true" aria-describedby="credentials-0-error"`,
		`<p id="credentials-0-error" class="field-error">Sign-in failed.`,
	} {
		if !strings.Contains(string(body), want) {
			t.Fatalf("sign-in page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(string(body), `value="wrong"`) {
		t.Fatalf("the sign-in page shows the password typed:\n%s", body)
	}
	if s := b.session(a.app); s != nil {
		t.Fatalf("signed in after failures: %v", s)
	}

	// A server failure in Authorize is not a wrong password; a custom
	// code reaches the URL.
	if loc := a.post(b, "boom", "x").Header.Get("Location"); loc != "/auth/error?code=authorize&error=CallbackRouteError" {
		t.Fatalf("failing Authorize: %q", loc)
	}
	if loc := a.post(b, "suspended", "x").Header.Get("Location"); loc != "/auth/signin?callbackUrl=%2Fprivate&code=suspended&error=CredentialsSignin" {
		t.Fatalf("SignInError: %q", loc)
	}
}

func TestCredentialsNeedCSRF(t *testing.T) {
	a := newCredsApp(t, nil)
	b := newBrowser(t)
	b.csrf(a.app)
	for name, form := range map[string]url.Values{
		"no token":    {"username": {"jane"}, "password": {"correct horse"}},
		"wrong token": {"username": {"jane"}, "password": {"correct horse"}, "csrfToken": {strings.Repeat("0", 43)}},
	} {
		resp := b.Post(a.url+"/auth/callback/credentials", form)
		if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=MissingCSRF") {
			t.Fatalf("%s: answered %q", name, loc)
		}
	}
	// Nor by GET.
	if resp := b.Get(a.url + "/auth/callback/credentials?username=jane&password=correct+horse"); !strings.Contains(resp.Header.Get("Location"), "error=CredentialsSignin") {
		t.Fatalf("GET answered %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if n := a.calls.Load(); n != 0 {
		t.Fatalf("Authorize ran %d times without a valid CSRF token", n)
	}
	if s := b.session(a.app); s != nil {
		t.Fatalf("signed in: %v", s)
	}
}

type fakeClock struct{ t atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Unix(0, c.t.Load()) }
func (c *fakeClock) advance(d time.Duration) { c.t.Add(int64(d)) }

// TestCredentialsLockout: past the per-identifier limit the answer is 429
// with Retry-After, even for the right password, and Authorize is not
// called; the lock ends with the window; a success resets the count.
func TestCredentialsLockout(t *testing.T) {
	clock := &fakeClock{}
	clock.t.Store(time.Now().UnixNano())
	perID := limit.NewMemory(3, 10*time.Minute)
	perID.Now = clock.now
	a := newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) { c.PerIdentifier = perID })
	b := newBrowser(t)

	for range 3 {
		if loc := a.post(b, "Jane", "wrong").Header.Get("Location"); loc != credentialsFailed {
			t.Fatalf("failure answered %q", loc)
		}
	}
	calls := a.calls.Load()
	locked := a.post(b, " jane ", "correct horse") // the identifier is normalised for counting
	body, _ := io.ReadAll(locked.Body)
	if locked.StatusCode != http.StatusTooManyRequests || locked.Header.Get("Retry-After") != "600" {
		t.Fatalf("locked attempt answered %d, Retry-After %q", locked.StatusCode, locked.Header.Get("Retry-After"))
	}
	if !strings.Contains(string(body), "Too many") || a.calls.Load() != calls {
		t.Fatalf("Authorize ran while locked (%d calls), or page:\n%s", a.calls.Load()-calls, body)
	}
	if s := b.session(a.app); s != nil {
		t.Fatal("signed in while locked")
	}
	// Another account from the same address is not locked.
	if loc := a.post(b, "john", "x").Header.Get("Location"); loc != credentialsFailed {
		t.Fatalf("other identifier: %q", loc)
	}

	// The lock ends with the window.
	clock.advance(10*time.Minute + time.Second)
	if resp := a.post(b, "jane", "correct horse"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/private" {
		t.Fatalf("after the window: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	// A success resets the count: two failures, a success, two more
	// failures do not lock.
	b2 := newBrowser(t)
	for _, password := range []string{"wrong", "wrong", "correct horse", "wrong", "wrong"} {
		a.post(b2, "jane", password)
	}
	if resp := a.post(b2, "jane", "correct horse"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("a success did not reset the count: %d", resp.StatusCode)
	}

	// JSON clients get 429 with {url}.
	b3 := newBrowser(t)
	for range 3 {
		a.post(b3, "jim", "wrong")
	}
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/callback/credentials", strings.NewReader(url.Values{
		"csrfToken": {b3.csrf(a.app)}, "username": {"jim"}, "password": {"x"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Auth-Return-Redirect", "1")
	resp := b3.Do(req)
	jb, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(jb), "error=TooManyRequests") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("JSON client: %d %s", resp.StatusCode, jb)
	}
}

// TestCredentialsPerIPLimit: many identifiers from one address hit the
// per-IP limit; a success does not reset it.
func TestCredentialsPerIPLimit(t *testing.T) {
	a := newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
		c.PerIP = limit.NewMemory(4, time.Hour)
		c.PerIdentifier = limit.None{}
	})
	b := newBrowser(t)
	for _, try := range []struct{ username, password string }{
		{"u1", "x"}, {"u2", "x"}, {"jane", "correct horse"}, {"u3", "x"}, {"u4", "x"},
	} {
		a.post(b, try.username, try.password)
	}
	resp := a.post(b, "u5", "x")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("fifth failure from one address: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	// Behind a proxy, ClientIP says who the client is.
	a2 := newCredsApp(t, func(_ *gatehouse.Config, c *credentials.Config) {
		c.PerIP = limit.NewMemory(1, time.Hour)
		c.ClientIP = func(r *http.Request) string { return r.Header.Get("X-Test-Client") }
	})
	post := func(client string) int {
		req, _ := http.NewRequest(http.MethodPost, a2.url+"/auth/callback/credentials", strings.NewReader(url.Values{
			"csrfToken": {b.csrf(a2.app)}, "username": {"x" + client}, "password": {"x"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Test-Client", client)
		return b.Do(req).StatusCode
	}
	if s1, s2, s3 := post("10.0.0.1"), post("10.0.0.2"), post("10.0.0.1"); s1 != http.StatusSeeOther || s2 != http.StatusSeeOther || s3 != http.StatusTooManyRequests {
		t.Fatalf("per-client statuses %d %d %d", s1, s2, s3)
	}
	// IPv6 clients are counted by /64: a new address in the same network
	// does not start afresh.
	if s1, s2, s3 := post("2001:db8:1:2::1"), post("2001:db8:1:2::99"), post("2001:db8:1:3::1"); s1 != http.StatusSeeOther || s2 != http.StatusTooManyRequests || s3 != http.StatusSeeOther {
		t.Fatalf("IPv6 statuses %d %d %d", s1, s2, s3)
	}
}

func TestCredentialsConfig(t *testing.T) {
	for name, c := range map[string]credentials.Config{
		"no authorize": {Fields: []credentials.Field{{Name: "u"}}},
		"no fields":    {Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil }},
		"reserved":     {Fields: []credentials.Field{{Name: "csrfToken"}}, Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil }},
	} {
		_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, Providers: []providers.Provider{c}})
		var ce *gatehouse.ConfigError
		if !errors.As(err, &ce) || ce.Provider != "credentials" {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSignInCallbackRedirect: a URL returned by the SignIn callback is
// where the browser goes, in the same request (it was set as a cookie but
// the request's old cookie was read), and only when same-origin.
func TestSignInCallbackRedirect(t *testing.T) {
	a := newCredsApp(t, func(c *gatehouse.Config, _ *credentials.Config) {
		c.Callbacks.SignIn = func(_ context.Context, p gatehouse.SignInParams) (bool, string, error) {
			if p.User.Name == "Jane" {
				return true, "/welcome?from=callback", nil
			}
			return true, "https://evil.example/", nil
		}
	})
	resp := a.post(newBrowser(t), "jane", "correct horse")
	if loc := resp.Header.Get("Location"); loc != a.url+"/welcome?from=callback" {
		t.Fatalf("went to %q", loc)
	}
	dev := newBrowser(t)
	if final, _ := dev.signIn(a.app, "dev", "/private"); final.Request.URL.Path != "/" {
		t.Fatalf("an off-site callback URL was followed: %s", final.Request.URL)
	}
}

// TestCredentialsSignInRoute: POST {base}/signin/credentials leads to the
// sign-in page, where the form is (Auth.js), and signs nobody in.
func TestCredentialsSignInRoute(t *testing.T) {
	a := newCredsApp(t, nil)
	b := newBrowser(t)
	resp := b.Post(a.url+"/auth/signin/credentials", url.Values{"csrfToken": {b.csrf(a.app)}, "username": {"jane"}, "password": {"correct horse"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/auth/signin" || a.calls.Load() != 0 {
		t.Fatalf("answered %d to %q after %d Authorize calls", resp.StatusCode, resp.Header.Get("Location"), a.calls.Load())
	}
}

// pwApp is an app with a password-accounts provider "password", database
// sessions, and an outbox for its mail.
type pwApp struct {
	*app
	db *memory.Adapter

	mu   sync.Mutex
	mail []passwordaccount.Message

	resets, changes, revoked atomic.Int32
}

func newPwApp(t *testing.T, mutate func(*gatehouse.Config, *passwordaccount.Config)) *pwApp {
	t.Helper()
	return newPwAppWith(t, authtest.Options{}, mutate)
}

// newPwAppWith is newPwApp with a provider made with opOpts.
func newPwAppWith(t *testing.T, opOpts authtest.Options, mutate func(*gatehouse.Config, *passwordaccount.Config)) *pwApp {
	t.Helper()
	a := &pwApp{db: memory.New()}
	h, err := password.NewHasher(password.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 0)
	if err != nil {
		t.Fatal(err)
	}
	a.app = newApp(t, opOpts, func(c *gatehouse.Config) {
		c.Adapter = a.db
		c.SelfService = selfservice.Routes{} // the accounts and sessions routes
		c.Session.Strategy = gatehouse.StrategyDatabase
		c.Events.PasswordReset = func(context.Context, profile.User) { a.resets.Add(1) }
		c.Events.PasswordChange = func(context.Context, profile.User) { a.changes.Add(1) }
		c.Events.RevokeSessions = func(_ context.Context, _ profile.User, n int) { a.revoked.Add(int32(n)) }
		pc := passwordaccount.Config{Hasher: h, Send: func(_ context.Context, m passwordaccount.Message) error {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.mail = append(a.mail, m)
			return nil
		}}
		if mutate != nil {
			mutate(c, &pc)
		}
		c.Providers = append(c.Providers, pc)
	})
	return a
}

// next waits for the next message (they are sent after the answer).
func (a *pwApp) next(kind passwordaccount.Kind) passwordaccount.Message {
	a.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		a.mu.Lock()
		if len(a.mail) > 0 {
			m := a.mail[0]
			a.mail = a.mail[1:]
			a.mu.Unlock()
			if m.Kind != kind {
				a.t.Fatalf("sent a %s message, want %s", m.Kind, kind)
			}
			return m
		}
		a.mu.Unlock()
	}
	a.t.Fatalf("no %s message was sent", kind)
	return passwordaccount.Message{}
}

// quiet checks that nothing was sent.
func (a *pwApp) quiet() {
	a.t.Helper()
	time.Sleep(50 * time.Millisecond)
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.mail) != 0 {
		a.t.Fatalf("sent %+v, want nothing", a.mail)
	}
}

// wholeAnswer posts path (password/sign-up or password/forgot) for addr
// from b, as a page or as JSON, and returns the whole answer as text
// (status, headers but Date, body), for comparing two answers byte for
// byte.
func (a *pwApp) wholeAnswer(b *browser, path, addr string, html bool) string {
	form := url.Values{"email": {addr}}
	if path == "password/sign-up" {
		form.Set("password", "some other password")
	}
	resp := a.postAs(b, path, form, html)
	defer resp.Body.Close()
	resp.Header.Del("Date")
	var out bytes.Buffer
	out.WriteString(resp.Status + "\n")
	_ = resp.Header.Write(&out)
	_, _ = io.Copy(&out, resp.Body)
	return out.String()
}

// postAs posts form (with this browser's CSRF token) to {base}/{path}, as
// a page's form (html) or a single-page app's fetch.
func (a *pwApp) postAs(b *browser, path string, form url.Values, html bool) *http.Response {
	a.t.Helper()
	form.Set("csrfToken", b.csrf(a.app))
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/"+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", a.url)
	if html {
		req.Header.Set("Accept", "text/html,application/xhtml+xml")
	}
	return b.Do(req)
}

// jsonOf reads a JSON answer.
func jsonOf(t *testing.T, resp *http.Response) (int, map[string]any) {
	t.Helper()
	defer resp.Body.Close()
	var v map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("status %d, not JSON: %v", resp.StatusCode, err)
	}
	return resp.StatusCode, v
}

func (a *pwApp) signIn(b *browser, addr, pw string) *http.Response {
	return a.postAs(b, "callback/password", url.Values{"email": {addr}, "password": {pw}, "callbackUrl": {"/private"}}, true)
}

// signedIn reports who the browser is signed in as ("" for nobody).
func (a *pwApp) signedIn(b *browser) string {
	s := b.session(a.app)
	u, _ := s["user"].(map[string]any)
	e, _ := u["email"].(string)
	return e
}

func TestPasswordAccountFlow(t *testing.T) {
	a := newPwApp(t, nil)
	b := newBrowser(t)

	// The sign-in page offers the form and its two links.
	resp := b.Get(a.url + "/auth/signin")
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`action="` + a.url + `/auth/callback/password"`, `name="password" autocomplete="current-password"`,
		`href="` + a.url + `/auth/password/sign-up">Create an account`, `href="` + a.url + `/auth/password/forgot">Forgot your password?`} {
		if !strings.Contains(string(page), want) {
			t.Fatalf("sign-in page lacks %s:\n%s", want, page)
		}
	}

	// Sign-up (as a single-page app): "check your e-mail".
	code, v := jsonOf(t, a.postAs(b, "password/sign-up", url.Values{"email": {"Ann@Example.com"}, "password": {"correct horse battery"}, "name": {"Ann"}}, false))
	if code != http.StatusOK || v["ok"] != true || v["code"] != "check_email" {
		t.Fatalf("sign-up: %d %v", code, v)
	}
	verify := a.next(passwordaccount.KindVerify)

	// Before confirming, the right password is sent to confirm (and gets
	// a new link); a wrong one is the generic refusal.
	resp = a.signIn(b, "ann@example.com", "correct horse battery")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "error=EmailUnverified") {
		t.Fatalf("unconfirmed sign-in: %d %s", resp.StatusCode, loc)
	}
	a.next(passwordaccount.KindVerify)
	resp = a.signIn(b, "ann@example.com", "wrong horse battery")
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=CredentialsSignin") {
		t.Fatalf("wrong password: %d %s", resp.StatusCode, loc)
	}

	// The confirmation link signs in.
	final, _ := b.FollowBody(b.Get(verify.URL))
	if final.StatusCode != http.StatusOK || a.signedIn(b) != "ann@example.com" {
		t.Fatalf("after the link: %d at %s, signed in as %q", final.StatusCode, final.Request.URL, a.signedIn(b))
	}
	if u, err := a.db.GetUserByEmail(context.Background(), "ann@example.com"); err != nil || u.EmailVerified == nil || u.Name != "Ann" {
		t.Fatalf("stored user %+v, %v", u, err)
	}

	// A second browser signs in with the password.
	b2 := newBrowser(t)
	final, body := b2.FollowBody(a.signIn(b2, "ann@example.com", "correct horse battery"))
	if final.Request.URL.Path != "/private" || body != "hello ann@example.com" {
		t.Fatalf("password sign-in landed on %s: %q", final.Request.URL, body)
	}

	// Forgot, from a third browser; the reset page does not use the link.
	b3 := newBrowser(t)
	code, v = jsonOf(t, a.postAs(b3, "password/forgot", url.Values{"email": {"ann@example.com"}}, false))
	if code != http.StatusOK || v["code"] != "check_email" {
		t.Fatalf("forgot: %d %v", code, v)
	}
	reset := a.next(passwordaccount.KindReset)
	link := mustParse(t, reset.URL)
	for range 2 {
		resp = b3.Get(reset.URL)
		page, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), `name="token" value="`+link.Query().Get("token")+`"`) || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("reset page: %d\n%s", resp.StatusCode, page)
		}
	}
	// A refused password keeps the link usable.
	resp = a.postAs(b3, "password/reset", url.Values{"email": {link.Query().Get("email")}, "token": {link.Query().Get("token")}, "password": {"short"}}, true)
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(page), "too short") || !strings.Contains(string(page), link.Query().Get("token")) {
		t.Fatalf("short reset password: %d\n%s", resp.StatusCode, page)
	}
	code, v = jsonOf(t, a.postAs(b3, "password/reset", url.Values{"email": {link.Query().Get("email")}, "token": {link.Query().Get("token")}, "password": {"a brand new password"}}, false))
	if code != http.StatusOK || v["code"] != "password_reset" {
		t.Fatalf("reset: %d %v", code, v)
	}
	// Every session ended: both browsers are signed out.
	if a.signedIn(b) != "" || a.signedIn(b2) != "" {
		t.Fatal("a session survived the reset")
	}
	if a.resets.Load() != 1 || a.revoked.Load() != 2 {
		t.Fatalf("events: %d resets, %d sessions revoked; want 1, 2", a.resets.Load(), a.revoked.Load())
	}
	// The link works once.
	code, v = jsonOf(t, a.postAs(b3, "password/reset", url.Values{"email": {link.Query().Get("email")}, "token": {link.Query().Get("token")}, "password": {"another new password"}}, false))
	if code != http.StatusBadRequest || v["code"] != "invalid_token" {
		t.Fatalf("second reset: %d %v", code, v)
	}

	// The old password is refused, the new one accepted.
	if loc := a.signIn(b, "ann@example.com", "correct horse battery").Header.Get("Location"); !strings.Contains(loc, "error=CredentialsSignin") {
		t.Fatalf("old password: %s", loc)
	}
	final, body = b.FollowBody(a.signIn(b, "ann@example.com", "a brand new password"))
	if body != "hello ann@example.com" {
		t.Fatalf("new password landed on %s: %q", final.Request.URL, body)
	}
}

// Sign-up and forgot answer byte for byte the same for a known and an
// unknown address, as a page and as JSON.
func TestPasswordAccountSameAnswer(t *testing.T) {
	a := newPwApp(t, nil)
	b := newBrowser(t)
	a.postAs(b, "password/sign-up", url.Values{"email": {"known@example.com"}, "password": {"correct horse battery"}}, false).Body.Close()
	a.next(passwordaccount.KindVerify)

	answer := func(path, addr string, html bool) string { return a.wholeAnswer(b, path, addr, html) }
	for _, path := range []string{"password/sign-up", "password/forgot"} {
		for _, html := range []bool{false, true} {
			known, unknown := answer(path, "known@example.com", html), answer(path, "unknown-"+path[9:]+"@example.com", html)
			if known != unknown {
				t.Errorf("%s (html %v) answers differ:\nknown:\n%s\nunknown:\n%s", path, html, known, unknown)
			}
			if !strings.Contains(known, "200 OK") {
				t.Errorf("%s: %s", path, known)
			}
		}
	}
	// The known address was told of each sign-up and sent each reset
	// link; the new sign-ups were sent confirmations; the unknown
	// "forgot" addresses nothing.
	var kinds []string
	for deadline := time.Now().Add(5 * time.Second); len(kinds) < 6 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		a.mu.Lock()
		for _, m := range a.mail {
			kinds = append(kinds, string(m.Kind)+" "+m.To)
		}
		a.mail = nil
		a.mu.Unlock()
	}
	a.quiet()
	slices.Sort(kinds)
	want := []string{"exists known@example.com", "exists known@example.com", "reset known@example.com", "reset known@example.com",
		"verify unknown-sign-up@example.com", "verify unknown-sign-up@example.com"}
	// The second sign-up of the new address finds it known by then.
	want[5] = "exists unknown-sign-up@example.com"
	slices.Sort(want)
	if !slices.Equal(kinds, want) {
		t.Fatalf("sent %q, want %q", kinds, want)
	}
	if _, err := a.db.GetUserByEmail(context.Background(), "unknown-forgot@example.com"); err == nil {
		t.Fatal("forgot created a user")
	}
}

// TestPasswordAccountSameTime checks that the answer to a sign-up does
// not tell a known address from a new one by when it comes: on both
// paths the message goes out after the answer, and the password is
// hashed. The first is checked by holding every message until the answer
// is in (a sign-up that mailed first would fail, or not answer); the
// second by comparing the process's CPU time, which other processes on a
// busy machine do not inflate as they inflate wall time.
func TestPasswordAccountSameTime(t *testing.T) {
	gate, stop := make(chan struct{}), make(chan struct{})
	a := newPwApp(t, func(_ *gatehouse.Config, p *passwordaccount.Config) {
		p.Hasher = nil // the default parameters: a hash costs tens of milliseconds
		send := p.Send
		p.Send = func(ctx context.Context, m passwordaccount.Message) error {
			select {
			case <-gate:
				return send(ctx, m)
			case <-stop:
				return errors.New("the test is over")
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		p.SendPerIP, p.SendPerIdentifier = limit.None{}, limit.None{}
	})
	t.Cleanup(func() { close(stop) }) // runs before the app's: no message waits on a closed app
	b := newBrowser(t)
	csrf := b.csrf(a.app)
	// cost posts a sign-up for addr and returns the CPU time the process
	// spent until the answer; then it lets the message go and checks it.
	cost := func(addr string, kind passwordaccount.Kind) time.Duration {
		form := url.Values{"email": {addr}, "password": {"correct horse battery"}, "csrfToken": {csrf}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.url+"/auth/password/sign-up", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		start := cpuTime()
		resp, err := b.Client.Do(req)
		spent := cpuTime() - start
		if err != nil {
			t.Fatalf("sign-up of %s: no answer while its message waits: %v", addr, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("sign-up of %s answered %d", addr, resp.StatusCode)
		}
		select {
		case gate <- struct{}{}:
		case <-time.After(10 * time.Second):
			t.Fatalf("sign-up of %s sent no message", addr)
		}
		if m := a.next(kind); m.To != addr {
			t.Fatalf("sign-up of %s mailed %s", addr, m.To)
		}
		return spent
	}
	cost("known@example.com", passwordaccount.KindVerify)
	var known, unknown []time.Duration
	for i := range 5 {
		known = append(known, cost("known@example.com", passwordaccount.KindExists))
		unknown = append(unknown, cost("new"+string(rune('a'+i))+"@example.com", passwordaccount.KindVerify))
	}
	slices.Sort(known)
	slices.Sort(unknown)
	mk, mu := known[2], unknown[2]
	t.Logf("median CPU time until the sign-up's answer: known %v, unknown %v", mk, mu)
	if mk == 0 && mu == 0 {
		t.Skip("the process's CPU time is not measured on this system")
	}
	// Half a hash's cost: skipping the hash on one path is more.
	if diff := (mk - mu).Abs(); diff > max(mk, mu)/2 {
		t.Fatalf("known and unknown sign-ups cost %v and %v of CPU time", mk, mu)
	}
}

func TestPasswordChange(t *testing.T) {
	a := newPwApp(t, func(_ *gatehouse.Config, p *passwordaccount.Config) { p.AllowUnverified = true })
	b1, b2 := newBrowser(t), newBrowser(t)
	a.postAs(b1, "password/sign-up", url.Values{"email": {"cid@example.com"}, "password": {"the old password"}}, false).Body.Close()
	a.next(passwordaccount.KindVerify)
	for _, b := range []*browser{b1, b2} {
		b.FollowBody(a.signIn(b, "cid@example.com", "the old password"))
		if a.signedIn(b) != "cid@example.com" {
			t.Fatal("sign-in without confirming failed with AllowUnverified")
		}
	}
	// Signed out: refused.
	code, _ := jsonOf(t, a.postAs(newBrowser(t), "password/change", url.Values{"currentPassword": {"the old password"}, "newPassword": {"a new password"}}, false))
	if code != http.StatusUnauthorized {
		t.Fatalf("change while signed out: %d", code)
	}
	code, v := jsonOf(t, a.postAs(b1, "password/change", url.Values{"currentPassword": {"not the password"}, "newPassword": {"a new password"}}, false))
	if code != http.StatusBadRequest || v["code"] != "wrong_password" {
		t.Fatalf("wrong current password: %d %v", code, v)
	}
	code, v = jsonOf(t, a.postAs(b1, "password/change", url.Values{"currentPassword": {"the old password"}, "newPassword": {"a new password"}}, false))
	if code != http.StatusOK || v["code"] != "password_changed" {
		t.Fatalf("change: %d %v", code, v)
	}
	if a.signedIn(b1) != "cid@example.com" || a.signedIn(b2) != "" {
		t.Fatalf("after the change: this browser %q, the other %q; want this one only", a.signedIn(b1), a.signedIn(b2))
	}
	if a.changes.Load() != 1 || a.revoked.Load() != 1 {
		t.Fatalf("events: %d changes, %d revoked", a.changes.Load(), a.revoked.Load())
	}
	b3 := newBrowser(t)
	if _, body := b3.FollowBody(a.signIn(b3, "cid@example.com", "a new password")); body != "hello cid@example.com" {
		t.Fatalf("new password: %q", body)
	}
	// The change page is for signed-in users.
	req, _ := http.NewRequest(http.MethodGet, a.url+"/auth/password/change", nil)
	req.Header.Set("Accept", "text/html")
	if resp := newBrowser(t).Do(req); resp.StatusCode != http.StatusFound || !strings.Contains(resp.Header.Get("Location"), "/auth/signin?callbackUrl=") {
		t.Fatalf("change page signed out: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestPasswordAccountRefusals(t *testing.T) {
	a := newPwApp(t, nil)
	b := newBrowser(t)
	// No CSRF token.
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/password/sign-up", strings.NewReader("email=x%40example.com&password=correct+horse+battery"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if code, _ := jsonOf(t, b.Do(req)); code != http.StatusForbidden {
		t.Fatalf("sign-up without CSRF: %d", code)
	}
	// Another site's form.
	if resp := b.crossSitePost(a.url+"/auth/password/forgot", url.Values{"email": {"x@example.com"}, "csrfToken": {b.csrf(a.app)}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site forgot: %d", resp.StatusCode)
	}
	// A too-short password, as a page: the form again, with the address.
	resp := a.postAs(b, "password/sign-up", url.Values{"email": {"dee@example.com"}, "password": {"short"}}, true)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(page), "The password is too short.") || !strings.Contains(string(page), `value="dee@example.com"`) {
		t.Fatalf("short password: %d\n%s", resp.StatusCode, page)
	}
	code, v := jsonOf(t, a.postAs(b, "password/sign-up", url.Values{"email": {"not an address"}, "password": {"correct horse battery"}}, false))
	if code != http.StatusBadRequest || v["code"] != "invalid_email" {
		t.Fatalf("bad address: %d %v", code, v)
	}
	a.quiet()
	// A used or made-up confirmation link.
	resp = b.Get(a.url + "/auth/password/verify?token=00&email=dee%40example.com")
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=Verification") {
		t.Fatalf("bad link: %d %s", resp.StatusCode, loc)
	}
	// An adapter without password storage is a configuration error.
	_, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: "http://localhost/auth", Adapter: struct{ adapter.Adapter }{memory.New()},
		Providers: []providers.Provider{passwordaccount.Config{Send: func(context.Context, passwordaccount.Message) error { return nil }}}})
	if err == nil || !strings.Contains(err.Error(), "PasswordStore") {
		t.Fatalf("New without a PasswordStore: %v", err)
	}
}
