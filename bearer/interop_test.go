package bearer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/nodetest"
)

// The node oidc-provider interop: interop/oidcprovider/serve.mjs runs the
// OpenID-certified provider, pinned in its package-lock.json.
const opDir = "../interop/oidcprovider"

// startOIDCProvider starts serve.mjs and returns its issuer URL. It skips
// when Node or the package is missing, and fails instead when CI is set.
func startOIDCProvider(t *testing.T) string {
	t.Helper()
	nodetest.Need(t, "oidc-provider interop test", opDir, "oidc-provider", "npm ci --prefix interop/oidcprovider")
	var stderr bytes.Buffer // its warnings; shown if it does not start
	cmd, _, out := nodetest.Start(t, opDir, "serve.mjs", &stderr)
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	// failed stops the process, so that its stderr is complete and no
	// longer written, and reports it.
	failed := func(what string) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%s; stderr:\n%s", what, stderr.String())
	}
	select {
	case s := <-line:
		var started struct{ Issuer string }
		if err := json.Unmarshal([]byte(s), &started); err != nil || started.Issuer == "" {
			failed(fmt.Sprintf("serve.mjs said %q", s))
		}
		return started.Issuer
	case <-time.After(30 * time.Second):
		failed("serve.mjs did not start within 30 s")
	}
	return ""
}

// opToken gets an access token from the provider's token endpoint with the
// client credentials grant; resource empty gives an opaque token.
func opToken(t *testing.T, issuer, resource, dpopProof string) (token, tokenType string) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"project:read project:delete"}}
	if resource != "" {
		form.Set("resource", resource)
	}
	req, _ := http.NewRequest("POST", issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("service", "service-secret-service-secret-0001")
	if dpopProof != "" {
		req.Header.Set("DPoP", dpopProof)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		Error       string `json:"error_description"`
	}
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 200 || body.AccessToken == "" {
		t.Fatalf("token endpoint: %s %s", resp.Status, body.Error)
	}
	return body.AccessToken, body.TokenType
}

// TestOIDCProviderInterop: access tokens of node oidc-provider pass, as
// RFC 9068 JWTs (keys and endpoints discovered from its metadata), as
// opaque tokens through its introspection endpoint, and DPoP-bound.
func TestOIDCProviderInterop(t *testing.T) {
	issuer := startOIDCProvider(t)
	v, err := New(Config{
		Issuer:        issuer,
		Audience:      []string{"https://api.example"},
		Introspection: Introspection{ClientID: "api", ClientSecret: "api-secret-api-secret-api-secret-0001"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	check := func(t *testing.T, tok *Token, introspected bool) {
		t.Helper()
		if tok.Issuer != issuer || tok.ClientID != "service" || !tok.HasScope("project:delete") ||
			tok.Introspected != introspected || time.Until(tok.Expiry) <= 0 {
			t.Fatalf("token %+v", tok)
		}
	}
	for _, alg := range []string{"ES256", "EdDSA", "RS256"} {
		t.Run("JWT "+alg, func(t *testing.T) {
			raw, _ := opToken(t, issuer, "https://api.example/?alg="+alg, "")
			tok, err := v.Verify(ctx, raw)
			if err != nil {
				t.Fatal(err)
			}
			check(t, tok, false)
			if tok.Subject != "service" || tok.Audience[0] != "https://api.example" {
				t.Fatalf("token %+v", tok)
			}
			// The same token with one byte of its signature changed fails.
			if _, err := v.Verify(ctx, raw[:len(raw)-2]+flip(raw[len(raw)-2])+raw[len(raw)-1:]); !errors.Is(err, ErrSignature) {
				t.Fatalf("altered token: %v", err)
			}
		})
	}
	t.Run("opaque, introspected", func(t *testing.T) {
		raw, _ := opToken(t, issuer, "", "")
		tok, err := v.Verify(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		check(t, tok, true)
		if _, err := v.Verify(ctx, raw+"x"); !errors.Is(err, ErrInactive) {
			t.Fatalf("unknown opaque token: %v", err)
		}
	})
	t.Run("DPoP-bound JWT", func(t *testing.T) {
		client := newDPoPClient(t)
		proof := client.proof(t, "POST", issuer+"/token", "", time.Now(), func(m map[string]any) { delete(m, "ath") })
		raw, typ := opToken(t, issuer, "https://api.example/", proof)
		if typ != "DPoP" {
			t.Fatalf("token_type %q", typ)
		}
		const api = "https://api.example/projects/1"
		var got *Token
		h := v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = FromContext(r.Context()) }))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, dpopRequest("DELETE", api, "DPoP", raw, client.proof(t, "DELETE", api, raw, time.Now(), nil)))
		if w.Code != 200 || got == nil || got.KeyThumbprint != thumbprint(t, client.key) {
			t.Fatalf("status %d (%s)", w.Code, w.Body)
		}
		_, err := v.VerifyRequest(dpopRequest("DELETE", api, "Bearer", raw, ""))
		if !errors.Is(err, ErrDPoPRequired) {
			t.Fatalf("bound token as Bearer: %v", err)
		}
	})
}

// flip returns another base64url character than c.
func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}
