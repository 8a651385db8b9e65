package authtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

func TestDiscovery(t *testing.T) {
	srv := newServer(t, authtest.Options{Issuer: "/tenant", AutoApprove: true})
	if want := srv.URL + "/tenant"; srv.Issuer() != want {
		t.Fatalf("Issuer() = %q, want %q", srv.Issuer(), want)
	}
	resp, body := get(t, srv.Issuer()+"/.well-known/openid-configuration", "")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("discovery: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var d map[string]any
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	iss := srv.Issuer()
	wantStrings := map[string]string{
		"issuer":                 iss,
		"authorization_endpoint": iss + "/authorize",
		"token_endpoint":         iss + "/token",
		"userinfo_endpoint":      iss + "/userinfo",
		"jwks_uri":               iss + "/jwks",
		"end_session_endpoint":   iss + "/end_session",
	}
	for k, want := range wantStrings {
		if d[k] != want {
			t.Errorf("%s = %v, want %q", k, d[k], want)
		}
	}
	wantLists := map[string][]string{
		"response_types_supported":              {"code"},
		"response_modes_supported":              {"query", "form_post"},
		"code_challenge_methods_supported":      {"S256"},
		"id_token_signing_alg_values_supported": {"RS256"},
		"token_endpoint_auth_methods_supported": {"client_secret_basic", "client_secret_post", "none", "client_secret_jwt", "private_key_jwt"},
		"subject_types_supported":               {"public"},
		"grant_types_supported":                 {"authorization_code", "refresh_token"},
	}
	for k, want := range wantLists {
		if got := strList(d[k]); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", k, got, want)
		}
	}
	if d["authorization_response_iss_parameter_supported"] != true {
		t.Errorf("authorization_response_iss_parameter_supported = %v", d["authorization_response_iss_parameter_supported"])
	}
	for _, s := range []string{"openid", "profile", "email"} {
		if !slices.Contains(strList(d["scopes_supported"]), s) {
			t.Errorf("scopes_supported lacks %s", s)
		}
	}
	for _, c := range []string{"sub", "iss", "aud", "exp", "iat", "nonce", "email", "email_verified", "name", "picture"} {
		if !slices.Contains(strList(d["claims_supported"]), c) {
			t.Errorf("claims_supported lacks %s", c)
		}
	}
	// go-oidc accepts it.
	if _, err := oidc.NewProvider(context.Background(), iss); err != nil {
		t.Fatalf("go-oidc discovery: %v", err)
	}
	// Paths outside the issuer's are not served.
	if resp, _ := get(t, srv.URL+"/.well-known/openid-configuration", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("discovery outside the issuer path: %d, want 404", resp.StatusCode)
	}
}

func strList(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

func TestCodeFlow(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, RedirectURIs: []string{redirectURI}})
	c := newClient(t, srv)
	q := c.callback()
	if q.Get("iss") != srv.Issuer() {
		t.Errorf("iss parameter = %q, want %q", q.Get("iss"), srv.Issuer())
	}
	tok, err := c.exchange(q.Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType != "Bearer" || tok.AccessToken == "" || tok.RefreshToken == "" || tok.Expiry.IsZero() {
		t.Errorf("token = %+v", tok)
	}
	if s := tok.Extra("scope"); s != "openid profile email" {
		t.Errorf("scope = %v", s)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := oidcVerifier(t, srv.Issuer()).Verify(context.Background(), raw)
	if err != nil {
		t.Fatalf("go-oidc rejects the ID token: %v", err)
	}
	if idt.Nonce != c.nonce {
		t.Errorf("nonce = %q, want %q", idt.Nonce, c.nonce)
	}
	if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
		t.Errorf("at_hash: %v", err)
	}
	var claims struct {
		Email         string `json:"email"`
		EmailVerified bool   `json:"email_verified"`
		Name          string `json:"name"`
		AuthTime      int64  `json:"auth_time"`
	}
	if err := idt.Claims(&claims); err != nil {
		t.Fatal(err)
	}
	if idt.Subject != "alice" || claims.Email != "alice@example.com" || !claims.EmailVerified || claims.Name != "Alice" || claims.AuthTime == 0 {
		t.Errorf("claims = %s %+v", idt.Subject, claims)
	}
	header, _, _ := decodeJWT(t, raw)
	if header["alg"] != "RS256" || header["kid"] != srv.KeyID() {
		t.Errorf("header = %v, want RS256 with kid %s", header, srv.KeyID())
	}

	// Userinfo through go-oidc.
	op, err := oidc.NewProvider(context.Background(), srv.Issuer())
	if err != nil {
		t.Fatal(err)
	}
	ui, err := op.UserInfo(context.Background(), oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatalf("userinfo: %v", err)
	}
	if ui.Subject != "alice" || ui.Email != "alice@example.com" {
		t.Errorf("userinfo = %+v", ui)
	}

	// What the client sent.
	var sawAuthz, sawToken bool
	for _, r := range srv.Requests() {
		switch r.Endpoint {
		case authtest.EndpointAuthorize:
			sawAuthz = true
			if r.Query.Get("code_challenge_method") != "S256" || r.Query.Get("nonce") != c.nonce {
				t.Errorf("authorize request = %v", r.Query)
			}
		case authtest.EndpointToken:
			sawToken = true
			if r.ClientAuth != "client_secret_basic" || !strings.HasPrefix(r.Header.Get("Authorization"), "Basic ") {
				t.Errorf("token request auth = %q", r.ClientAuth)
			}
			if r.Form.Get("redirect_uri") != redirectURI || r.Form.Get("code_verifier") != c.verifier {
				t.Errorf("token request form = %v", r.Form)
			}
		}
	}
	if !sawAuthz || !sawToken {
		t.Errorf("requests not recorded: %+v", srv.Requests())
	}
}

func TestClientAuthentication(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})

	c := newClient(t, srv)
	c.conf.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	if _, err := c.exchange(c.code()); err != nil {
		t.Fatalf("client_secret_post: %v", err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.ClientAuth != "client_secret_post" || last.Form.Get("client_secret") != authtest.DefaultClientSecret {
		t.Errorf("recorded %q", last.ClientAuth)
	}

	c = newClient(t, srv)
	c.conf.ClientSecret = "wrong"
	if _, err := c.exchange(c.code()); !isOAuthError(err, "invalid_client") {
		t.Errorf("wrong secret: %v, want invalid_client", err)
	}

	c = newClient(t, srv)
	c.conf.ClientSecret = ""
	c.conf.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	if _, err := c.exchange(c.code()); !isOAuthError(err, "invalid_client") {
		t.Errorf("no secret for a confidential client: %v, want invalid_client", err)
	}

	pub := newServer(t, authtest.Options{AutoApprove: true, PublicClient: true})
	c = newClient(t, pub)
	c.conf.ClientSecret = ""
	c.conf.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	if _, err := c.exchange(c.code()); err != nil {
		t.Errorf("none for a public client: %v", err)
	}
	reqs = pub.Requests()
	if last := reqs[len(reqs)-1]; last.ClientAuth != "none" {
		t.Errorf("recorded %q, want none", last.ClientAuth)
	}

	// Both Basic and client_secret in the body.
	c = newClient(t, srv)
	form := c.codeForm(c.code())
	form.Set("client_secret", authtest.DefaultClientSecret)
	if status, m := c.tokenRequest(form); status != http.StatusBadRequest || m["error"] != "invalid_request" {
		t.Errorf("two methods: %d %v", status, m)
	}
}

func isOAuthError(err error, code string) bool {
	var re *oauth2.RetrieveError
	return errors.As(err, &re) && re.ErrorCode == code
}

func TestFormPost(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	c := newClient(t, srv)
	resp, err := http.Get(c.authURL(oauth2.SetAuthURLParam("response_mode", "form_post")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("form_post: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(page, `<form method="post" action="`+redirectURI+`">`) {
		t.Errorf("form does not post to the redirect URI:\n%s", page)
	}
	fields := hiddenInputs(page)
	if fields.Get("code") == "" || fields.Get("state") != c.state || fields.Get("iss") != srv.Issuer() {
		t.Errorf("fields = %v", fields)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	m := regexp.MustCompile(`script-src 'nonce-([^']+)'`).FindStringSubmatch(csp)
	if m == nil || !strings.Contains(page, `<script nonce="`+m[1]+`">document.forms[0].submit();</script>`) {
		t.Errorf("no auto-submitting script allowed by the CSP %q:\n%s", csp, page)
	}
	// The code in the form works.
	if _, err := c.exchange(fields.Get("code")); err != nil {
		t.Errorf("exchange: %v", err)
	}
}

var inputRE = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)

// hiddenInputs returns the hidden fields of a page, unescaped.
func hiddenInputs(page string) url.Values {
	v := url.Values{}
	for _, m := range inputRE.FindAllStringSubmatch(page, -1) {
		v.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return v
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCodeSingleUse(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	c := newClient(t, srv)
	code := c.code()
	tok, err := c.exchange(code)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.exchange(code); !isOAuthError(err, "invalid_grant") {
		t.Fatalf("second exchange: %v, want invalid_grant", err)
	}
	// The replay revoked the tokens the code gave.
	if resp, _ := get(t, srv.Issuer()+"/userinfo", tok.AccessToken); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("userinfo after code replay: %d, want 401", resp.StatusCode)
	}
}

func TestPKCE(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})

	c := newClient(t, srv)
	code := c.code()
	c.verifier = oauth2.GenerateVerifier()
	if _, err := c.exchange(code); !isOAuthError(err, "invalid_grant") {
		t.Errorf("wrong verifier: %v, want invalid_grant", err)
	}

	c = newClient(t, srv)
	form := c.codeForm(c.code())
	form.Del("code_verifier")
	if status, m := c.tokenRequest(form); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Errorf("no verifier: %d %v", status, m)
	}

	// The authorization request must carry an S256 challenge.
	c = newClient(t, srv)
	for name, u := range map[string]string{
		"none":  c.conf.AuthCodeURL(c.state),
		"plain": c.conf.AuthCodeURL(c.state, oauth2.SetAuthURLParam("code_challenge", c.verifier), oauth2.SetAuthURLParam("code_challenge_method", "plain")),
	} {
		resp, err := noRedirects.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		q := loc.Query()
		if resp.StatusCode != http.StatusFound || q.Get("error") != "invalid_request" || q.Get("state") != c.state || q.Get("iss") != srv.Issuer() || q.Has("code") {
			t.Errorf("%s challenge: %d %v", name, resp.StatusCode, q)
		}
	}
}

func TestRedirectURI(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, RedirectURIs: []string{redirectURI}})

	// A redirect URI that is not registered: an error page, no redirect.
	for _, bad := range []string{redirectURI + "/", redirectURI + "?x=1", "http://evil.example/callback", ""} {
		c := newClient(t, srv)
		c.conf.RedirectURL = bad
		resp := c.authorize()
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("redirect_uri %q: %d Location %q, want 400", bad, resp.StatusCode, resp.Header.Get("Location"))
		}
	}

	// The token request must repeat the authorization request's.
	c := newClient(t, srv)
	form := c.codeForm(c.code())
	form.Set("redirect_uri", "http://app.example/other")
	if status, m := c.tokenRequest(form); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Errorf("other redirect_uri: %d %v", status, m)
	}
	c = newClient(t, srv)
	form = c.codeForm(c.code())
	form.Del("redirect_uri")
	if status, m := c.tokenRequest(form); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Errorf("no redirect_uri: %d %v", status, m)
	}

	// An unknown client_id: an error page.
	c = newClient(t, srv)
	c.conf.ClientID = "someone-else"
	if resp := c.authorize(); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown client_id: %d, want 400", resp.StatusCode)
	}
}

func TestAuthorizeErrors(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	c := newClient(t, srv)
	for name, tc := range map[string]struct {
		opts []oauth2.AuthCodeOption
		want string
	}{
		"response_type token": {[]oauth2.AuthCodeOption{oauth2.SetAuthURLParam("response_type", "token")}, "unsupported_response_type"},
		"response_mode":       {[]oauth2.AuthCodeOption{oauth2.SetAuthURLParam("response_mode", "fragment")}, "invalid_request"},
		"request object":      {[]oauth2.AuthCodeOption{oauth2.SetAuthURLParam("request", "x.y.z")}, "request_not_supported"},
	} {
		q := c.callback(tc.opts...)
		if q.Get("error") != tc.want || q.Get("iss") != srv.Issuer() || q.Has("code") {
			t.Errorf("%s: %v, want error %s", name, q, tc.want)
		}
	}
}

func TestRefreshRotation(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	c := newClient(t, srv)
	tok, _ := c.signIn()
	refresh := func(rt string) (int, map[string]any) {
		return c.tokenRequest(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}})
	}
	status, m := refresh(tok.RefreshToken)
	if status != http.StatusOK {
		t.Fatalf("refresh: %d %v", status, m)
	}
	next, _ := m["refresh_token"].(string)
	if next == "" || next == tok.RefreshToken || m["access_token"] == tok.AccessToken {
		t.Fatalf("refresh did not rotate: %v", m)
	}
	idt, _ := m["id_token"].(string)
	if _, claims, _ := decodeJWT(t, idt); claims["sub"] != "alice" || claims["nonce"] != nil {
		t.Errorf("refreshed ID token claims = %v", claims)
	}
	if status, m := refresh(tok.RefreshToken); status != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Errorf("old refresh token: %d %v, want invalid_grant", status, m)
	}
	if status, m := refresh(next); status != http.StatusOK {
		t.Errorf("new refresh token: %d %v", status, m)
	}

	// oauth2's token source refreshes too.
	c2 := newClient(t, srv)
	tok2, _ := c2.signIn()
	tok2.Expiry = time.Now().Add(-time.Minute)
	fresh, err := c2.conf.TokenSource(context.Background(), tok2).Token()
	if err != nil || fresh.RefreshToken == tok2.RefreshToken {
		t.Errorf("oauth2 refresh: %v", err)
	}
}

func TestUserinfoBearerOnly(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	tok, _ := newClient(t, srv).signIn()
	ui := srv.Issuer() + "/userinfo"

	resp, _ := get(t, ui, "")
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp, _ := get(t, ui+"?access_token="+url.QueryEscape(tok.AccessToken), ""); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("token in the query: %d, want 400", resp.StatusCode)
	}
	if resp, _ := postForm(t, ui, url.Values{"access_token": {tok.AccessToken}}, false); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("token in the body: %d, want 400", resp.StatusCode)
	}
	if resp, _ := get(t, ui, "not-a-token"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Errorf("bad token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	resp, body := get(t, ui, tok.AccessToken)
	var m map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &m) != nil || m["sub"] != "alice" || m["email"] != "alice@example.com" {
		t.Errorf("userinfo: %d %s", resp.StatusCode, body)
	}
}

func TestRotateKey(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	verifier := oidcVerifier(t, srv.Issuer())
	_, raw := newClient(t, srv).signIn()
	if _, err := verifier.Verify(context.Background(), raw); err != nil {
		t.Fatal(err)
	}
	old := srv.KeyID()
	srv.RotateKey()
	if srv.KeyID() == old || srv.KeyID() == "" {
		t.Fatalf("kid after rotation = %q, before %q", srv.KeyID(), old)
	}
	if kids := jwksKIDs(t, srv); !slices.Equal(kids, []string{srv.KeyID()}) {
		t.Errorf("JWKS kids = %v, want only %s", kids, srv.KeyID())
	}
	fetches := countRequests(srv, authtest.EndpointJWKS)
	_, raw = newClient(t, srv).signIn()
	header, _, _ := decodeJWT(t, raw)
	if header["kid"] != srv.KeyID() {
		t.Errorf("new token kid = %v, want %s", header["kid"], srv.KeyID())
	}
	// go-oidc sees an unknown kid and fetches the JWKS again.
	if _, err := verifier.Verify(context.Background(), raw); err != nil {
		t.Errorf("after rotation: %v", err)
	}
	if n := countRequests(srv, authtest.EndpointJWKS); n != fetches+1 {
		t.Errorf("JWKS fetches after rotation: %d, want %d", n, fetches+1)
	}
}

func countRequests(srv *authtest.Server, ep authtest.Endpoint) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Endpoint == ep {
			n++
		}
	}
	return n
}

func jwksKIDs(t *testing.T, srv *authtest.Server) []string {
	t.Helper()
	resp, body := get(t, srv.Issuer()+"/jwks", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("jwks: %d", resp.StatusCode)
	}
	var set struct {
		Keys []struct {
			KID string `json:"kid"`
			D   string `json:"d"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys {
		if k.D != "" {
			t.Fatal("the JWKS holds a private key")
		}
		kids = append(kids, k.KID)
	}
	return kids
}

func TestES256(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, Alg: "ES256"})
	_, raw := newClient(t, srv).signIn()
	if header, _, _ := decodeJWT(t, raw); header["alg"] != "ES256" {
		t.Errorf("alg = %v", header["alg"])
	}
	if _, err := oidcVerifier(t, srv.Issuer()).Verify(context.Background(), raw); err != nil {
		t.Errorf("go-oidc: %v", err)
	}
}

func TestSignInPage(t *testing.T) {
	users := []authtest.User{
		{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
		{Subject: `"><script>alert(1)</script>`, Name: "<script>alert(2)</script>", Email: "<b>@example.com"},
	}
	srv := newServer(t, authtest.Options{Users: users})
	c := newClient(t, srv)
	authURL := c.authURL(oauth2.SetAuthURLParam("login_hint", `"><script>alert(3)</script>`))
	resp, err := http.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, resp)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-in page: %d", resp.StatusCode)
	}
	for _, want := range []string{
		"<title>Development sign-in</title>",
		`<h1>Development sign-in</h1>`,
		`Continue as Alice <span class="email">&lt;alice@example.com&gt;</span>`,
		`Continue as &lt;script&gt;alert(2)&lt;/script&gt;`,
		`<html lang="en">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "<b>") {
		t.Errorf("page shows unescaped markup:\n%s", page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP = %q", csp)
	}
	// The original parameters travel in hidden fields.
	fields := hiddenInputs(page)
	orig, _ := url.Parse(authURL)
	for k := range orig.Query() {
		if fields.Get(k) != orig.Query().Get(k) {
			t.Errorf("hidden %s = %q, want %q", k, fields.Get(k), orig.Query().Get(k))
		}
	}

	post := func(extra url.Values, header http.Header) *http.Response {
		form := url.Values{}
		for k, v := range fields {
			form[k] = v
		}
		for k, v := range extra {
			form[k] = v
		}
		req, _ := http.NewRequest(http.MethodPost, srv.Issuer()+"/authorize", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	// Pick the second user.
	resp = post(url.Values{"authtest_user": {users[1].Subject}}, http.Header{"Sec-Fetch-Site": {"same-origin"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d, want 303", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	tok, err := c.exchange(loc.Query().Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if _, claims, _ := decodeJWT(t, raw); claims["sub"] != users[1].Subject {
		t.Errorf("sub = %v", claims["sub"])
	}
	// Cancel.
	resp = post(url.Values{"authtest_cancel": {"1"}}, nil)
	if loc, _ := url.Parse(resp.Header.Get("Location")); loc.Query().Get("error") != "access_denied" {
		t.Errorf("cancel: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A post from another site is refused.
	resp = post(url.Values{"authtest_user": {"alice"}}, http.Header{"Sec-Fetch-Site": {"cross-site"}})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post: %d, want 403", resp.StatusCode)
	}
	// prompt=none cannot show the page.
	q := c.callback(oauth2.SetAuthURLParam("prompt", "none"))
	if q.Get("error") != "login_required" {
		t.Errorf("prompt=none: %v", q)
	}
}

func TestAutoApproveLoginHint(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, Users: []authtest.User{
		{Subject: "alice", Email: "alice@example.com"},
		{Subject: "bob", Email: "bob@example.com", Extra: map[string]any{"groups": []string{"admin"}, "sub": "not-bob"}},
	}})
	for hint, want := range map[string]string{"": "alice", "bob": "bob", "bob@example.com": "bob", "nobody": "alice"} {
		c := newClient(t, srv)
		tok, err := c.exchange(c.callback(oauth2.SetAuthURLParam("login_hint", hint)).Get("code"))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := tok.Extra("id_token").(string)
		_, claims, _ := decodeJWT(t, raw)
		if claims["sub"] != want {
			t.Errorf("login_hint %q: sub %v, want %s", hint, claims["sub"], want)
		}
		if want == "bob" && strList(claims["groups"])[0] != "admin" {
			t.Errorf("Extra claim groups = %v", claims["groups"])
		}
	}
}

func TestMountedUnderPrefix(t *testing.T) {
	mux := http.NewServeMux()
	app := httptest.NewUnstartedServer(mux)
	issuer := "http://" + app.Listener.Addr().String() + "/dev-oidc"
	p, err := authtest.New(authtest.Options{Issuer: issuer, AutoApprove: true})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/dev-oidc/", p)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("app")) })
	app.Start()
	defer app.Close()

	op, err := oidc.NewProvider(context.Background(), issuer)
	if err != nil {
		t.Fatal(err)
	}
	if op.Endpoint().TokenURL != issuer+"/token" {
		t.Errorf("token endpoint = %s", op.Endpoint().TokenURL)
	}
	srv := &authtest.Server{Server: app, Provider: p}
	_, raw := newClient(t, srv).signIn()
	if _, err := op.Verifier(&oidc.Config{ClientID: authtest.DefaultClientID}).Verify(context.Background(), raw); err != nil {
		t.Errorf("verify: %v", err)
	}
	if resp, body := get(t, app.URL+"/", ""); string(body) != "app" {
		t.Errorf("app route: %d %s", resp.StatusCode, body)
	}
}

func TestEndSession(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, RedirectURIs: []string{redirectURI},
		PostLogoutRedirectURIs: []string{"http://app.example/"}})
	_, raw := newClient(t, srv).signIn()
	es := srv.Issuer() + "/end_session?"

	resp, _ := get(t, es+url.Values{"id_token_hint": {raw}, "post_logout_redirect_uri": {"http://app.example/"}, "state": {"s1"}}.Encode(), "")
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://app.example/?state=s1" {
		t.Errorf("logout: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, _ = get(t, es+url.Values{"client_id": {authtest.DefaultClientID}, "post_logout_redirect_uri": {"http://app.example/"}}.Encode(), "")
	if resp.StatusCode != http.StatusFound {
		t.Errorf("logout with client_id: %d", resp.StatusCode)
	}
	for name, q := range map[string]url.Values{
		"unregistered": {"id_token_hint": {raw}, "post_logout_redirect_uri": {"http://evil.example/"}},
		"bad hint":     {"id_token_hint": {raw + "x"}, "post_logout_redirect_uri": {"http://app.example/"}},
		"no hint":      {"post_logout_redirect_uri": {"http://app.example/"}},
	} {
		if resp, _ := get(t, es+q.Encode(), ""); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", name, resp.StatusCode)
		}
	}
	if resp, body := get(t, es, ""); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "signed out") {
		t.Errorf("logout without redirect: %d", resp.StatusCode)
	}
}

func TestNewErrors(t *testing.T) {
	for name, opts := range map[string]authtest.Options{
		"no issuer":       {},
		"relative issuer": {Issuer: "/x"},
		"issuer query":    {Issuer: "http://localhost/?a=b"},
		"issuer fragment": {Issuer: "http://localhost/#a"},
		"ftp issuer":      {Issuer: "ftp://localhost/"},
		"alg":             {Issuer: "http://localhost", Alg: "HS256"},
		"no subject":      {Issuer: "http://localhost", Users: []authtest.User{{Name: "x"}}},
		"same subject":    {Issuer: "http://localhost", Users: []authtest.User{{Subject: "a"}, {Subject: "a"}}},
	} {
		if _, err := authtest.New(opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestMethodsAndPaths(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	if resp, _ := get(t, srv.Issuer()+"/token", ""); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /token: %d", resp.StatusCode)
	}
	if resp, _ := get(t, srv.Issuer()+"/nothing", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /nothing: %d", resp.StatusCode)
	}
}

func TestNewServerIssuerPath(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewServer accepted an absolute issuer")
		}
	}()
	authtest.NewServer(authtest.Options{Issuer: "http://localhost:8080"})
}

// The provider is a plain handler, and remembers a bounded number of
// requests.
func TestRecorderAndRequestLimit(t *testing.T) {
	p, err := authtest.New(authtest.Options{Issuer: "https://op.example/base/"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10005 {
		w := httptest.NewRecorder()
		p.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "https://op.example/base/jwks?i="+strconv.Itoa(i), nil))
		if w.Code != http.StatusOK {
			t.Fatalf("jwks: %d", w.Code)
		}
	}
	reqs := p.Requests()
	if len(reqs) != 10000 || reqs[0].Query.Get("i") != "5" || reqs[9999].Query.Get("i") != "10004" {
		t.Errorf("kept %d requests, from %s to %s", len(reqs), reqs[0].Query.Get("i"), reqs[len(reqs)-1].Query.Get("i"))
	}
	w := httptest.NewRecorder()
	p.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "https://op.example/base/.well-known/openid-configuration", nil))
	var d map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil || d["issuer"] != "https://op.example/base/" || d["jwks_uri"] != "https://op.example/base/jwks" {
		t.Errorf("discovery with a trailing slash issuer: %v", d)
	}
}
