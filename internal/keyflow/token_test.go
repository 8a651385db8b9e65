package keyflow_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// withTokens turns service tokens on, for the audiences "reports" and
// "billing".
func withTokens(alg string) func(*testConfig) {
	return func(c *testConfig) {
		c.MachineAccess.Tokens = &servicetoken.Config{Audiences: []string{"reports", "billing"}, Algorithm: alg}
	}
}

// accessClaims are the claims of an RFC 9068 access token.
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	OrgID    string `json:"org_id"`
}

// jwks fetches the key set.
func (e *env) jwks() (jose.JSONWebKeySet, http.Header) {
	e.t.Helper()
	resp, err := http.Get(e.srv.URL + "/auth/jwks")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil || resp.StatusCode != http.StatusOK {
		e.t.Fatalf("jwks: %d %v", resp.StatusCode, err)
	}
	return set, resp.Header
}

// verify checks token as a service would, with go-jose and the key set:
// typ at+jwt, alg, kid, signature, iss, aud, exp; and returns its
// claims.
func verify(t testing.TB, set jose.JSONWebKeySet, token, alg, issuer, audience string) accessClaims {
	t.Helper()
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(alg)})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	h := tok.Headers[0]
	if h.ExtraHeaders[jose.HeaderType] != "at+jwt" || h.Algorithm != alg || h.KeyID == "" {
		t.Fatalf("header %+v; want typ at+jwt, alg %s and a kid", h, alg)
	}
	keys := set.Key(h.KeyID)
	if len(keys) != 1 {
		t.Fatalf("kid %s is not in the key set", h.KeyID)
	}
	var c accessClaims
	if err := tok.Claims(keys[0].Key, &c); err != nil {
		t.Fatalf("signature: %v", err)
	}
	if err := c.Validate(jwt.Expected{Issuer: issuer, AnyAudience: jwt.Audience{audience}, Time: time.Now()}); err != nil {
		t.Fatalf("claims: %v", err)
	}
	return c
}

// TestTokenForSessionAndKey: a session and a key each get a token that
// go-jose verifies with the published keys, with the claims of RFC 9068.
func TestTokenForSessionAndKey(t *testing.T) {
	for _, alg := range []string{servicetoken.EdDSA, servicetoken.ES256} {
		t.Run(alg, func(t *testing.T) {
			e := newEnv(t, memory.New(), nil, withTokens(alg))
			ada, b := e.user("ada@example.com", "report:read", "report:write")
			status, out := b.post("/auth/token", url.Values{"scope": {"report:read"}})
			if status != http.StatusOK || out["token_type"] != "Bearer" || out["expires_in"] != float64(300) || out["scope"] != "report:read" {
				t.Fatalf("token for a session = %d %v", status, out)
			}
			set, h := e.jwks()
			if h.Get("Cache-Control") != "public, max-age=900" {
				t.Errorf("Cache-Control %q; want a quarter of the hour of overlap", h.Get("Cache-Control"))
			}
			for _, k := range set.Keys {
				if !k.IsPublic() {
					t.Fatal("the key set holds a private key")
				}
			}
			c := verify(t, set, out["access_token"].(string), alg, e.srv.URL+"/auth", "reports")
			if c.Subject != ada || c.ClientID != "gatehouse" || c.Scope != "report:read" || c.ID == "" ||
				c.Expiry.Time().Sub(c.IssuedAt.Time()) != 5*time.Minute {
				t.Errorf("claims %+v", c)
			}
			key, id := b.newKey("ci", "report:read report:write", nil)
			status, out = e.withKey(http.MethodPost, "/auth/token", key, url.Values{"audience": {"billing"}, "scope": {"report:write report:read"}})
			if status != http.StatusOK {
				t.Fatalf("token for a key = %d %v", status, out)
			}
			c = verify(t, set, out["access_token"].(string), alg, e.srv.URL+"/auth", "billing")
			if c.Subject != ada || c.ClientID != id || c.Scope != "report:read report:write" {
				t.Errorf("claims %+v", c)
			}
		})
	}
}

// TestTokenRefused: no token without a session or a key, with a revoked
// key, for an audience not configured, for permissions not held, nor for
// a session's request from another site or without the CSRF token.
func TestTokenRefused(t *testing.T) {
	e := newEnv(t, memory.New(), nil, withTokens(""))
	_, b := e.user("ada@example.com", "report:read")
	key, _ := b.newKey("ci", "report:read", nil)
	revoked, rid := b.newKey("old", "", nil)
	if status, _ := b.post("/auth/api-keys/"+rid+"/revoke", nil); status != http.StatusOK {
		t.Fatal(status)
	}
	anon := e.browser()
	for name, tc := range map[string]struct {
		got  answer
		want int
		code string
	}{
		"nobody":            {got(anon.post("/auth/token", nil)), http.StatusUnauthorized, ""},
		"a bare program":    {got(anon.do(http.MethodPost, "/auth/token", url.Values{}, nil)), http.StatusUnauthorized, ""},
		"revoked key":       {got(e.withKey(http.MethodPost, "/auth/token", revoked, nil)), http.StatusUnauthorized, "invalid_token"},
		"forged key":        {got(e.withKey(http.MethodPost, "/auth/token", forged(key), nil)), http.StatusUnauthorized, "invalid_token"},
		"unknown audience":  {got(e.withKey(http.MethodPost, "/auth/token", key, url.Values{"audience": {"https://evil.example"}})), http.StatusBadRequest, "invalid_target"},
		"scope not held":    {got(e.withKey(http.MethodPost, "/auth/token", key, url.Values{"scope": {"report:delete"}})), http.StatusBadRequest, "invalid_scope"},
		"session, not held": {got(b.post("/auth/token", url.Values{"scope": {"admin:all"}})), http.StatusBadRequest, "invalid_scope"},
		"no CSRF token":     {got(b.do(http.MethodPost, "/auth/token", url.Values{"csrfToken": {"x"}}, http.Header{"Origin": {e.srv.URL}})), http.StatusForbidden, ""},
		"another site": {got(b.do(http.MethodPost, "/auth/token", url.Values{"csrfToken": {b.token()}},
			http.Header{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}})), http.StatusForbidden, ""},
	} {
		if tc.got.status != tc.want || (tc.code != "" && tc.got.out["error"] != tc.code) || tc.got.out["access_token"] != nil {
			t.Errorf("%s: %d %v; want %d %s", name, tc.got.status, tc.got.out, tc.want, tc.code)
		}
	}
}

// answer is a status and a JSON answer.
type answer struct {
	status int
	out    map[string]any
}

func got(status int, out map[string]any) answer { return answer{status, out} }

// forged returns key with the last character of its secret changed.
func forged(key string) string {
	last := key[len(key)-1]
	if last == 'x' {
		return key[:len(key)-1] + "y"
	}
	return key[:len(key)-1] + "x"
}

// TestSigningKeySealed: the store holds the private key sealed, never in
// clear, and the key set publishes the public half only.
func TestSigningKeySealed(t *testing.T) {
	store := memory.New()
	e := newEnv(t, store, nil, withTokens(""))
	e.jwks()
	keys, err := store.SigningKeys(t.Context())
	if err != nil || len(keys) != 1 {
		t.Fatalf("SigningKeys = %v, %v", keys, err)
	}
	if strings.Contains(keys[0].Sealed, `"d"`) || strings.Contains(keys[0].Sealed, "OKP") {
		t.Error("the sealed key reads as a JWK")
	}
	var pub jose.JSONWebKey
	if err := pub.UnmarshalJSON([]byte(keys[0].Public)); err != nil || !pub.IsPublic() || pub.KeyID != keys[0].ID {
		t.Errorf("public %s: %v", keys[0].Public, err)
	}
}

// TestOrganizationHook: the permissions of a key or token made in an
// organization are the user's there; its tokens carry org_id.
func TestOrganizationHook(t *testing.T) {
	var left atomic.Bool // ada left acme
	e := newEnv(t, memory.New(), nil, func(c *testConfig) {
		withTokens("")(c)
		c.MachineAccess.ActiveOrganization = func(r *http.Request) string { return r.Header.Get("X-Test-Org") }
		c.MachineAccess.Permissions = func(_ context.Context, _, org string) (permission.Set, error) {
			if org == "acme" && !left.Load() {
				return permission.MustSet("invoice:read"), nil
			}
			return nil, nil
		}
	})
	_, b := e.user("ada@example.com")
	if status, _ := b.post("/auth/api-keys", url.Values{"name": {"x"}, "permissions": {"invoice:read"}}); status != http.StatusForbidden {
		t.Errorf("a key with acme's permission outside acme: %d; want 403", status)
	}
	key, _ := b.newKey("acme", "invoice:read", url.Values{"organizationId": {"acme"}})
	if _, p := e.withKey(http.MethodGet, "/api", key, nil); p["OrganizationID"] != "acme" {
		t.Errorf("principal %v; want organization acme", p)
	}
	set, _ := e.jwks()
	_, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"scope": {"invoice:read"}})
	if c := verify(t, set, out["access_token"].(string), servicetoken.EdDSA, e.srv.URL+"/auth", "reports"); c.OrgID != "acme" || c.Scope != "invoice:read" {
		t.Errorf("key's token: %+v", c)
	}
	_, out = b.do(http.MethodPost, "/auth/token", url.Values{"csrfToken": {b.token()}, "scope": {"invoice:read"}},
		http.Header{"Origin": {e.srv.URL}, "X-Test-Org": {"acme"}})
	if c := verify(t, set, out["access_token"].(string), servicetoken.EdDSA, e.srv.URL+"/auth", "reports"); c.OrgID != "acme" {
		t.Errorf("session's token: %+v", c)
	}
	if status, _ := b.post("/auth/token", url.Values{"scope": {"invoice:read"}}); status != http.StatusBadRequest {
		t.Errorf("a session's token outside acme with acme's permission: %d; want 400", status)
	}
	if status, _ := b.post("/auth/api-keys", url.Values{"name": {"x"}, "organizationId": {"globex"}}); status != http.StatusForbidden {
		t.Errorf("a key for an organization ada is not in: %d; want 403", status)
	}
	if status, _ := b.do(http.MethodPost, "/auth/token", url.Values{"csrfToken": {b.token()}},
		http.Header{"Origin": {e.srv.URL}, "X-Test-Org": {"globex"}}); status != http.StatusForbidden {
		t.Errorf("a session's token in an organization ada is not in: %d; want 403", status)
	}
	left.Store(true)
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("the key of an organization its user left: %d; want 401", status)
	}
}
