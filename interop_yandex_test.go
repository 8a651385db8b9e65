package gatehouse_test

// Yandex ID end to end, against a loopback server that answers in the
// shapes of Yandex's /authorize, /token and /info endpoints. Only the hosts
// of the built-in provider's endpoints change.

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

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
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.hops)
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
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.hops)
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
