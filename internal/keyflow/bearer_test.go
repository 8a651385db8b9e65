package keyflow_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/bearer"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestBearerVerifies: the tokens are what the bearer package, the
// verifying side, expects: a service configured with the handler's URL
// as Issuer and its audience accepts them (EdDSA and ES256) with their
// subject, client, scopes and organization, and refuses them for another
// audience or issuer.
func TestBearerVerifies(t *testing.T) {
	for _, alg := range []string{servicetoken.EdDSA, servicetoken.ES256} {
		t.Run(alg, func(t *testing.T) {
			e := newEnv(t, memory.New(), nil, withTokens(alg))
			ada, b := e.user("ada@example.com", "report:read", "report:write")
			key, id := b.newKey("ci", "report:read report:write", nil)
			_, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"scope": {"report:write report:read"}})
			token, _ := out["access_token"].(string)
			verifier := func(issuer, audience string) *bearer.Verifier {
				v, err := bearer.New(bearer.Config{Issuer: issuer, Audience: []string{audience}, JWKSURL: e.srv.URL + "/auth/jwks"})
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			got, err := verifier(e.srv.URL+"/auth", "reports").Verify(t.Context(), token)
			if err != nil {
				t.Fatalf("bearer refused a token of the handler: %v", err)
			}
			if got.Subject != ada || got.ClientID != id || !got.HasScope("report:read") || !got.HasScope("report:write") {
				t.Errorf("token %+v", got)
			}
			if _, err := verifier(e.srv.URL+"/auth", "billing").Verify(t.Context(), token); !errors.Is(err, bearer.ErrAudience) {
				t.Errorf("another audience: %v; want ErrAudience", err)
			}
			if _, err := verifier(e.srv.URL, "reports").Verify(t.Context(), token); !errors.Is(err, bearer.ErrIssuer) {
				t.Errorf("another issuer: %v; want ErrIssuer", err)
			}
		})
	}
}
