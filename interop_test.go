package gatehouse_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/internal/nodetest"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

// Auth.js session interop: session cookies made by @auth/core (from npm,
// pinned in interop/authjs/package-lock.json, run here through Node) are
// read by a Gatehouse Handler, and Gatehouse's cookies are read by
// @auth/core's decode and by its Auth() answering GET /session, as a
// Next.js front end does. `make test` installs the Node modules; see
// docs/authjs-interop.md.

const (
	authjsDir     = "interop/authjs"
	secureSession = "__Secure-authjs.session-token"
	plainSession  = "authjs.session-token"
	// Two secrets, as in a rotation: Gatehouse seals with the first.
	secretNew = "interop-new-secret-interop-new-secret-01"
	secretOld = "interop-old-secret-interop-old-secret-02"
)

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
	nodetest.Need(t, "Auth.js interop test", authjsDir, "@auth/core", "npm ci --prefix "+authjsDir)
	_, in, out := nodetest.Start(t, authjsDir, "serve.mjs", os.Stderr)
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
	b := newBrowser(t)
	b.Client.Transport = srv.Client().Transport
	return &app{t: t, op: op, srv: srv, h: h, url: base}, b
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
			for _, c := range b.Client.Jar.Cookies(u) {
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
				for _, c := range b.Client.Jar.Cookies(u) {
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

// startInteropApp serves a site using Gatehouse (cfg, with Secret, URL and
// HTTPClient filled in when empty) on ln, with a protected /private page,
// the same shape as newApp without the authtest provider.
func startInteropApp(t *testing.T, ln net.Listener, cfg gatehouse.Config) *app {
	t.Helper()
	base := "http://" + ln.Addr().String()
	sitetest.Defaults(&cfg, base, testSecret)
	h := newHandler(t, cfg)
	srv := serveOn(t, ln, h.Middleware(siteMux(h)), false)
	return &app{t: t, srv: srv, h: h, url: base}
}

func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln := listenLocal(t)
	return ln
}

// Yandex ID end to end, against a loopback server that answers in the
// shapes of Yandex's /authorize, /token and /info endpoints. Only the hosts
// of the built-in provider's endpoints change.

const (
	yandexClientID     = "4760187d81bc4b7799476b42b5103713"
	yandexClientSecret = "4a1f2c3b5d6e7f8091a2b3c4d5e6f708"
	yandexAccessToken  = "y0_AgAAAAAAxxxxAAG8XgAAAAEB9t2cAAAa2F8FLzdGnaaZZBcVX-gVgLDr0Q"
	yandexRefreshToken = "1:GN686QVt0mmakDd9:A4pYuW9LGk0_UnlrMIWklkAuJkUWbq27loFekJVmSYrdfzdePBy7:A-2dHOmBxiXgajnD-kYOwQ"
	yandexExpiresIn    = 31536000
)

// yandexFullProfile is a full answer of https://login.yandex.ru/info
// with every access granted.
const yandexFullProfile = `{
	"id": "1000034426",
	"login": "ivan",
	"client_id": "4760187d81bc4b7799476b42b5103713",
	"psuid": "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
	"default_email": "ivan@yandex.ru",
	"emails": ["ivan@yandex.ru"],
	"display_name": "Ivan",
	"real_name": "Ivan Ivanov",
	"first_name": "Ivan",
	"last_name": "Ivanov",
	"sex": "male",
	"birthday": "1987-03-12",
	"default_avatar_id": "21377/enc-0a1b2c3d4e5f",
	"is_avatar_empty": false,
	"default_phone": {"id": 12345678, "number": "+79037659418"}
}`

// yandexServer speaks the shapes of Yandex ID's endpoints and checks what
// it is sent: PKCE S256 at /authorize, client_secret_basic and the
// verifier at /token, the access token at /info.
type yandexServer struct {
	t           *testing.T
	srv         *httptest.Server
	redirectURI string
	profile     string

	mu         sync.Mutex
	authorize  []url.Values
	codes      map[string]string // code → code_challenge
	tokenCalls int
	infoAuth   []string // Authorization headers at /info
}

func newYandexServer(t *testing.T, redirectURI, profileJSON string) *yandexServer {
	y := &yandexServer{t: t, redirectURI: redirectURI, profile: profileJSON, codes: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", y.handleAuthorize)
	mux.HandleFunc("POST /token", y.handleToken)
	mux.HandleFunc("GET /info", y.handleInfo)
	y.srv = httptest.NewServer(mux)
	t.Cleanup(y.srv.Close)
	return y
}

func yandexError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

func (y *yandexServer) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	y.mu.Lock()
	y.authorize = append(y.authorize, q)
	y.mu.Unlock()
	switch {
	case q.Get("client_id") != yandexClientID:
		y.t.Errorf("/authorize: client_id %q", q.Get("client_id"))
		http.Error(w, "unknown client", http.StatusBadRequest)
		return
	case q.Get("redirect_uri") != y.redirectURI:
		y.t.Errorf("/authorize: redirect_uri %q, want %q", q.Get("redirect_uri"), y.redirectURI)
		http.Error(w, "redirect_uri mismatch", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code":
		y.t.Errorf("/authorize: response_type %q", q.Get("response_type"))
		http.Error(w, "unsupported response_type", http.StatusBadRequest)
		return
	case q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43:
		y.t.Errorf("/authorize: no PKCE S256: method %q challenge %q", q.Get("code_challenge_method"), q.Get("code_challenge"))
		http.Error(w, "PKCE S256 required", http.StatusBadRequest)
		return
	}
	y.mu.Lock()
	code := fmt.Sprintf("%07d", 4510000+len(y.authorize)) // Yandex codes are 7 digits
	y.codes[code] = q.Get("code_challenge")
	y.mu.Unlock()
	back := url.Values{"code": {code}}
	if s := q.Get("state"); s != "" {
		back.Set("state", s)
	}
	http.Redirect(w, r, y.redirectURI+"?"+back.Encode(), http.StatusFound)
}

func (y *yandexServer) handleToken(w http.ResponseWriter, r *http.Request) {
	y.mu.Lock()
	y.tokenCalls++
	y.mu.Unlock()
	id, secret, ok := r.BasicAuth()
	if !ok || id != yandexClientID || secret != yandexClientSecret {
		y.t.Errorf("/token: client authentication: basic=%v id=%q", ok, id)
		yandexError(w, http.StatusBadRequest, "invalid_client", "Client not found")
		return
	}
	if err := r.ParseForm(); err != nil {
		yandexError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	if r.PostForm.Has("client_secret") {
		y.t.Errorf("/token: client_secret in the body as well as in the header")
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		y.t.Errorf("/token: grant_type %q", r.PostForm.Get("grant_type"))
		yandexError(w, http.StatusBadRequest, "unsupported_grant_type", "")
		return
	}
	code := r.PostForm.Get("code")
	y.mu.Lock()
	challenge, known := y.codes[code]
	delete(y.codes, code) // single use
	y.mu.Unlock()
	if !known {
		y.t.Errorf("/token: unknown code %q", code)
		yandexError(w, http.StatusBadRequest, "invalid_grant", "Code has expired")
		return
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	if base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
		y.t.Errorf("/token: code_verifier %q does not match the challenge %q", r.PostForm.Get("code_verifier"), challenge)
		yandexError(w, http.StatusBadRequest, "invalid_grant", "Code verifier is invalid")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"access_token":  yandexAccessToken,
		"token_type":    "bearer",
		"expires_in":    yandexExpiresIn,
		"refresh_token": yandexRefreshToken,
	})
}

func (y *yandexServer) handleInfo(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	y.mu.Lock()
	y.infoAuth = append(y.infoAuth, auth)
	y.mu.Unlock()
	scheme, tok, _ := strings.Cut(auth, " ")
	// Yandex documents "Authorization: OAuth <token>" and accepts Bearer.
	if (scheme != "OAuth" && !strings.EqualFold(scheme, "Bearer")) || tok != yandexAccessToken {
		y.t.Errorf("/info: Authorization %q", auth)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if r.URL.Query().Get("format") != "json" {
		y.t.Errorf("/info: format %q", r.URL.Query().Get("format"))
	}
	if r.URL.Query().Has("oauth_token") || r.URL.Query().Has("access_token") {
		y.t.Errorf("/info: the token is in the URL: %s", r.URL)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write([]byte(y.profile))
}

// newYandexApp serves a site whose only provider is yandex.New with the
// endpoints moved to y, recording the SignIn events.
func newYandexApp(t *testing.T, profileJSON string) (*app, *yandexServer, func() []account.Account) {
	t.Helper()
	ln := listenLoopback(t)
	y := newYandexServer(t, "http://"+ln.Addr().String()+"/auth/callback/yandex", profileJSON)
	var mu sync.Mutex
	var events []account.Account
	a := startInteropApp(t, ln, gatehouse.Config{
		Providers: []providers.Provider{yandex.New(providers.OAuthUserConfig[yandex.Profile]{
			ClientID:      yandexClientID,
			ClientSecret:  yandexClientSecret,
			Authorization: providers.AuthorizationEndpoint{URL: y.srv.URL + "/authorize"},
			Token:         providers.TokenEndpoint{URL: y.srv.URL + "/token"},
			Userinfo:      providers.UserinfoEndpoint[yandex.Profile]{URL: y.srv.URL + "/info?format=json"},
		})},
		Events: gatehouse.Events{SignIn: func(_ context.Context, _ profile.User, acct *account.Account, _ bool) {
			mu.Lock()
			events = append(events, *acct)
			mu.Unlock()
		}},
	})
	return a, y, func() []account.Account {
		mu.Lock()
		defer mu.Unlock()
		return append([]account.Account(nil), events...)
	}
}

func TestYandexSignIn(t *testing.T) {
	a, y, events := newYandexApp(t, yandexFullProfile)
	b := newBrowser(t)
	start := time.Now()
	resp, body := b.signIn(a, "yandex", "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello ivan@yandex.ru" {
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.Hops)
	}

	// The authorization request: Yandex's scope and PKCE S256.
	y.mu.Lock()
	if len(y.authorize) != 1 || y.tokenCalls != 1 || len(y.infoAuth) != 1 {
		y.mu.Unlock()
		t.Fatalf("authorize %d, token %d, info %d calls", len(y.authorize), y.tokenCalls, len(y.infoAuth))
	}
	q, infoAuth := y.authorize[0], y.infoAuth[0]
	y.mu.Unlock()
	if q.Get("scope") != "login:info login:email login:avatar" || q.Get("code_challenge_method") != "S256" {
		t.Errorf("authorization request = %v", q)
	}
	if infoAuth != "Bearer "+yandexAccessToken {
		t.Errorf("/info was sent Authorization %q", infoAuth)
	}

	// The session's user, mapped from the profile.
	s := b.session(a)
	user, _ := s["user"].(map[string]any)
	want := map[string]any{
		"id":    "yandex:1000034426",
		"name":  "Ivan",
		"email": "ivan@yandex.ru",
		"image": "https://avatars.yandex.net/get-yapic/21377/enc-0a1b2c3d4e5f/islands-200",
	}
	for k, v := range want {
		if user[k] != v {
			t.Errorf("session user %s = %v, want %v", k, user[k], v)
		}
	}

	// The SignIn event's account.
	evs := events()
	if len(evs) != 1 {
		t.Fatalf("SignIn event ran %d times", len(evs))
	}
	acct := evs[0]
	if acct.Provider != "yandex" || acct.ProviderAccountID != "1000034426" || acct.Type != account.TypeOAuth {
		t.Errorf("account = %+v", acct)
	}
	if acct.AccessToken != yandexAccessToken || acct.RefreshToken != yandexRefreshToken || acct.TokenType != "bearer" {
		t.Errorf("account tokens = %+v", acct.TokenSet)
	}
	if wantExp := start.Unix() + yandexExpiresIn; acct.ExpiresAt < wantExp-5 || acct.ExpiresAt > wantExp+5 {
		t.Errorf("expires_at = %d, want about %d (now + expires_in)", acct.ExpiresAt, wantExp)
	}
}

// TestYandexStubAvatarNoDefaultEmail: the stub avatar gives no image, and
// without default_email the first of emails is the address. Without
// display_name, the name is real_name.
func TestYandexStubAvatarNoDefaultEmail(t *testing.T) {
	a, _, events := newYandexApp(t, `{
		"id": "1000034427",
		"login": "x",
		"client_id": "4760187d81bc4b7799476b42b5103713",
		"psuid": "1.AAceCw.AbCdEfGhIjKlMnOpQrStUv.WxYz0123456789abcdef",
		"emails": ["x@yandex.ru"],
		"real_name": "Xenia X",
		"first_name": "Xenia",
		"last_name": "X",
		"sex": null,
		"birthday": null,
		"default_avatar_id": "0/0-0",
		"is_avatar_empty": true
	}`)
	b := newBrowser(t)
	resp, body := b.signIn(a, "yandex", "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello x@yandex.ru" {
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.Hops)
	}
	user, _ := b.session(a)["user"].(map[string]any)
	if user["id"] != "yandex:1000034427" || user["email"] != "x@yandex.ru" || user["name"] != "Xenia X" {
		t.Errorf("session user = %v", user)
	}
	if img, ok := user["image"]; ok && img != "" {
		t.Errorf("session user image = %v, want none for the stub avatar", img)
	}
	if evs := events(); len(evs) != 1 || evs[0].ProviderAccountID != "1000034427" {
		t.Errorf("SignIn events = %+v", evs)
	}
}
