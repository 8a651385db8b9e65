package interop

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/sitetest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Interoperability with an independent OpenID provider: zitadel/oidc's
// op package, with the in-memory storage and login UI of its example
// server, running in-process on loopback.

// zitadelOP is zitadel/oidc's example OpenID provider on loopback, with
// one confidential web client, and a record of what reached it.
type zitadelOP struct {
	srv    *httptest.Server
	issuer string
	// username and password of the example storage's default user.
	username, password string

	mu          sync.Mutex
	discoveries int
	authorize   []url.Values // queries of the authorization requests
	tokenForms  []url.Values // forms of the token requests
	tokenAuth   []string     // client ids of their HTTP Basic credentials
}

const (
	zitadelClientID     = "gatehouse-web"
	zitadelClientSecret = "zitadel-client-secret"
)

func newZitadelOP(t *testing.T, redirectURIs ...string) *zitadelOP {
	t.Helper()
	return newZitadelOPWith(t, nil, redirectURIs...)
}

// newZitadelOPWith is newZitadelOP with the example storage wrapped by
// wrap (when not nil), to change how it answers.
func newZitadelOPWith(t *testing.T, wrap func(*storage.Storage) exampleop.Storage, redirectURIs ...string) *zitadelOP {
	t.Helper()
	ln := listen(t)
	issuer := "http://" + ln.Addr().String()
	users := storage.NewUserStore(issuer)
	// Clients given to the storage directly, not through the package's
	// global RegisterClients map.
	st := storage.NewStorageWithClients(users, map[string]*storage.Client{
		zitadelClientID: storage.WebClient(zitadelClientID, zitadelClientSecret, redirectURIs...),
	})
	// SetupServer builds the provider with op.NewProvider, a static
	// issuer, op.WithAllowInsecure() (http issuer on loopback), PKCE S256
	// and the authorization endpoint at /auth, and mounts the example's
	// username/password login UI under /login/.
	var opStorage exampleop.Storage = st
	if wrap != nil {
		opStorage = wrap(st)
	}
	router := exampleop.SetupServer(issuer, opStorage, nil, false)
	z := &zitadelOP{issuer: issuer, username: "test-user@127.0.0.1", password: "verysecure"}
	if u := users.GetUserByID("id1"); u == nil || u.Username != z.username {
		t.Fatalf("the example storage's default user changed: %+v", u)
	}
	z.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		z.mu.Lock()
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			z.discoveries++
		case "/auth":
			z.authorize = append(z.authorize, r.URL.Query())
		case "/oauth/token":
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			f, _ := url.ParseQuery(string(body))
			z.tokenForms = append(z.tokenForms, f)
			id, _, _ := r.BasicAuth()
			z.tokenAuth = append(z.tokenAuth, id)
		}
		z.mu.Unlock()
		router.ServeHTTP(w, r)
	}))
	z.srv.Listener.Close()
	z.srv.Listener = ln
	z.srv.Start()
	t.Cleanup(z.srv.Close)
	return z
}

func (z *zitadelOP) discoveryCount() int {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.discoveries
}

// newZitadelApp is a site signing in with zitadel as a generic OIDC
// provider found by discovery.
func newZitadelApp(t *testing.T, mutate func(*gatehouse.Config)) (*app, *zitadelOP) {
	t.Helper()
	ln := listen(t)
	redirectURI := "http://" + ln.Addr().String() + "/auth/callback/zitadel"
	z := newZitadelOP(t, redirectURI)
	cfg := gatehouse.Config{
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "zitadel", Name: "ZITADEL", Type: providers.TypeOIDC,
			Issuer: z.issuer, ClientID: zitadelClientID, ClientSecret: zitadelClientSecret,
		}},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	return serveSite(t, ln, "", cfg), z
}

var zitadelLoginID = regexp.MustCompile(`<input type="hidden" name="id" value="([^"]+)">`)

// zitadelSignIn runs the whole sign-in: Gatehouse's sign-in POST, the
// authorization request, zitadel's login form filled in with password,
// and back through the callback. It returns the final response and body.
func (b *browser) zitadelSignIn(a *app, z *zitadelOP, password, callbackURL string) (*http.Response, string) {
	b.T.Helper()
	resp, body := b.SignIn(a.auth, "zitadel", callbackURL)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.String(), z.issuer+"/login/username?") {
		b.T.Fatalf("expected zitadel's login page, got %d at %s: %.300s (hops %v)", resp.StatusCode, resp.Request.URL, body, b.Hops)
	}
	m := zitadelLoginID.FindStringSubmatch(body)
	if m == nil || !strings.Contains(body, `action="/login/username"`) {
		b.T.Fatalf("no login form in %q", body)
	}
	resp = b.Post(z.issuer+"/login/username", url.Values{"id": {m[1]}, "username": {z.username}, "password": {password}})
	return b.FollowBody(resp)
}

func TestZitadelSignIn(t *testing.T) {
	var mu sync.Mutex
	var signIns []account.Account
	a, z := newZitadelApp(t, func(cfg *gatehouse.Config) {
		cfg.Events.SignIn = func(_ context.Context, _ profile.User, acct *account.Account, _ bool) {
			mu.Lock()
			signIns = append(signIns, *acct)
			mu.Unlock()
		}
	})
	b := newBrowser(t)
	start := time.Now()
	resp, body := b.zitadelSignIn(a, z, z.password, "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello test-user@zitadel.ch" {
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.Hops)
	}
	s := b.Session(a.auth)
	user, _ := s["user"].(map[string]any)
	// The example storage's default user: sub id1, "Test" "User", with the
	// name and e-mail address from zitadel's userinfo endpoint (its ID
	// tokens carry no profile claims when an access token is issued).
	if user["id"] != "zitadel:id1" || user["name"] != "Test User" || user["email"] != "test-user@zitadel.ch" {
		t.Fatalf("session = %v", s)
	}

	// The account: zitadel's tokens, with expires_at from its expires_in
	// (the example storage's access tokens live 5 minutes).
	mu.Lock()
	if len(signIns) != 1 {
		mu.Unlock()
		t.Fatalf("SignIn event ran %d times", len(signIns))
	}
	acct := signIns[0]
	mu.Unlock()
	if acct.Type != account.TypeOIDC || acct.Provider != "zitadel" || acct.ProviderAccountID != "id1" ||
		acct.AccessToken == "" || acct.IDToken == "" || !strings.EqualFold(acct.TokenType, "bearer") {
		t.Errorf("account = %+v", acct)
	}
	if want := start.Add(5 * time.Minute).Unix(); acct.ExpiresAt < want-5 || acct.ExpiresAt > want+5 {
		t.Errorf("expires_at = %d, want about %d", acct.ExpiresAt, want)
	}

	// What zitadel saw: PKCE S256, state and nonce on the authorization
	// request, the verifier and the same redirect_uri on the token
	// request, with client_secret_basic.
	z.mu.Lock()
	if len(z.authorize) != 1 || len(z.tokenForms) != 1 {
		z.mu.Unlock()
		t.Fatalf("authorization requests %d, token requests %d", len(z.authorize), len(z.tokenForms))
	}
	q, f, basic := z.authorize[0], z.tokenForms[0], z.tokenAuth[0]
	z.mu.Unlock()
	redirectURI := a.url + "/auth/callback/zitadel"
	if q.Get("response_type") != "code" || q.Get("client_id") != zitadelClientID || q.Get("redirect_uri") != redirectURI ||
		q.Get("scope") != "openid profile email" || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 ||
		len(q.Get("state")) < 32 || len(q.Get("nonce")) < 32 {
		t.Errorf("authorization request = %v", q)
	}
	if f.Get("grant_type") != "authorization_code" || f.Get("redirect_uri") != redirectURI || len(f.Get("code_verifier")) != 43 ||
		f.Has("client_secret") || basic != zitadelClientID {
		t.Errorf("token request = %v (basic user %q)", f, basic)
	}

	// Sign out.
	b.signOut(a)
	if r := b.Get(a.url + "/private"); r.StatusCode != http.StatusFound {
		t.Fatalf("protected page after sign-out answered %d", r.StatusCode)
	}

	// A second sign-in, in another browser: the provider metadata was
	// fetched once, by the first.
	b2 := newBrowser(t)
	resp, body = b2.zitadelSignIn(a, z, z.password, "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello test-user@zitadel.ch" {
		t.Fatalf("second sign-in landed on %s with %q (hops %v)", resp.Request.URL, body, b2.Hops)
	}
	if n := z.discoveryCount(); n != 1 {
		t.Fatalf("discovery ran %d times over two sign-ins, want 1", n)
	}
}

// TestZitadelWrongPassword: zitadel's login UI refuses the password and
// shows its form again; nothing reaches the callback and there is no
// session.
func TestZitadelWrongPassword(t *testing.T) {
	a, z := newZitadelApp(t, nil)
	b := newBrowser(t)
	resp, body := b.zitadelSignIn(a, z, "not-the-password", "/private")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "username or password wrong") {
		t.Fatalf("wrong password: %d at %s: %.300q", resp.StatusCode, resp.Request.URL, body)
	}
	if s := b.Session(a.auth); s != nil {
		t.Fatalf("session after a refused login = %v", s)
	}
}

// TestZitadelCallbackChecks: zitadel's genuine authorization response
// is refused when the state is altered, and in a browser that did not
// start the sign-in (its check cookies are missing).
func TestZitadelCallbackChecks(t *testing.T) {
	a, z := newZitadelApp(t, nil)
	callback := func(b *browser) string {
		t.Helper()
		resp, body := b.SignIn(a.auth, "zitadel", "/private")
		m := zitadelLoginID.FindStringSubmatch(body)
		if resp.StatusCode != http.StatusOK || m == nil {
			t.Fatalf("no login form: %d %q", resp.StatusCode, body)
		}
		resp = b.Post(z.issuer+"/login/username", url.Values{"id": {m[1]}, "username": {z.username}, "password": {z.password}})
		// Follow zitadel's own redirects, stopping at ours.
		for i := 0; i < 5 && resp.StatusCode == http.StatusFound; i++ {
			loc, _ := resp.Request.URL.Parse(resp.Header.Get("Location"))
			resp.Body.Close()
			if strings.HasPrefix(loc.String(), a.url+"/auth/callback/zitadel?") {
				return loc.String()
			}
			resp = b.Get(loc.String())
		}
		t.Fatalf("zitadel did not redirect to the callback: %d at %s", resp.StatusCode, resp.Request.URL)
		return ""
	}

	b1 := newBrowser(t)
	cb := callback(b1)
	u, _ := url.Parse(cb)
	q := u.Query()
	if q.Get("code") == "" || q.Get("state") == "" {
		t.Fatalf("authorization response %v", q)
	}
	q.Set("state", q.Get("state")+"x")
	u.RawQuery = q.Encode()
	final := b1.Follow(b1.Get(u.String()))
	if fq := final.Request.URL.Query(); fq.Get("error") != "InvalidCheck" || fq.Get("code") != "state_mismatch" {
		t.Fatalf("altered state ended on %s", final.Request.URL)
	}

	b2, b3 := newBrowser(t), newBrowser(t)
	cb = callback(b2)
	final = b3.Follow(b3.Get(cb))
	if fq := final.Request.URL.Query(); fq.Get("error") != "InvalidCheck" || !strings.HasSuffix(fq.Get("code"), "cookie_missing") {
		t.Fatalf("callback in another browser ended on %s", final.Request.URL)
	}
	if s := b3.Session(a.auth); s != nil {
		t.Fatalf("session in the other browser = %v", s)
	}
}

// private_key_jwt against zitadel/oidc's OpenID provider. (Its op package
// has no pushed authorization request endpoint: PAR is tested against
// authtest only.)

// keyJWTStorage is the example storage with the web client registered
// for private_key_jwt, with the public keys in keys.
type keyJWTStorage struct {
	*storage.Storage
	keys jose.JSONWebKeySet
}

type keyJWTClient struct{ op.Client }

func (keyJWTClient) AuthMethod() oidc.AuthMethod { return oidc.AuthMethodPrivateKeyJWT }

func (s *keyJWTStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil || id != zitadelClientID {
		return c, err
	}
	return keyJWTClient{c}, nil
}

func (s *keyJWTStorage) GetKeyByIDAndClientID(_ context.Context, kid, clientID string) (*jose.JSONWebKey, error) {
	if keys := s.keys.Key(kid); clientID == zitadelClientID && len(keys) == 1 {
		return &keys[0], nil
	}
	return nil, errors.New("key not found")
}

func TestZitadelPrivateKeyJWT(t *testing.T) {
	current, old := sitetest.RSAKey(t, "current"), sitetest.RSAKey(t, "old")
	ln := listen(t)
	redirectURI := "http://" + ln.Addr().String() + "/auth/callback/zitadel"
	z := newZitadelOPWith(t, func(st *storage.Storage) exampleop.Storage {
		return &keyJWTStorage{Storage: st, keys: sitetest.PublicSet(old, current)}
	}, redirectURI)
	a := serveSite(t, ln, "", gatehouse.Config{
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "zitadel", Name: "ZITADEL", Type: providers.TypeOIDC, Issuer: z.issuer, ClientID: zitadelClientID,
			Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "openid profile email offline_access"}},
			Client: providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT,
				JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{current, old}}},
		}},
		Callbacks: gatehouse.Callbacks{JWT: gatehouse.KeepTokens(nil)},
	})
	b := newBrowser(t)
	resp, body := b.zitadelSignIn(a, z, z.password, "/private")
	if resp.Request.URL.String() != a.url+"/private" || body != "hello test-user@zitadel.ch" {
		t.Fatalf("landed on %s (%d) with %q (hops %v)", resp.Request.URL, resp.StatusCode, body, b.Hops)
	}

	// The refresh authenticates with a new assertion too.
	w := httptest.NewRecorder()
	ts, err := a.h.TokenSource(context.Background(), w, b.request(a), "zitadel", gatehouse.MinValidity(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if tok, err := ts.Token(); err != nil || tok.AccessToken == "" {
		t.Fatalf("refresh with private_key_jwt: %v", err)
	}

	z.mu.Lock()
	forms, basic := z.tokenForms, z.tokenAuth
	z.mu.Unlock()
	if len(forms) != 2 || forms[1].Get("grant_type") != "refresh_token" {
		t.Fatalf("%d token requests, want the code exchange and a refresh", len(forms))
	}
	for i, f := range forms {
		tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.RS256})
		var c jwt.Claims
		if err == nil {
			err = tok.Claims(current.Public(), &c)
		}
		if err != nil || basic[i] != "" || f.Has("client_secret") || tok.Headers[0].KeyID != "current" ||
			c.Issuer != zitadelClientID || c.Subject != zitadelClientID || !strings.EqualFold(strings.Join(c.Audience, " "), z.issuer) {
			t.Fatalf("token request %d: %v, claims %+v, basic %q, form %v", i, err, c, basic[i], f)
		}
	}
}

// zitadel refuses an assertion signed with a key it does not have.
func TestZitadelPrivateKeyJWTUnknownKey(t *testing.T) {
	registered, unknown := sitetest.RSAKey(t, "registered"), sitetest.RSAKey(t, "unknown")
	ln := listen(t)
	z := newZitadelOPWith(t, func(st *storage.Storage) exampleop.Storage {
		return &keyJWTStorage{Storage: st, keys: sitetest.PublicSet(registered)}
	}, "http://"+ln.Addr().String()+"/auth/callback/zitadel")
	a := serveSite(t, ln, "", gatehouse.Config{
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{
			ID: "zitadel", Name: "ZITADEL", Type: providers.TypeOIDC, Issuer: z.issuer, ClientID: zitadelClientID,
			Client: providers.Client{TokenEndpointAuthMethod: providers.AuthPrivateKeyJWT, JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{unknown}}},
		}},
	})
	b := newBrowser(t)
	resp, _ := b.zitadelSignIn(a, z, z.password, "/private")
	if q := resp.Request.URL.Query(); q.Get("error") != string(gatehouse.TokenExchangeFailed) {
		t.Fatalf("sign-in with an unknown key ended on %s", resp.Request.URL)
	}
	if s := b.Session(a.auth); s != nil {
		t.Fatalf("session = %v", s)
	}
}

// Yandex ID end to end, against a loopback server that answers in the
// shapes of Yandex's /authorize, /token and /info endpoints. Only the hosts
// of the built-in provider's endpoints change.
