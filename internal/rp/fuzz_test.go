package rp

// Fuzz tests for what providers send: token, userinfo and discovery
// answers and JWK Sets, each fed through the code the flow runs, over an
// in-memory transport.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// answerTransport answers every request with status and body, through
// the same read limit as the default client.
type answerTransport struct {
	status int
	body   []byte
}

func (t answerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return limitTransport{roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: t.status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(t.body)), Request: r}, nil
	})}.RoundTrip(r)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

const fuzzIssuer = "https://op.example"

func fuzzProvider(status int, body []byte) *Provider {
	o := providers.OAuthConfig[profile.Claims]{ID: "op", Name: "OP", Type: providers.TypeOIDC, Issuer: fuzzIssuer,
		ClientID: "client", ClientSecret: "secret"}.OAuth()
	return New(o, &http.Client{Transport: answerTransport{status, body}, Timeout: time.Second}, 30*time.Second, time.Second)
}

// fuzzStatus maps a fuzzed byte to a status a provider might answer.
func fuzzStatus(b uint8) int {
	return []int{200, 200, 200, 201, 400, 401, 500, 503}[b%8]
}

func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add(uint8(0), []byte(s))
	}
}

// FuzzTokenResponse: whatever the token endpoint answers, the exchange
// returns a token set with an access token and an acceptable token type,
// or a *autherr.Error of type TokenExchangeFailed; and the token set survives
// its own JSON encoding unchanged.
func FuzzTokenResponse(f *testing.F) {
	addSeeds(f, `{"access_token":"a","token_type":"Bearer","expires_in":3600,"refresh_token":"r","id_token":"x.y.z","scope":"openid"}`,
		`{"access_token":"a","token_type":"mac"}`, `{"access_token":"a","expires_in":"60"}`, `{"error":"invalid_grant"}`,
		`access_token=a&token_type=bearer`, `{"access_token":1}`, `[]`, `null`, `{"access_token":"a","x":{"y":[1,2,{}]}}`, "")
	f.Fuzz(func(t *testing.T, status uint8, body []byte) {
		p := fuzzProvider(fuzzStatus(status), body)
		e := &Endpoints{Issuer: fuzzIssuer, Token: fuzzIssuer + "/token"}
		ts, err := p.Exchange(context.Background(), e, "code", "verifier", "https://app.example/auth/callback/op", url.Values{})
		if err != nil {
			var ge *autherr.Error
			if !errors.As(err, &ge) || ge.Type != autherr.TokenExchangeFailed || ge.Code == "" {
				t.Fatalf("error %v (%T) is not a autherr.TokenExchangeFailed *autherr.Error", err, err)
			}
			return
		}
		if ts.AccessToken == "" {
			t.Fatal("a token set without an access token")
		}
		if tt := strings.ToLower(ts.TokenType); tt != "" && tt != "bearer" && tt != "dpop" {
			t.Fatalf("token type %q accepted", ts.TokenType)
		}
		raw, err := ts.MarshalJSON()
		if err != nil {
			return // Extra held something JSON cannot re-encode exactly (e.g. a huge number)
		}
		var back account.TokenSet
		if err := back.UnmarshalJSON(raw); err != nil {
			t.Fatalf("re-decoding %s: %v", raw, err)
		}
		back.ExpiresAt = ts.ExpiresAt // not a JSON member of a token response
		if !reflect.DeepEqual(normalizeExtra(back), normalizeExtra(ts)) {
			t.Fatalf("round trip changed the token set:\n%+v\n%+v", ts, back)
		}
	})
}

func normalizeExtra(t account.TokenSet) account.TokenSet {
	if len(t.Extra) == 0 {
		t.Extra = nil
	}
	return t
}

// FuzzUserinfo: whatever userinfo answers, the profile keeps the ID
// token's sub and protected claims, or the step fails with a typed error.
func FuzzUserinfo(f *testing.F) {
	addSeeds(f, `{"sub":"alice","email":"a@example.com"}`, `{"sub":"alice","iss":"https://evil","aud":"x","nonce":"n"}`,
		`{"sub":"mallory"}`, `{"email":"a@example.com"}`, `{"sub":1}`, `[]`, `"alice"`, `{"sub":"alice","user":{"name":"x"}}`, "")
	idClaims := profile.Claims{"iss": fuzzIssuer, "sub": "alice", "aud": "client", "exp": 2e9, "iat": 1e9, "nonce": "n0", "at_hash": "h"}
	f.Fuzz(func(t *testing.T, status uint8, body []byte) {
		p := fuzzProvider(fuzzStatus(status), body)
		e := &Endpoints{Issuer: fuzzIssuer, Userinfo: fuzzIssuer + "/userinfo"}
		v, err := p.Profile(context.Background(), e, account.TokenSet{AccessToken: "at"}, idClaims, url.Values{})
		if err != nil {
			var ge *autherr.Error
			if !errors.As(err, &ge) || (ge.Type != autherr.UserinfoFailed && ge.Type != autherr.OAuthProfileParseError) {
				t.Fatalf("error %v (%T) is not a typed userinfo error", err, err)
			}
			return
		}
		got, ok := v.(profile.Claims)
		if !ok {
			t.Fatalf("profile is %T", v)
		}
		for _, k := range []string{"iss", "sub", "aud", "exp", "iat", "nonce", "azp", "at_hash", "c_hash", "auth_time"} {
			if !reflect.DeepEqual(got[k], idClaims[k]) {
				t.Fatalf("userinfo changed protected claim %q: %v → %v", k, idClaims[k], got[k])
			}
		}
	})
}

// FuzzDiscovery: whatever the metadata document says, a provider either
// resolves with the configured issuer, an authorization and a token
// endpoint and only asymmetric ID token algorithms, or fails with an
// error.
func FuzzDiscovery(f *testing.F) {
	good := `{"issuer":"` + fuzzIssuer + `","authorization_endpoint":"https://op.example/a","token_endpoint":"https://op.example/t","jwks_uri":"https://op.example/k","id_token_signing_alg_values_supported":["RS256","none","HS256"]}`
	addSeeds(f, good, strings.Replace(good, fuzzIssuer, "https://evil.example", 1), `{"issuer":"`+fuzzIssuer+`"}`,
		`{"issuer":"`+fuzzIssuer+`/","authorization_endpoint":"x","token_endpoint":"y","jwks_uri":"z"}`, `{"issuer":1}`, `[]`, "")
	f.Fuzz(func(t *testing.T, status uint8, body []byte) {
		p := fuzzProvider(fuzzStatus(status), body)
		e, err := p.resolve(context.Background())
		if err != nil {
			return
		}
		if e.Issuer != fuzzIssuer || e.auth == "" || e.Token == "" || !e.VerifiesTokens() {
			t.Fatalf("resolved %+v", e)
		}
		for _, a := range e.algs {
			if a == "none" || strings.HasPrefix(a, "HS") {
				t.Fatalf("algorithm %q allowed from metadata", a)
			}
		}
	})
}

// FuzzJWKS: a JWK Set parses to public, valid keys only, or fails.
func FuzzJWKS(f *testing.F) {
	addSeeds(f, `{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0","kid":"k"}]}`,
		`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`, `{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}`, `{"keys":null}`, `{}`, "")
	f.Fuzz(func(t *testing.T, _ uint8, body []byte) {
		keys, err := parseJWKS(body)
		if err != nil {
			return
		}
		if len(keys) == 0 {
			t.Fatal("no keys and no error")
		}
		for _, k := range keys {
			if !k.IsPublic() || !k.Valid() {
				t.Fatalf("kept a key that is not a valid public key: %+v", k)
			}
		}
	})
}
