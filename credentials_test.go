package gatehouse_test

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
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
	return b.post(a.url+"/auth/callback/credentials", url.Values{
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
			resp := b.get(a.url + "/auth/signin")
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
			final, body := b.signInWith(resp)
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
			b2.signInWith(a.post(b2, "jane", "correct horse"))
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
	// page shows again: one cookie, kept for a minute.
	for i, r := range []*http.Response{wrong, unknown} {
		c := r.Cookies()
		typed := []string{"jane", "nobody"}[i]
		if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != credentialsFailed || len(c) != 1 ||
			c[0].Name != "gatehouse.typed" || !strings.Contains(c[0].Value, "v="+typed) || c[0].MaxAge > 60 || !c[0].HttpOnly {
			t.Fatalf("answered %d to %q with cookies %v", r.StatusCode, r.Header.Get("Location"), c)
		}
	}
	page := b.follow(a.post(b, "jane", "wrong"))
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
		"wrong token": {"username": {"jane"}, "password": {"correct horse"}, "csrfToken": {strings.Repeat("0", 64)}},
	} {
		resp := b.post(a.url+"/auth/callback/credentials", form)
		if loc := resp.Header.Get("Location"); !strings.Contains(loc, "error=MissingCSRF") {
			t.Fatalf("%s: answered %q", name, loc)
		}
	}
	// Nor by GET.
	if resp := b.get(a.url + "/auth/callback/credentials?username=jane&password=correct+horse"); !strings.Contains(resp.Header.Get("Location"), "error=CredentialsSignin") {
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
	resp := b3.do(req)
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
		return b.do(req).StatusCode
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
	resp := b.post(a.url+"/auth/signin/credentials", url.Values{"csrfToken": {b.csrf(a.app)}, "username": {"jane"}, "password": {"correct horse"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != a.url+"/auth/signin" || a.calls.Load() != 0 {
		t.Fatalf("answered %d to %q after %d Authorize calls", resp.StatusCode, resp.Header.Get("Location"), a.calls.Load())
	}
}
