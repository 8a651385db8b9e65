package authtest_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// do sends req and returns the response and its JSON body.
func do(t *testing.T, req *http.Request) (*http.Response, map[string]any) {
	t.Helper()
	resp, body := send(t, noRedirects, req)
	var m map[string]any
	json.Unmarshal(body, &m)
	return resp, m
}

func formRequest(t *testing.T, rawURL string, form url.Values) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rawURL, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req
}

func TestPushedAuthorizationRequests(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, RequirePAR: true})
	c := newClient(t, srv)
	d := discover(t, srv)
	if d["pushed_authorization_request_endpoint"] != srv.Issuer()+"/par" || d["require_pushed_authorization_requests"] != true {
		t.Fatalf("metadata: %v", d)
	}
	// A plain authorization request is refused when PAR is required.
	if resp := c.authorize(); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("authorization request without PAR: %d", resp.StatusCode)
	}
	// The pushed parameters: those of the authorization request.
	u, _ := url.Parse(c.authURL())
	params := u.Query()

	// The client must authenticate.
	if resp, m := do(t, formRequest(t, srv.Issuer()+"/par", params)); resp.StatusCode != http.StatusUnauthorized || m["error"] != "invalid_client" {
		t.Fatalf("unauthenticated PAR: %d %v", resp.StatusCode, m)
	}
	bad := url.Values{}
	for k, v := range params {
		bad[k] = v
	}
	bad.Set("request_uri", "urn:x")
	req := formRequest(t, srv.Issuer()+"/par", bad)
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	if resp, m := do(t, req); resp.StatusCode != http.StatusBadRequest || m["error"] != "invalid_request" {
		t.Fatalf("PAR with request_uri: %d %v", resp.StatusCode, m)
	}

	req = formRequest(t, srv.Issuer()+"/par", params)
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	resp, m := do(t, req)
	uri, _ := m["request_uri"].(string)
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(uri, "urn:ietf:params:oauth:request_uri:") || m["expires_in"] != float64(60) {
		t.Fatalf("PAR: %d %v", resp.StatusCode, m)
	}
	// Another client cannot use the request_uri.
	r, _ := get(t, srv.Issuer()+"/authorize?"+url.Values{"client_id": {"other"}, "request_uri": {uri}}.Encode(), "")
	if r.StatusCode != http.StatusBadRequest {
		t.Fatalf("request_uri with another client_id: %d", r.StatusCode)
	}
	// The browser carries client_id and request_uri only, and gets the
	// code for the pushed request (its state, redirect_uri and PKCE).
	r, _ = get(t, srv.Issuer()+"/authorize?"+url.Values{"client_id": {authtest.DefaultClientID}, "request_uri": {uri}}.Encode(), "")
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.StatusCode != http.StatusFound || loc.Query().Get("state") != c.state || loc.Query().Get("code") == "" {
		t.Fatalf("authorization with request_uri: %d %s", r.StatusCode, loc)
	}
	if _, err := c.exchange(loc.Query().Get("code")); err != nil {
		t.Fatalf("exchange: %v", err)
	}
}

func discover(t *testing.T, srv *authtest.Server) map[string]any {
	t.Helper()
	_, body := get(t, srv.Issuer()+"/.well-known/openid-configuration", "")
	var d map[string]any
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// assertion signs client assertion claims.
func assertion(t *testing.T, key any, alg jose.SignatureAlgorithm, kid string, c jwt.Claims) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(c).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestClientAssertions(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	pub := jose.JSONWebKey{Key: &priv.PublicKey, KeyID: "k1"}
	const secret = "a-client-secret-of-more-than-32-bytes"
	srv := newServer(t, authtest.Options{AutoApprove: true, ClientSecret: secret, ClientJWKS: jose.JSONWebKeySet{Keys: []jose.JSONWebKey{pub}}})
	claims := func() jwt.Claims {
		now := time.Now()
		return jwt.Claims{Issuer: authtest.DefaultClientID, Subject: authtest.DefaultClientID, Audience: jwt.Audience{srv.Issuer()},
			ID: rand.Text(), IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Minute))}
	}
	redeem := func(a string) (int, map[string]any, string) {
		c := newClient(t, srv)
		form := c.codeForm(c.code())
		form.Set("client_id", authtest.DefaultClientID)
		form.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		form.Set("client_assertion", a)
		resp, m := do(t, formRequest(t, srv.Issuer()+"/token", form))
		reqs := srv.Requests()
		return resp.StatusCode, m, reqs[len(reqs)-1].ClientAuth
	}

	good := assertion(t, priv, jose.ES256, "k1", claims())
	if status, m, how := redeem(good); status != http.StatusOK || how != "private_key_jwt" {
		t.Fatalf("private_key_jwt: %d %v (%s)", status, m, how)
	}
	if status, m, how := redeem(assertion(t, []byte(secret), jose.HS256, "", claims())); status != http.StatusOK || how != "client_secret_jwt" {
		t.Fatalf("client_secret_jwt: %d %v (%s)", status, m, how)
	}

	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tokenAud, arrayAud, expired, noJTI, wrongIss := claims(), claims(), claims(), claims(), claims()
	tokenAud.Audience = jwt.Audience{srv.Issuer() + "/token"}
	arrayAud.Audience = jwt.Audience{srv.Issuer(), srv.Issuer() + "/token"}
	expired.Expiry = jwt.NewNumericDate(time.Now().Add(-time.Minute))
	noJTI.ID = ""
	wrongIss.Issuer = "other"
	for name, a := range map[string]string{
		"replayed jti":        good,
		"aud not the issuer":  assertion(t, priv, jose.ES256, "k1", tokenAud),
		"aud an array":        assertion(t, priv, jose.ES256, "k1", arrayAud),
		"expired":             assertion(t, priv, jose.ES256, "k1", expired),
		"no jti":              assertion(t, priv, jose.ES256, "k1", noJTI),
		"iss not the client":  assertion(t, priv, jose.ES256, "k1", wrongIss),
		"unknown kid":         assertion(t, priv, jose.ES256, "k2", claims()),
		"another key":         assertion(t, other, jose.ES256, "k1", claims()),
		"wrong HMAC secret":   assertion(t, []byte(secret+"x"), jose.HS256, "", claims()),
		"not a JWT":           "not-a-jwt",
		"alg none (unsigned)": "eyJhbGciOiJub25lIn0.eyJpc3MiOiJ0ZXN0LWNsaWVudCJ9.",
	} {
		if status, m, _ := redeem(a); status != http.StatusUnauthorized || m["error"] != "invalid_client" {
			t.Errorf("%s: %d %v", name, status, m)
		}
	}
}

// prover makes DPoP proofs with one key.
type prover struct {
	t      *testing.T
	signer jose.Signer
	jkt    string
}

func newProver(t *testing.T) *prover {
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: priv}, (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	pub := jose.JSONWebKey{Key: &priv.PublicKey}
	tp, _ := pub.Thumbprint(crypto.SHA256)
	return &prover{t: t, signer: s, jkt: base64.RawURLEncoding.EncodeToString(tp)}
}

func (p *prover) proof(method, htu, token, nonce string) string {
	c := map[string]any{"jti": rand.Text(), "htm": method, "htu": htu, "iat": time.Now().Unix()}
	if token != "" {
		sum := sha256.Sum256([]byte(token))
		c["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		c["nonce"] = nonce
	}
	tok, err := jwt.Signed(p.signer).Claims(c).Serialize()
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}

func TestDPoPProofs(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true, DPoPNonce: true})
	key := newProver(t)
	tokenURL, userinfo := srv.Issuer()+"/token", srv.Issuer()+"/userinfo"

	// The code is bound to the key of dpop_jkt: another key cannot redeem it.
	c := newClient(t, srv)
	code := c.callback(oauth2.SetAuthURLParam("dpop_jkt", key.jkt)).Get("code")
	req := formRequest(t, tokenURL, c.codeForm(code))
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	req.Header.Set("DPoP", key.proof("POST", tokenURL, "", ""))
	resp, m := do(t, req)
	nonce := resp.Header.Get("DPoP-Nonce")
	if resp.StatusCode != http.StatusBadRequest || m["error"] != "use_dpop_nonce" || nonce == "" {
		t.Fatalf("proof without nonce: %d %v", resp.StatusCode, m)
	}
	thief := newProver(t)
	req = formRequest(t, tokenURL, c.codeForm(code))
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	req.Header.Set("DPoP", thief.proof("POST", tokenURL, "", nonce))
	if resp, m := do(t, req); resp.StatusCode != http.StatusBadRequest || m["error"] != "invalid_grant" {
		t.Fatalf("code bound to another key: %d %v", resp.StatusCode, m)
	}

	// A bound token from a fresh code.
	c = newClient(t, srv)
	req = formRequest(t, tokenURL, c.codeForm(c.code()))
	req.SetBasicAuth(authtest.DefaultClientID, authtest.DefaultClientSecret)
	req.Header.Set("DPoP", key.proof("POST", tokenURL, "", nonce))
	resp, m = do(t, req)
	token, _ := m["access_token"].(string)
	if resp.StatusCode != http.StatusOK || m["token_type"] != "DPoP" || token == "" {
		t.Fatalf("token with a proof: %d %v", resp.StatusCode, m)
	}

	call := func(scheme, proof string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, userinfo, nil)
		req.Header.Set("Authorization", scheme+" "+token)
		if proof != "" {
			req.Header.Set("DPoP", proof)
		}
		resp, _ := do(t, req)
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
	}
	good := key.proof("GET", userinfo, token, nonce)
	if status, _ := call("DPoP", good); status != http.StatusOK {
		t.Fatalf("DPoP call: %d", status)
	}
	for name, tc := range map[string]struct{ scheme, proof, challenge string }{
		"as a Bearer token":  {"Bearer", "", ""},
		"replayed proof":     {"DPoP", good, "invalid_dpop_proof"},
		"no proof":           {"DPoP", "", "invalid_dpop_proof"},
		"another key":        {"DPoP", thief.proof("GET", userinfo, token, nonce), "invalid_token"},
		"wrong htu":          {"DPoP", key.proof("GET", tokenURL, token, nonce), "invalid_dpop_proof"},
		"wrong htm":          {"DPoP", key.proof("POST", userinfo, token, nonce), "invalid_dpop_proof"},
		"ath of other token": {"DPoP", key.proof("GET", userinfo, token+"x", nonce), "invalid_dpop_proof"},
		"no nonce":           {"DPoP", key.proof("GET", userinfo, token, ""), "use_dpop_nonce"},
	} {
		status, challenge := call(tc.scheme, tc.proof)
		if status != http.StatusUnauthorized || !strings.Contains(challenge, tc.challenge) {
			t.Errorf("%s: %d %q", name, status, challenge)
		}
	}
}
