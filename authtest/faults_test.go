package authtest_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// idTokenCase is an ID token fault, what the token shows, and whether
// go-oidc takes it ("" when go-oidc does not check what the fault breaks).
type idTokenCase struct {
	name   string
	faults authtest.Faults
	check  func(t *testing.T, srv *authtest.Server, c *client, header, claims map[string]any, sig string)
	oidc   string // "accept", "reject" or ""
}

func TestIDTokenFaults(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	verifier := oidcVerifier(t, srv.Issuer())
	now := float64(time.Now().Unix())
	// absent checks the token has no claim named name.
	absent := func(name string) func(*testing.T, *authtest.Server, *client, map[string]any, map[string]any, string) {
		return func(t *testing.T, _ *authtest.Server, _ *client, _, cl map[string]any, _ string) {
			if v, ok := cl[name]; ok {
				t.Errorf("%s %v", name, v)
			}
		}
	}
	cases := []idTokenCase{
		{"none", authtest.Faults{}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if h["alg"] != "RS256" || h["kid"] != srv.KeyID() || cl["iss"] != srv.Issuer() || cl["aud"] != authtest.DefaultClientID ||
				cl["sub"] != "alice" || cl["nonce"] != c.nonce || cl["at_hash"] == nil || cl["azp"] != nil {
				t.Errorf("header %v claims %v", h, cl)
			}
		}, "accept"},
		{"IDTokenAlgNone", authtest.Faults{IDTokenAlgNone: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if h["alg"] != "none" || h["kid"] != srv.KeyID() || sig != "" {
				t.Errorf("header %v, signature %q", h, sig)
			}
		}, "reject"},
		{"IDTokenForeignKey", authtest.Faults{IDTokenForeignKey: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if h["alg"] != "RS256" || h["kid"] != srv.KeyID() || sig == "" {
				t.Errorf("header %v", h)
			}
		}, "reject"},
		{"IDTokenHS256PublicKey", authtest.Faults{IDTokenHS256PublicKey: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if h["alg"] != "HS256" || h["kid"] != srv.KeyID() {
				t.Errorf("header %v", h)
			}
		}, "reject"},
		{"IDTokenUnknownKID", authtest.Faults{IDTokenUnknownKID: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			kid, _ := h["kid"].(string)
			if kid == "" || slices.Contains(jwksKIDs(t, srv), kid) {
				t.Errorf("kid %q is in the JWKS %v", kid, jwksKIDs(t, srv))
			}
		}, "reject"},
		{"IDTokenOmitKID", authtest.Faults{IDTokenOmitKID: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if _, ok := h["kid"]; ok || len(jwksKIDs(t, srv)) != 1 {
				t.Errorf("header %v, JWKS %v", h, jwksKIDs(t, srv))
			}
		}, "accept"},
		{"IDTokenOmitKID+JWKSExtraKeys", authtest.Faults{IDTokenOmitKID: true, JWKSExtraKeys: 2}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			kids := jwksKIDs(t, srv)
			if _, ok := h["kid"]; ok || len(kids) != 3 || kids[2] != srv.KeyID() || kids[0] == kids[1] {
				t.Errorf("header %v, JWKS %v", h, kids)
			}
		}, "accept"},
		{"IDTokenForeignKey+IDTokenOmitKID+JWKSExtraKeys", authtest.Faults{IDTokenForeignKey: true, IDTokenOmitKID: true, JWKSExtraKeys: 2}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if _, ok := h["kid"]; ok || h["alg"] != "RS256" || len(jwksKIDs(t, srv)) != 3 {
				t.Errorf("header %v, JWKS %v", h, jwksKIDs(t, srv))
			}
		}, "reject"},
		{"IDTokenAlgNone+IDTokenUnknownKID", authtest.Faults{IDTokenAlgNone: true, IDTokenUnknownKID: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if h["alg"] != "none" || h["kid"] == nil || h["kid"] == srv.KeyID() || sig != "" {
				t.Errorf("header %v", h)
			}
		}, "reject"},
		{"IDTokenWrongIssuer", authtest.Faults{IDTokenWrongIssuer: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if cl["iss"] != srv.Issuer()+"/evil" {
				t.Errorf("iss %v", cl["iss"])
			}
		}, "reject"},
		{"IDTokenWrongAudience", authtest.Faults{IDTokenWrongAudience: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if cl["aud"] != authtest.DefaultClientID+"-evil" {
				t.Errorf("aud %v", cl["aud"])
			}
		}, "reject"},
		{"IDTokenExtraAudience", authtest.Faults{IDTokenExtraAudience: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if !slices.Equal(strList(cl["aud"]), []string{authtest.DefaultClientID, "other-client"}) || cl["azp"] != authtest.DefaultClientID {
				t.Errorf("aud %v azp %v", cl["aud"], cl["azp"])
			}
		}, "accept"},
		{"IDTokenExtraAudience+IDTokenOmitAZP", authtest.Faults{IDTokenExtraAudience: true, IDTokenOmitAZP: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if _, ok := cl["azp"]; len(strList(cl["aud"])) != 2 || ok {
				t.Errorf("aud %v azp %v", cl["aud"], cl["azp"])
			}
		}, ""},
		{"IDTokenExtraAudience+IDTokenWrongAZP", authtest.Faults{IDTokenExtraAudience: true, IDTokenWrongAZP: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if len(strList(cl["aud"])) != 2 || cl["azp"] != "other-client" {
				t.Errorf("aud %v azp %v", cl["aud"], cl["azp"])
			}
		}, ""},
		{"IDTokenExpired", authtest.Faults{IDTokenExpired: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if exp, _ := cl["exp"].(float64); exp > now-3000 {
				t.Errorf("exp %v, now %v", cl["exp"], now)
			}
		}, "reject"},
		{"IDTokenOmitExp", authtest.Faults{IDTokenOmitExp: true}, absent("exp"), ""},
		{"IDTokenOmitIat", authtest.Faults{IDTokenOmitIat: true}, absent("iat"), ""},
		{"IDTokenIatInFuture", authtest.Faults{IDTokenIatInFuture: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if iat, _ := cl["iat"].(float64); iat < now+3000 {
				t.Errorf("iat %v, now %v", cl["iat"], now)
			}
		}, ""},
		{"IDTokenOmitSub", authtest.Faults{IDTokenOmitSub: true}, absent("sub"), ""},
		{"IDTokenWrongNonce", authtest.Faults{IDTokenWrongNonce: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if cl["nonce"] != c.nonce+"-evil" {
				t.Errorf("nonce %v, sent %s", cl["nonce"], c.nonce)
			}
		}, ""},
		{"IDTokenOmitNonce", authtest.Faults{IDTokenOmitNonce: true}, absent("nonce"), ""},
		{"IDTokenWrongAtHash", authtest.Faults{IDTokenWrongAtHash: true}, func(t *testing.T, srv *authtest.Server, c *client, h, cl map[string]any, sig string) {
			if cl["at_hash"] == nil {
				t.Error("no at_hash")
			}
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv.SetFaults(tc.faults)
			defer srv.SetFaults(authtest.Faults{})
			c := newClient(t, srv)
			tok, raw := c.signIn()
			header, claims, sig := decodeJWT(t, raw)
			tc.check(t, srv, c, header, claims, sig)
			idt, err := verifier.Verify(context.Background(), raw)
			switch {
			case tc.oidc == "accept" && err != nil:
				t.Errorf("go-oidc rejects it: %v", err)
			case tc.oidc == "reject" && err == nil:
				t.Errorf("go-oidc accepts it")
			}
			if tc.name == "IDTokenWrongAtHash" {
				if err != nil {
					t.Fatal(err)
				}
				if err := idt.VerifyAccessToken(tok.AccessToken); err == nil {
					t.Error("go-oidc accepts the at_hash")
				}
			}
		})
	}
}

// The HS256 token verifies with the public key's PEM as HMAC secret:
// a client that lets the token choose the algorithm is fooled.
func TestHS256ConfusionSecret(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	srv.SetFaults(authtest.Faults{IDTokenHS256PublicKey: true})
	_, raw := newClient(t, srv).signIn()
	_, body := get(t, srv.Issuer()+"/jwks", "")
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(body, &set); err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(set.Keys[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	jws, err := jose.ParseSignedCompact(raw, []jose.SignatureAlgorithm{jose.HS256})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jws.Verify(secret); err != nil {
		t.Errorf("HMAC with the public key PEM: %v", err)
	}
}

func TestCallbackFaults(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})

	srv.SetFaults(authtest.Faults{AuthorizeWrongIss: true})
	q := newClient(t, srv).callback()
	if q.Get("iss") != srv.Issuer()+"/evil" || q.Get("code") == "" {
		t.Errorf("AuthorizeWrongIss: %v", q)
	}

	srv.SetFaults(authtest.Faults{AuthorizeOmitIss: true})
	q = newClient(t, srv).callback()
	if q.Has("iss") || q.Get("code") == "" {
		t.Errorf("AuthorizeOmitIss: %v", q)
	}
	_, body := get(t, srv.Issuer()+"/.well-known/openid-configuration", "")
	if !strings.Contains(string(body), `"authorization_response_iss_parameter_supported":true`) {
		t.Errorf("AuthorizeOmitIss changed the metadata: %s", body)
	}

	srv.SetFaults(authtest.Faults{AuthorizeAccessDenied: true})
	q = newClient(t, srv).callback()
	if q.Get("error") != "access_denied" || q.Get("iss") != srv.Issuer() || q.Has("code") || q.Get("error_description") == "" {
		t.Errorf("AuthorizeAccessDenied: %v", q)
	}

	srv.SetFaults(authtest.Faults{AuthorizeFormPost: true})
	c := newClient(t, srv)
	resp, err := http.Get(c.authURL())
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, resp)
	resp.Body.Close()
	if f := hiddenInputs(page); resp.StatusCode != http.StatusOK || f.Get("code") == "" || f.Get("state") != c.state || f.Get("iss") != srv.Issuer() {
		t.Errorf("AuthorizeFormPost: %d %v", resp.StatusCode, f)
	}
}

func TestTokenFaults(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	run := func(f authtest.Faults) (*client, string, error) {
		c := newClient(t, srv)
		code := c.code()
		srv.SetFaults(f)
		defer srv.SetFaults(authtest.Faults{})
		_, err := c.exchange(code)
		return c, code, err
	}

	if _, _, err := run(authtest.Faults{TokenServerError: true}); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("TokenServerError: %v", err)
	}
	if _, _, err := run(authtest.Faults{TokenHTML: true}); err == nil {
		t.Error("TokenHTML: oauth2 accepted it")
	}
	if _, _, err := run(authtest.Faults{TokenInvalidGrant: true}); !isOAuthError(err, "invalid_grant") {
		t.Errorf("TokenInvalidGrant: %v", err)
	}

	// Raw answers.
	raw := func(f authtest.Faults) (*http.Response, []byte) {
		c := newClient(t, srv)
		form := c.codeForm(c.code())
		srv.SetFaults(f)
		defer srv.SetFaults(authtest.Faults{})
		return postForm(t, srv.Issuer()+"/token", form, true)
	}
	resp, body := raw(authtest.Faults{TokenHTML: true})
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.HasPrefix(string(body), "<!doctype html>") {
		t.Errorf("TokenHTML: %d %s %.50s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = raw(authtest.Faults{TokenHugeBody: true})
	var m map[string]any
	if resp.StatusCode != http.StatusOK || len(body) <= 2<<20 || resp.ContentLength != -1 || json.Unmarshal(body, &m) != nil || m["id_token"] == nil {
		t.Errorf("TokenHugeBody: %d, %d bytes, Content-Length %d", resp.StatusCode, len(body), resp.ContentLength)
	}
	if _, _, err := run(authtest.Faults{TokenHugeBody: true}); err == nil {
		t.Error("TokenHugeBody: oauth2 accepted it")
	}
	resp, body = raw(authtest.Faults{TokenOmitIDToken: true})
	m = nil
	if json.Unmarshal(body, &m); resp.StatusCode != http.StatusOK || m["access_token"] == nil || m["id_token"] != nil {
		t.Errorf("TokenOmitIDToken: %d %v", resp.StatusCode, m)
	}
	start := time.Now()
	if _, _, err := run(authtest.Faults{TokenDelay: 300 * time.Millisecond}); err != nil {
		t.Errorf("TokenDelay: %v", err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("TokenDelay: answered in %v", d)
	}
}

// TokenDelay ends with the request's context: the handler returns, and
// so Close, which waits for handlers, returns.
func TestTokenDelayStopsWithContext(t *testing.T) {
	srv := authtest.NewServer(authtest.Options{AutoApprove: true})
	c := newClient(t, srv)
	code := c.code()
	srv.SetFaults(authtest.Faults{TokenDelay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.conf.Exchange(ctx, code)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("exchange: %v, want the deadline", err)
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the token handler is still waiting after the request ended")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestEndpointFaults(t *testing.T) {
	srv := newServer(t, authtest.Options{AutoApprove: true})
	tok, raw := newClient(t, srv).signIn()

	srv.SetFaults(authtest.Faults{DiscoveryWrongIssuer: true})
	_, body := get(t, srv.Issuer()+"/.well-known/openid-configuration", "")
	var d map[string]any
	if err := json.Unmarshal(body, &d); err != nil || d["issuer"] != srv.Issuer()+"/evil" || d["token_endpoint"] != srv.Issuer()+"/token" {
		t.Errorf("DiscoveryWrongIssuer: %v", d)
	}
	var mismatch *oidc.IssuerMismatchError
	if _, err := oidc.NewProvider(context.Background(), srv.Issuer()); !errors.As(err, &mismatch) {
		t.Errorf("DiscoveryWrongIssuer: go-oidc says %v", err)
	}

	srv.SetFaults(authtest.Faults{JWKSFail: true})
	if resp, _ := get(t, srv.Issuer()+"/jwks", ""); resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("JWKSFail: %d", resp.StatusCode)
	}
	keys := oidc.NewRemoteKeySet(context.Background(), srv.Issuer()+"/jwks")
	if _, err := keys.VerifySignature(context.Background(), raw); err == nil {
		t.Error("JWKSFail: go-oidc verified the token")
	}

	srv.SetFaults(authtest.Faults{UserinfoWrongSub: true})
	resp, body := get(t, srv.Issuer()+"/userinfo", tok.AccessToken)
	var ui map[string]any
	if json.Unmarshal(body, &ui); resp.StatusCode != http.StatusOK || ui["sub"] != "alice-evil" {
		t.Errorf("UserinfoWrongSub: %d %v", resp.StatusCode, ui)
	}

	srv.SetFaults(authtest.Faults{UserinfoFail: true})
	if resp, _ := get(t, srv.Issuer()+"/userinfo", tok.AccessToken); resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("UserinfoFail: %d", resp.StatusCode)
	}

	srv.SetFaults(authtest.Faults{})
	if resp, _ := get(t, srv.Issuer()+"/userinfo", tok.AccessToken); resp.StatusCode != http.StatusOK {
		t.Errorf("after clearing the faults: %d", resp.StatusCode)
	}
}
