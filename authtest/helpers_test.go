package authtest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

const redirectURI = "http://app.example/callback"

// newServer starts a Server for the test and closes it at the end.
func newServer(t *testing.T, opts authtest.Options) *authtest.Server {
	t.Helper()
	srv := authtest.NewServer(opts)
	t.Cleanup(srv.Close)
	return srv
}

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// client is the relying party of a test: an oauth2 configuration and the
// per-request secrets of one sign-in.
type client struct {
	t        *testing.T
	srv      *authtest.Server
	conf     *oauth2.Config
	verifier string
	nonce    string
	state    string
}

func newClient(t *testing.T, srv *authtest.Server) *client {
	t.Helper()
	return &client{
		t:   t,
		srv: srv,
		conf: &oauth2.Config{
			ClientID:     authtest.DefaultClientID,
			ClientSecret: authtest.DefaultClientSecret,
			Endpoint: oauth2.Endpoint{
				AuthURL:   srv.Issuer() + "/authorize",
				TokenURL:  srv.Issuer() + "/token",
				AuthStyle: oauth2.AuthStyleInHeader,
			},
			RedirectURL: redirectURI,
			Scopes:      []string{oidc.ScopeOpenID, "profile", "email"},
		},
		verifier: oauth2.GenerateVerifier(),
		nonce:    "nonce-" + oauth2.GenerateVerifier()[:16],
		state:    "state-" + oauth2.GenerateVerifier()[:16],
	}
}

// authURL is the authorization request URL, with extra parameters.
func (c *client) authURL(extra ...oauth2.AuthCodeOption) string {
	opts := append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(c.verifier), oidc.Nonce(c.nonce)}, extra...)
	return c.conf.AuthCodeURL(c.state, opts...)
}

// authorize sends the authorization request and returns the response,
// unfollowed.
func (c *client) authorize(extra ...oauth2.AuthCodeOption) *http.Response {
	c.t.Helper()
	resp, err := noRedirects.Get(c.authURL(extra...))
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// callback authorizes and returns the parameters of the redirect to the
// client, checking state.
func (c *client) callback(extra ...oauth2.AuthCodeOption) url.Values {
	c.t.Helper()
	resp := c.authorize(extra...)
	if resp.StatusCode != http.StatusFound {
		c.t.Fatalf("authorize: status %d, want 302", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		c.t.Fatal(err)
	}
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != redirectURI {
		c.t.Fatalf("redirected to %q, want %q", got, redirectURI)
	}
	q := loc.Query()
	if q.Get("state") != c.state {
		c.t.Fatalf("state = %q, want %q", q.Get("state"), c.state)
	}
	return q
}

// code authorizes and returns the code.
func (c *client) code() string {
	c.t.Helper()
	q := c.callback()
	if q.Get("code") == "" {
		c.t.Fatalf("no code in the callback: %v", q)
	}
	return q.Get("code")
}

// exchange redeems code with the verifier through oauth2.
func (c *client) exchange(code string) (*oauth2.Token, error) {
	return c.conf.Exchange(context.Background(), code, oauth2.VerifierOption(c.verifier))
}

// signIn runs the whole flow and returns the token and its raw ID token.
func (c *client) signIn() (*oauth2.Token, string) {
	c.t.Helper()
	tok, err := c.exchange(c.code())
	if err != nil {
		c.t.Fatalf("exchange: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	return tok, raw
}

// verifier returns a go-oidc ID token verifier for the server.
func oidcVerifier(t *testing.T, issuer string) *oidc.IDTokenVerifier {
	t.Helper()
	p, err := oidc.NewProvider(context.Background(), issuer)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	return p.Verifier(&oidc.Config{ClientID: authtest.DefaultClientID})
}

// decodeJWT returns the header and claims of a compact JWT, unverified,
// for inspection.
func decodeJWT(t *testing.T, tok string) (header, claims map[string]any, sig string) {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts, want 3: %q", len(parts), tok)
	}
	for i, v := range []*map[string]any{&header, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			t.Fatalf("token part %d: %v", i, err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("token part %d: %v", i, err)
		}
	}
	return header, claims, parts[2]
}

// postForm posts form to url with Basic client authentication and
// returns the status, header and body.
func postForm(t *testing.T, rawURL string, form url.Values, basic bool) (*http.Response, []byte) {
	t.Helper()
	req := formRequest(t, rawURL, form)
	if basic {
		req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	}
	return send(t, http.DefaultClient, req)
}

// tokenRequest redeems code by hand and returns the status and the
// decoded JSON body.
func (c *client) tokenRequest(form url.Values) (int, map[string]any) {
	c.t.Helper()
	resp, body := postForm(c.t, c.srv.Issuer()+"/token", form, true)
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatalf("token answer %d is not JSON: %v: %.200s", resp.StatusCode, err, body)
	}
	return resp.StatusCode, m
}

// codeForm is the token request form for code.
func (c *client) codeForm(code string) url.Values {
	return url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirectURI},
		"code_verifier": {c.verifier},
	}
}

// get fetches rawURL, with a Bearer token if token is not empty.
func get(t *testing.T, rawURL, token string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return send(t, noRedirects, req)
}

// send sends req with client and returns the response with its body read.
func send(t *testing.T, client *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}
