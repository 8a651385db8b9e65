package gatehouse_test

// Auth.js session interop: session cookies made by @auth/core (from npm,
// pinned in interop/authjs/package-lock.json, run here through Node) are
// read by a Gatehouse Handler, and Gatehouse's cookies are read by
// @auth/core's decode and by its Auth() answering GET /session, as a
// Next.js front end does. `make test` installs the Node modules; see
// docs/authjs-interop.md.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
)

const (
	authjsDir     = "interop/authjs"
	secureSession = "__Secure-authjs.session-token"
	plainSession  = "authjs.session-token"
	// Two secrets, as in a rotation: Gatehouse seals with the first.
	secretNew = "interop-new-secret-interop-new-secret-01"
	secretOld = "interop-old-secret-interop-old-secret-02"
)

// needAuthJS skips (or, with CI set, fails) when Node or the pinned
// @auth/core is missing.
func needAuthJS(t *testing.T) {
	t.Helper()
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(authjsDir, "node_modules", "@auth", "core", "package.json")); err != nil {
		missing = "@auth/core is not installed (run: npm ci --prefix " + authjsDir + ")"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("Auth.js interop test: %s", missing)
	}
	t.Skipf("Auth.js interop test skipped: %s", missing)
}

// authJS is one Node process running interop/authjs/serve.mjs: the
// operations of ops.mjs on @auth/core, one JSON line each way.
type authJS struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

// startAuthJS starts serve.mjs for the test, or skips (fails with CI set)
// when Node or the pinned @auth/core is missing.
func startAuthJS(t *testing.T) *authJS {
	t.Helper()
	needAuthJS(t)
	cmd := exec.Command("node", "serve.mjs")
	cmd.Dir = authjsDir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close() // serve.mjs ends at the end of its input
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return &authJS{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// with returns js reporting to t (a subtest's), on the same process.
func (js *authJS) with(t *testing.T) *authJS { c := *js; c.t = t; return &c }

// call runs one operation of ops.mjs with in and decodes its answer into out.
func (js *authJS) call(op string, in, out any) {
	t := js.t
	t.Helper()
	line, err := json.Marshal(map[string]any{"op": op, "in": in})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("%s: writing to Node: %v", op, err)
	}
	reply, err := js.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s: reading from Node: %v", op, err)
	}
	var answer struct {
		Out   json.RawMessage
		Error string
	}
	if err := json.Unmarshal(reply, &answer); err != nil || answer.Error != "" {
		t.Fatalf("%s: %v %s", op, err, answer.Error)
	}
	if err := json.Unmarshal(answer.Out, out); err != nil {
		t.Fatalf("%s: %v in %s", op, err, answer.Out)
	}
}

// encode seals token with @auth/core/jwt's encode.
func (js *authJS) encode(token map[string]any, secret []string, salt string, extra map[string]any) string {
	js.t.Helper()
	in := map[string]any{"token": token, "secret": secret, "salt": salt}
	for k, v := range extra {
		in[k] = v
	}
	var out struct{ JWE string }
	js.call("encode", in, &out)
	if strings.Count(out.JWE, ".") != 4 {
		js.t.Fatalf("encode gave %q", out.JWE)
	}
	return out.JWE
}

type authjsDecoded struct {
	Payload map[string]any
	Header  map[string]any
	Error   string
}

// decode opens a token with @auth/core/jwt's decode.
func (js *authJS) decode(token string, secret []string, salt string) authjsDecoded {
	js.t.Helper()
	var out authjsDecoded
	js.call("decode", map[string]any{"token": token, "secret": secret, "salt": salt}, &out)
	return out
}

type authjsSession struct {
	Status    int
	Body      map[string]any
	SetCookie []string
	Errors    []string
}

// getSession asks @auth/core's Auth() for GET https://app.example/auth/session
// with the given Cookie header.
func (js *authJS) getSession(cookie string, secret []string) authjsSession {
	js.t.Helper()
	var out authjsSession
	js.call("session", map[string]any{"url": "https://app.example/auth/session", "cookie": cookie, "secret": secret}, &out)
	if out.Status != http.StatusOK {
		js.t.Fatalf("Auth() GET /session answered %d: %+v", out.Status, out)
	}
	return out
}

// sessionCookies returns the session cookies among Set-Cookie headers,
// parsed, and the Cookie header a browser would send back.
func sessionCookies(t *testing.T, setCookie []string, name string) ([]*http.Cookie, string) {
	t.Helper()
	var cs []*http.Cookie
	var parts []string
	for _, h := range setCookie {
		c, err := http.ParseSetCookie(h)
		if err != nil {
			t.Fatalf("Set-Cookie %q: %v", h, err)
		}
		if strings.HasPrefix(c.Name, name) && c.Value != "" {
			cs = append(cs, c)
			parts = append(parts, c.Name+"="+c.Value)
		}
	}
	return cs, strings.Join(parts, "; ")
}

// tlsApp is newApp served over https with Auth.js's cookie names
// (Config.AuthJSCookieNames), so that its cookies are the __Secure- ones a
// production Auth.js front end writes; mutate may change that.
func newTLSApp(t *testing.T, mutate func(*gatehouse.Config)) (*app, *browser) {
	t.Helper()
	op := newOP(t, authtest.Options{AutoApprove: true})
	ln := listenLocal(t)
	base := "https://" + ln.Addr().String()
	cfg := gatehouse.Config{
		Secret:            []string{secretNew, secretOld},
		URL:               base + "/auth",
		Providers:         []providers.Provider{devProvider(op)},
		HTTPClient:        &http.Client{Timeout: 2 * time.Second},
		AuthJSCookieNames: true,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	h := newHandler(t, cfg)
	mux := http.NewServeMux()
	mux.Handle("/auth/", h)
	mux.Handle("/api/me", h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(gatehouse.SessionFrom(r.Context()))
	})))
	srv := serveOn(t, ln, h.Middleware(mux), true)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: srv.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &app{t: t, op: op, srv: srv, h: h, url: base}, &browser{t: t, c: c}
}

// me calls the app's API route with the given cookies and Authorization
// header and returns the status and the session JSON.
func (a *app) me(cookie, authorization string) (int, map[string]any) {
	a.t.Helper()
	req, _ := http.NewRequest("GET", a.url+"/api/me", nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	c := a.srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var s map[string]any
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &s); err != nil {
			a.t.Fatalf("/api/me: %v in %q", err, body)
		}
	}
	return resp.StatusCode, s
}

// extraClaims copies the token's extra claims into the session, so the
// tests can see what the Go side read.
func extraClaims(c *gatehouse.Config) {
	c.Callbacks.Session = func(_ context.Context, p gatehouse.SessionParams) (*gatehouse.Session, error) {
		s := p.Session
		if p.Token != nil {
			s.Extra = map[string]any{"claims": p.Token.Extra, "provider": p.Token.Provider, "jti": p.Token.ID}
		}
		return &s, nil
	}
}

func user(s map[string]any) map[string]any {
	u, _ := s["user"].(map[string]any)
	return u
}

// TestAuthJSCookieReadByGo: Auth.js seals a session (default claims,
// custom claims, the __Secure- cookie name as salt, an old secret of the
// rotation), and the Go API reads it from the cookie and as a Bearer
// token; Auth.js's own chunked rewrite of a large one reads too.
func TestAuthJSCookieReadByGo(t *testing.T) {
	js := startAuthJS(t)
	a, _ := newTLSApp(t, func(c *gatehouse.Config) {
		c.Session.Bearer = true
		extraClaims(c)
	})
	claims := map[string]any{
		"name": "Ada Lovelace", "email": "ada@example.com", "picture": "https://img.example/ada.png", "sub": "user-42",
		"role": "admin", "orgs": []any{"a", "b"},
	}
	// Sealed with the old secret, as a front end that has not rotated yet
	// does: the Go side finds it by kid.
	tok := js.encode(claims, []string{secretOld}, secureSession, nil)

	check := func(what string, status int, s map[string]any) {
		t.Helper()
		u := user(s)
		if status != http.StatusOK || u["id"] != "user-42" || u["name"] != "Ada Lovelace" || u["email"] != "ada@example.com" || u["image"] != "https://img.example/ada.png" {
			t.Fatalf("%s: %d %v", what, status, s)
		}
		extra, _ := s["claims"].(map[string]any)
		if extra["role"] != "admin" || len(extra["orgs"].([]any)) != 2 {
			t.Fatalf("%s: custom claims %v", what, s["claims"])
		}
		// jti is Auth.js's random UUID.
		if jti, _ := s["jti"].(string); len(jti) != 36 {
			t.Fatalf("%s: jti %v", what, s["jti"])
		}
	}
	status, s := a.me(secureSession+"="+tok, "")
	check("cookie", status, s)
	status, s = a.me("", "Bearer "+tok)
	check("Bearer", status, s)

	// The cookie name is the HKDF salt: the same token under the plain
	// name, or sealed for the plain name, is no session here.
	if status, _ := a.me(plainSession+"="+tok, ""); status != http.StatusFound {
		t.Fatalf("token under the plain name: %d", status)
	}
	plain := js.encode(claims, []string{secretNew}, plainSession, nil)
	if status, _ := a.me(secureSession+"="+plain, ""); status != http.StatusFound {
		t.Fatalf("token sealed for the plain name: %d", status)
	}
	// A secret the Go side does not hold.
	other := js.encode(claims, []string{"some-other-secret-some-other-secret-000"}, secureSession, nil)
	if status, _ := a.me(secureSession+"="+other, ""); status != http.StatusFound {
		t.Fatalf("token of another secret: %d", status)
	}
	// exp = now + maxAge: a token past it (and the 15 s tolerance) is no session.
	expired := js.encode(claims, []string{secretNew}, secureSession, map[string]any{"maxAge": -60})
	if d := js.decode(expired, []string{secretNew}, secureSession); d.Error == "" {
		t.Fatalf("Auth.js accepted its expired token: %v", d.Payload)
	}
	if status, _ := a.me(secureSession+"="+expired, ""); status != http.StatusFound {
		t.Fatalf("expired token: %d", status)
	}
	// A256GCM, which Auth.js's decode also accepts, with its SHA-256 kid.
	gcm := js.encode(claims, []string{secretOld}, secureSession, map[string]any{"enc": "A256GCM"})
	if d := js.decode(gcm, []string{secretNew, secretOld}, secureSession); d.Error != "" {
		t.Fatalf("Auth.js refused its A256GCM token: %s", d.Error)
	}
	status, s = a.me(secureSession+"="+gcm, "")
	check("A256GCM", status, s)

	// A large session: Auth.js's Auth() rewrites it as <name>.0, <name>.1
	// (3936 characters each) on GET /session, and the Go API reads those.
	big := map[string]any{}
	for k, v := range claims {
		big[k] = v
	}
	big["groups"] = strings.Repeat("group-", 1200)
	large := js.encode(big, []string{secretNew}, secureSession, nil)
	res := js.getSession(secureSession+"="+large, []string{secretNew})
	chunks, cookie := sessionCookies(t, res.SetCookie, secureSession)
	if len(chunks) < 2 || chunks[0].Name != secureSession+".0" || chunks[1].Name != secureSession+".1" || len(chunks[0].Value) != 3936 {
		t.Fatalf("Auth.js did not chunk: %v", res.SetCookie)
	}
	status, s = a.me(cookie, "")
	check("Auth.js chunks", status, s)
	if g, _ := s["claims"].(map[string]any)["groups"].(string); len(g) != 7200 {
		t.Fatalf("chunked claim: %d characters", len(g))
	}
}

// TestGoCookieReadByAuthJS: a session Gatehouse issues at sign-in (over
// https, so __Secure-, sealed with the newest secret, with a custom claim
// from the JWT callback) opens with @auth/core's decode and answers
// Auth()'s GET /session, as a Next.js front end would; chunked when
// large. Auth.js's rewrite of it reads in Go again.
func TestGoCookieReadByAuthJS(t *testing.T) {
	js := startAuthJS(t)
	for _, large := range []bool{false, true} {
		name := map[bool]string{false: "small", true: "chunked"}[large]
		t.Run(name, func(t *testing.T) {
			js := js.with(t)
			a, b := newTLSApp(t, func(c *gatehouse.Config) {
				extraClaims(c)
				c.Callbacks.JWT = func(_ context.Context, p gatehouse.JWTParams) (*gatehouse.Token, error) {
					tok := p.Token
					tok.Extra = map[string]any{"role": "admin"}
					if large {
						tok.Extra["groups"] = strings.Repeat("group-", 1200)
					}
					return &tok, nil
				}
			})
			if _, body := b.signIn(a, "dev", "/auth/session"); !strings.Contains(body, "alice@example.com") {
				t.Fatalf("sign-in: %q", body)
			}
			u, _ := url_(a)
			var names, parts []string
			for _, c := range b.c.Jar.Cookies(u) {
				if strings.HasPrefix(c.Name, secureSession) {
					names = append(names, c.Name)
					parts = append(parts, c.Name+"="+c.Value)
				}
			}
			cookie := strings.Join(parts, "; ")
			var tok string
			switch {
			case !large && len(names) == 1 && names[0] == secureSession:
				tok = strings.TrimPrefix(parts[0], secureSession+"=")
			case large && len(names) >= 2:
				// The jar keeps no order: join .0, .1, ….
				m := map[string]string{}
				for _, c := range b.c.Jar.Cookies(u) {
					m[c.Name] = c.Value
				}
				for i := range names {
					v, ok := m[secureSession+"."+strconv.Itoa(i)]
					if !ok || (i < len(names)-1 && len(v) != 3936) {
						t.Fatalf("chunk %d: %d characters (%v)", i, len(v), names)
					}
					tok += v
				}
			default:
				t.Fatalf("session cookies %v", names)
			}

			// @auth/core's decode, with the newest secret alone, and with
			// a list where the kid picks the right one.
			for _, secrets := range [][]string{{secretNew}, {secretOld, secretNew}} {
				d := js.decode(tok, secrets, secureSession)
				if d.Error != "" {
					t.Fatalf("Auth.js decode with %d secrets: %s", len(secrets), d.Error)
				}
				p := d.Payload
				if p["sub"] != "dev:alice" || p["email"] != "alice@example.com" || p["name"] != "Alice" || p["role"] != "admin" || p["provider"] != "dev" {
					t.Fatalf("payload %v", p)
				}
				iat, exp := p["iat"].(float64), p["exp"].(float64)
				if exp-iat != 30*24*3600 || time.Since(time.Unix(int64(iat), 0)) > time.Minute {
					t.Fatalf("iat %v exp %v", iat, exp)
				}
				if d.Header["alg"] != "dir" || d.Header["enc"] != "A256CBC-HS512" || d.Header["kid"] == nil {
					t.Fatalf("header %v", d.Header)
				}
			}
			// Only the old secret, the wrong salt: refused.
			if d := js.decode(tok, []string{secretOld}, secureSession); d.Error == "" {
				t.Fatal("Auth.js opened the token with a secret that did not seal it")
			}
			if d := js.decode(tok, []string{secretNew}, plainSession); d.Error == "" {
				t.Fatal("Auth.js opened the token under the plain cookie name")
			}

			// Auth() answers GET /session with the Go cookie(s).
			res := js.getSession(cookie, []string{secretNew, secretOld})
			if len(res.Errors) != 0 || user(res.Body)["email"] != "alice@example.com" || user(res.Body)["name"] != "Alice" {
				t.Fatalf("Auth() GET /session: %+v", res)
			}
			// It rewrote the session (Auth.js rolls it on every read); the
			// Go API reads that rewrite.
			rewritten, back := sessionCookies(t, res.SetCookie, secureSession)
			if len(rewritten) != len(names) {
				t.Fatalf("Auth.js rewrote %d cookies for %d", len(rewritten), len(names))
			}
			status, s := a.me(back, "")
			if status != http.StatusOK || user(s)["email"] != "alice@example.com" || s["claims"].(map[string]any)["role"] != "admin" || s["provider"] != "dev" {
				t.Fatalf("Go reading Auth.js's rewrite: %d %v", status, s)
			}
		})
	}
}

func url_(a *app) (*url.URL, error) { return url.Parse(a.url) }

// TestAuthJSSecretsFromEnv: FromEnv builds the same secret list, in the
// same order, as @auth/core does from the same environment, so the same
// secret seals on both sides.
func TestAuthJSSecretsFromEnv(t *testing.T) {
	js := startAuthJS(t)
	for _, env := range []map[string]string{
		{"AUTH_SECRET": secretNew},
		{"AUTH_SECRET": secretNew, "AUTH_SECRET_1": secretOld},
		{"AUTH_SECRET": "a-secret", "AUTH_SECRET_1": "one", "AUTH_SECRET_2": "two", "AUTH_SECRET_3": "three"},
		{"AUTH_SECRET_2": "two"},
	} {
		for _, k := range []string{"AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"} {
			t.Setenv(k, env[k])
		}
		var want struct{ Secret []string }
		js.call("env", env, &want)
		got := gatehouse.Config{}.FromEnv().Secret
		if strings.Join(got, ",") != strings.Join(want.Secret, ",") {
			t.Errorf("env %v: FromEnv %q, Auth.js %q", env, got, want.Secret)
		}
	}
}
