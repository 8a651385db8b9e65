package main

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/redistest"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
)

// testSecret is the AUTH_SECRET of the sites the tests start.
const testSecret = "example-test-secret-0123456789abcdef"

// siteEnv is the environment of a site listening on a free port of host,
// with a database of the test's own, and more.
func siteEnv(t *testing.T, host string, more map[string]string) map[string]string {
	env := map[string]string{"ADDR": host + ":0", "DATABASE_URL": filepath.Join(t.TempDir(), "example.db"), "API_ADDR": "off"}
	maps.Copy(env, more)
	return env
}

// newClient returns a client with a cookie jar of its own.
func newClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

// start runs the example with env and returns its URL.
func start(t *testing.T, env map[string]string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, func(k string) string { return env[k] }, ready) }()
	select {
	case u := <-ready:
		t.Cleanup(func() {
			cancel()
			<-done
		})
		return u
	case err := <-done:
		cancel()
		t.Fatalf("example did not start: %v", err)
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatal("example did not start in time")
	}
	return ""
}

var (
	formRe   = regexp.MustCompile(`(?s)<form ([^>]*)>(.*?)</form>`)
	actionRe = regexp.MustCompile(`\baction="([^"]+)"`)
	hiddenRe = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	userRe   = regexp.MustCompile(`name="authtest_user" value="([^"]+)"`)
)

// submit posts the first POST form of page whose action contains action,
// with its hidden fields and extra: a form of the example's own pages
// (method, then action) or of the built-in ones (action, then method).
func submit(t *testing.T, c *http.Client, pageURL, page, action string, extra url.Values) *http.Response {
	t.Helper()
	for _, m := range formRe.FindAllStringSubmatch(page, -1) {
		a := actionRe.FindStringSubmatch(m[1])
		if a == nil || !strings.Contains(m[1], `method="post"`) {
			continue
		}
		act := html.UnescapeString(a[1])
		if !strings.Contains(act, action) {
			continue
		}
		form := url.Values{}
		for _, h := range hiddenRe.FindAllStringSubmatch(m[2], -1) {
			form.Set(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
		}
		for k, v := range extra {
			form[k] = v
		}
		base, _ := url.Parse(pageURL)
		target, _ := base.Parse(act)
		resp, err := c.PostForm(target.String(), form)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	t.Fatalf("no form with action %q on %s:\n%s", action, pageURL, page)
	return nil
}

func read(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return string(b)
}

// wantSessionOn gives the second site the cookies c holds for the first,
// as a browser would for two instances behind one name, and checks that
// the second instance sees alice's session.
func wantSessionOn(t *testing.T, c *http.Client, first, second string) {
	t.Helper()
	u1, _ := url.Parse(first)
	u2, _ := url.Parse(second)
	c.Jar.SetCookies(u2, c.Jar.Cookies(u1))
	if _, p := get(t, c, second+"/private"); !strings.Contains(p, "alice@example.com") {
		t.Fatalf("the second instance did not see the session:\n%s", p)
	}
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	return resp, read(t, resp)
}

// TestSignInAsAPersonWould signs in through the home page's button and the
// development provider's page, sees the private page, restarts the site
// and is still signed in (the session lives in SQLite), then signs out.
func TestSignInAsAPersonWould(t *testing.T) {
	env := siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1"})
	site := start(t, env)
	c := newClient()

	_, home := get(t, c, site+"/")
	if !strings.Contains(home, "Sign in with Development") {
		t.Fatalf("home page has no development sign-in button:\n%s", home)
	}
	resp := submit(t, c, site+"/", home, "/auth/signin/development", nil)
	devPage := read(t, resp)
	if !strings.Contains(devPage, "Development sign-in") || !strings.Contains(devPage, "Continue as Alice") {
		t.Fatalf("did not reach the provider's page (%s):\n%s", resp.Request.URL, devPage)
	}
	if m := userRe.FindStringSubmatch(devPage); m == nil || m[1] != "alice" {
		t.Fatalf("no user button for alice")
	}
	resp = submit(t, c, resp.Request.URL.String(), devPage, "authorize", url.Values{"authtest_user": {"alice"}})
	page := read(t, resp)
	if resp.Request.URL.Path != "/" || !strings.Contains(page, "Signed in as <strong>Alice Example</strong>") {
		t.Fatalf("after sign-in: %s\n%s", resp.Request.URL, page)
	}
	_, private := get(t, c, site+"/private")
	if !strings.Contains(private, "alice@example.com") || !strings.Contains(private, `id="add-passkey" class="btn secondary" data-action="register">Add a passkey`) {
		t.Fatalf("private page:\n%s", private)
	}

	// A second site on the same database and secret reads the session:
	// it is in SQLite, not in the process.
	site2 := start(t, env)
	wantSessionOn(t, c, site, site2)

	_, home = get(t, c, site+"/")
	resp = submit(t, c, site+"/", home, "/auth/signout", nil)
	if page := read(t, resp); !strings.Contains(page, "You are not signed in") {
		t.Fatalf("after sign-out:\n%s", page)
	}
	if resp, _ := get(t, c, site2+"/private"); resp.Request.URL.Path != "/auth/signin" {
		t.Fatalf("the session survived sign-out on the other instance: %s", resp.Request.URL)
	}
}

var outboxLinkRe = regexp.MustCompile(`<a href="([^"]+/auth/callback/email\?[^"]+)">Sign in</a>`)

// TestEmailSignInThroughTheOutbox signs in as a person would in
// development: types an address on the home page, opens the outbox,
// clicks the link.
func TestEmailSignInThroughTheOutbox(t *testing.T) {
	site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1"}))
	c := newClient()

	_, home := get(t, c, site+"/")
	resp := submit(t, c, site+"/", home, "/auth/signin/email", url.Values{"email": {"Reader@Example.com"}})
	if page := read(t, resp); resp.Request.URL.Path != "/auth/verify-request" || !strings.Contains(page, "Check your email") {
		t.Fatalf("after the e-mail form: %s\n%s", resp.Request.URL, page)
	}
	_, box := get(t, c, site+"/dev/mail")
	m := outboxLinkRe.FindStringSubmatch(box)
	if m == nil || !strings.Contains(box, "reader@example.com") {
		t.Fatalf("no link in the outbox:\n%s", box)
	}
	resp, page := get(t, c, html.UnescapeString(m[1]))
	if resp.Request.URL.Path != "/" || !strings.Contains(page, "(reader@example.com)") {
		t.Fatalf("after the link: %s\n%s", resp.Request.URL, page)
	}
	// The link works once.
	other := newClient()
	if resp, _ := get(t, other, html.UnescapeString(m[1])); resp.StatusCode != http.StatusForbidden || resp.Request.URL.Path != "/auth/error" {
		t.Fatalf("second use: %d %s", resp.StatusCode, resp.Request.URL)
	}
}

// TestEmailSignInThroughSMTP: with AUTH_EMAIL_SERVER the link goes out by
// SMTP, here to a real server on loopback, and there is no outbox.
func TestEmailSignInThroughSMTP(t *testing.T) {
	ms, err := authtest.NewMailServer(authtest.MailOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "AUTH_EMAIL_SERVER": ms.URL(), "AUTH_EMAIL_FROM": "Example <site@example.com>"}))
	c := newClient()
	_, home := get(t, c, site+"/")
	if strings.Contains(home, "Sign in with Password") {
		t.Fatal("the demo password form is offered outside development mode")
	}
	read(t, submit(t, c, site+"/", home, "/auth/signin/email", url.Values{"email": {"smtp-reader@example.com"}}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := ms.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if msg.From != "site@example.com" || msg.To[0] != "smtp-reader@example.com" {
		t.Fatalf("message from %s to %v", msg.From, msg.To)
	}
	if resp, page := get(t, c, msg.Link()); !strings.Contains(page, "(smtp-reader@example.com)") {
		t.Fatalf("after the link: %s\n%s", resp.Request.URL, page)
	}
	if resp, _ := get(t, c, site+"/dev/mail"); resp.StatusCode == http.StatusOK {
		t.Fatal("the outbox is served outside development mode")
	}
}

// TestPasswordSignIn uses the development demo user on the built-in
// sign-in page.
func TestPasswordSignIn(t *testing.T) {
	site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1"}))
	c := newClient()
	_, page := get(t, c, site+"/auth/signin")
	for _, want := range []string{"Sign in with Development", "Sign in with Email", "Sign in with Password", `name="username"`, `type="password"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("sign-in page lacks %q:\n%s", want, page)
		}
	}
	resp := submit(t, c, site+"/auth/signin", page, "/auth/callback/credentials", url.Values{"username": {"demo"}, "password": {"wrong"}})
	if body := read(t, resp); resp.Request.URL.Path != "/auth/signin" || !strings.Contains(body, "Check the details you provided are correct") {
		t.Fatalf("wrong password: %s\n%s", resp.Request.URL, body)
	}
	_, page = get(t, c, site+"/auth/signin")
	resp = submit(t, c, site+"/auth/signin", page, "/auth/callback/credentials", url.Values{"username": {"demo"}, "password": {"demo"}})
	if body := read(t, resp); !strings.Contains(body, "Signed in as <strong>Demo User</strong>") {
		t.Fatalf("demo sign-in: %s\n%s", resp.Request.URL, body)
	}
}

// TestPasskeysOffered: reached as localhost, the example offers passkeys on
// the built-in sign-in page, and answers WebAuthn options for localhost.
func TestPasskeysOffered(t *testing.T) {
	site := start(t, siteEnv(t, "localhost", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1"}))
	c := newClient()
	_, page := get(t, c, site+"/auth/signin")
	if !strings.Contains(page, "Sign in with Passkey") || !strings.Contains(page, `autocomplete="username webauthn"`) {
		t.Fatalf("the sign-in page offers no passkey:\n%s", page)
	}
	resp, body := get(t, c, site+"/auth/webauthn-options/passkey?action=authenticate")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"rpId":"localhost"`) || !strings.Contains(body, `"userVerification":"required"`) {
		t.Fatalf("webauthn-options = %d %s", resp.StatusCode, body)
	}
	if _, js := get(t, c, site+"/auth/webauthn.js"); !strings.Contains(js, "navigator.credentials") {
		t.Fatalf("/auth/webauthn.js is not the passkey script")
	}
}

// TestRunsWithRedis: with REDIS_URL, two instances keep their sessions in
// Redis (a session made on one is read on the other, and ended on both by
// a sign-out on either) and count their limits there.
func TestRunsWithRedis(t *testing.T) {
	rdb := redistest.NewClient(t)
	ctx := context.Background()
	sessionsBefore, _ := rdb.Keys(ctx, redisstore.DefaultPrefix+"session:*").Result()
	env := siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1", "REDIS_URL": redistest.URL()})
	site, site2 := start(t, env), start(t, env)
	c := newClient()

	_, home := get(t, c, site+"/")
	resp := submit(t, c, site+"/", home, "/auth/signin/development", nil)
	resp = submit(t, c, resp.Request.URL.String(), read(t, resp), "authorize", url.Values{"authtest_user": {"alice"}})
	if page := read(t, resp); !strings.Contains(page, "Signed in as <strong>Alice Example</strong>") {
		t.Fatalf("after sign-in: %s\n%s", resp.Request.URL, page)
	}
	if after, _ := rdb.Keys(ctx, redisstore.DefaultPrefix+"session:*").Result(); len(after) <= len(sessionsBefore) {
		t.Fatalf("no session was stored in Redis (%d keys before, %d after)", len(sessionsBefore), len(after))
	}
	if limits, _ := rdb.Keys(ctx, redislimit.DefaultPrefix+"rate:*").Result(); len(limits) == 0 {
		t.Fatal("the rate limit does not count in Redis")
	}
	wantSessionOn(t, c, site, site2)
	_, home = get(t, c, site2+"/")
	read(t, submit(t, c, site2+"/", home, "/auth/signout", nil))
	if resp, _ := get(t, c, site+"/private"); resp.Request.URL.Path != "/auth/signin" {
		t.Fatalf("the session survived a sign-out on the other instance: %s", resp.Request.URL)
	}
}

// TestEnvFile checks that the example reads the .env that `gatehouse
// secret -write` writes, that the environment wins over it, and that a
// malformed file is refused without showing a value.
func TestEnvFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	body := "# Added by `gatehouse secret`.\nAUTH_SECRET=" + strings.Repeat("f", 44) + "\nexport ADDR='file:1'\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ADDR": "env:2"}
	getenv, err := withEnvFile(func(k string) string { return env[k] }, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := getenv("AUTH_SECRET"); got != strings.Repeat("f", 44) {
		t.Errorf("AUTH_SECRET = %q, want the file's", got)
	}
	if got := getenv("ADDR"); got != "env:2" {
		t.Errorf("ADDR = %q, want the environment's", got)
	}

	// No file: the environment alone.
	getenv, err = withEnvFile(func(k string) string { return env[k] }, filepath.Join(dir, "missing"))
	if err != nil || getenv("ADDR") != "env:2" || getenv("AUTH_SECRET") != "" {
		t.Errorf("without a file: %v, ADDR=%q", err, getenv("ADDR"))
	}

	if err := os.WriteFile(path, []byte("AUTH_SECRET=\"s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = withEnvFile(func(k string) string { return env[k] }, path)
	if err == nil || !strings.Contains(err.Error(), path+":1:") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a malformed file: error %v, want one naming line 1 and no value", err)
	}
}

// TestAPIKeyFromThePrivatePage: a signed-in person makes an API key on
// the keys page the private page links; a program uses it at /api/me and trades it for a
// token at /auth/token; without it /api/me answers 401.
func TestAPIKeyFromThePrivatePage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the second service
	if err != nil {
		t.Fatal(err)
	}
	apiAddr := ln.Addr().String()
	ln.Close()
	site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret, "DEV": "1", "API_ADDR": apiAddr}))
	c := newClient()
	_, page := get(t, c, site+"/auth/signin")
	read(t, submit(t, c, site+"/auth/signin", page, "/auth/callback/credentials", url.Values{"username": {"demo"}, "password": {"demo"}}))
	if _, private := get(t, c, site+"/private"); !strings.Contains(private, `href="/auth/api-keys"`) {
		t.Fatal("the private page does not link the keys page")
	}
	// The keys page's form, posted by a program (no Accept: text/html):
	// the JSON answer.
	req, _ := http.NewRequest(http.MethodGet, site+"/auth/api-keys", nil)
	req.Header.Set("Accept", "text/html")
	keysPage, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp := submit(t, c, site+"/auth/api-keys", read(t, keysPage), "/auth/api-keys", url.Values{"name": {"ci"}, "permissions": {"profile:read"}})
	var made struct{ Key, ID string }
	if err := json.NewDecoder(resp.Body).Decode(&made); err != nil || resp.StatusCode != http.StatusCreated || !strings.HasPrefix(made.Key, "gh_"+made.ID+"_") {
		t.Fatalf("making a key: %d %+v %v", resp.StatusCode, made, err)
	}
	resp.Body.Close()
	call := func(method, path, key string) (int, map[string]any) {
		req, _ := http.NewRequest(method, site+path, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if status, out := call(http.MethodGet, "/api/me", made.Key); status != http.StatusOK || out["key"] != made.ID {
		t.Errorf("/api/me with the key: %d %v", status, out)
	}
	if status, _ := call(http.MethodGet, "/api/me", ""); status != http.StatusUnauthorized {
		t.Errorf("/api/me without a key: %d", status)
	}
	req, _ = http.NewRequest(http.MethodPost, site+"/auth/token", strings.NewReader("scope=profile:read"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+made.Key)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	status := resp.StatusCode
	token, _ := out["access_token"].(string)
	if status != http.StatusOK || token == "" {
		t.Fatalf("/auth/token with the key: %d %v", status, out)
	}
	// The second service, started by the same command, takes the token
	// (verified with the site's keys) and nothing else.
	for _, tc := range []struct {
		auth string
		want int
	}{{"Bearer " + token, http.StatusOK}, {"Bearer " + made.Key, http.StatusUnauthorized}, {"", http.StatusUnauthorized}} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+apiAddr+"/me", nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var me map[string]any
		json.NewDecoder(resp.Body).Decode(&me)
		resp.Body.Close()
		if resp.StatusCode != tc.want || (tc.want == http.StatusOK && me["user"] == nil) {
			t.Errorf("the API with %.20q: %d %v, want %d", tc.auth, resp.StatusCode, me, tc.want)
		}
	}
}
