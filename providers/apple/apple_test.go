package apple

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/providertest"
)

func TestDefaults(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{ClientID: "com.example.web"}).OAuth()
	if o.ID != "apple" || o.Name != "Apple" || o.Type != providers.TypeOIDC {
		t.Fatalf("base = %+v", o.Base)
	}
	if o.Issuer != "https://appleid.apple.com" {
		t.Errorf("issuer = %q", o.Issuer)
	}
	if o.Authorization.URL != "" || o.Token.URL != "" || o.UserinfoURL != "" {
		t.Errorf("endpoints should come from discovery: %q %q %q", o.Authorization.URL, o.Token.URL, o.UserinfoURL)
	}
	if !reflect.DeepEqual(o.Authorization.Params, map[string]string{"scope": "name email", "response_mode": "form_post"}) {
		t.Errorf("params = %v", o.Authorization.Params)
	}
	if got := o.EffectiveChecks(false); !reflect.DeepEqual(got, []providers.Check{providers.CheckPKCE, providers.CheckState, providers.CheckNonce}) {
		t.Errorf("checks = %v", got)
	}
	if o.Client.TokenEndpointAuthMethod != providers.AuthClientSecretPost {
		t.Errorf("client = %+v", o.Client)
	}
	if o.Style != (providers.Style{BrandColor: "#000", Icon: Icon}) {
		t.Errorf("style = %+v", o.Style)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestMerge(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{
		ClientSecret:  "jwt",
		Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "email"}},
		Checks:        []providers.Check{providers.CheckNonce, providers.CheckState},
		Client:        providers.Client{IDTokenSignedResponseAlg: "RS256"},
	})
	if c.Authorization.Params["scope"] != "email" || c.Authorization.Params["response_mode"] != "form_post" {
		t.Errorf("params = %v", c.Authorization.Params)
	}
	if !reflect.DeepEqual(c.Checks, []providers.Check{providers.CheckNonce, providers.CheckState}) {
		t.Errorf("checks = %v", c.Checks)
	}
	if c.Client != (providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost, IDTokenSignedResponseAlg: "RS256"}) {
		t.Errorf("client = %+v", c.Client)
	}
	if c.ClientSecret != "jwt" || c.Issuer != Issuer || c.Type != providers.TypeOIDC || c.Profile == nil {
		t.Errorf("merge changed other fields: %+v", c)
	}
}

const (
	claimsFirstLogin = `{"iss":"https://appleid.apple.com","aud":"com.example.web","exp":1700003600,"iat":1700000000,
		"sub":"001234.abcdef0123456789.1234","nonce":"n-0S6_WzA2Mj","at_hash":"x","email":"jane@example.com",
		"email_verified":"true","is_private_email":"false","auth_time":1700000000,"nonce_supported":true,"real_user_status":2}`
	claimsRelay = `{"iss":"https://appleid.apple.com","sub":"001234.abcdef0123456789.1234",
		"email":"abc123@privaterelay.appleid.com","email_verified":true,"is_private_email":true}`
	userField = `{"name":{"firstName":"Jane","lastName":"Appleseed"},"email":"jane@example.com"}`
)

// withUser adds the user form field to claims as the flow does: as the
// form value's text (asString) or decoded.
func withUser(t *testing.T, claims, user string, asString bool) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(claims), &m); err != nil {
		t.Fatal(err)
	}
	if asString {
		m["user"] = user
	} else {
		var u any
		if err := json.Unmarshal([]byte(user), &u); err != nil {
			t.Fatal(err)
		}
		m["user"] = u
	}
	b, _ := json.Marshal(m)
	return b
}

func TestMapProfile(t *testing.T) {
	const id = "001234.abcdef0123456789.1234"
	providertest.CheckMapping(t, New(providers.OAuthUserConfig[Profile]{}).OAuth(), []providertest.MappingCase{
		{Name: "first login, user as form text", JSON: string(withUser(t, claimsFirstLogin, userField, true)),
			Want: profile.User{ID: id, Name: "Jane Appleseed", Email: "jane@example.com"}, Verified: true},
		{Name: "first login, user decoded", JSON: string(withUser(t, claimsFirstLogin, userField, false)),
			Want: profile.User{ID: id, Name: "Jane Appleseed", Email: "jane@example.com"}, Verified: true},
		{Name: "first name only", JSON: string(withUser(t, claimsFirstLogin, `{"name":{"firstName":"Jane"}}`, true)),
			Want: profile.User{ID: id, Name: "Jane", Email: "jane@example.com"}, Verified: true},
		{Name: "later login: name falls back to the e-mail", JSON: claimsRelay,
			Want: profile.User{ID: id, Name: "abc123@privaterelay.appleid.com", Email: "abc123@privaterelay.appleid.com"}, Verified: true},
		{Name: "no e-mail scope", JSON: `{"sub":"s1"}`, Want: profile.User{ID: "s1"}},
	})
}

func TestProfileDecode(t *testing.T) {
	var p Profile
	if err := json.Unmarshal(withUser(t, claimsFirstLogin, userField, true), &p); err != nil {
		t.Fatal(err)
	}
	if !bool(p.EmailVerified) || bool(p.IsPrivateEmail) || p.RealUserStatus != 2 || !p.NonceSupported || p.User == nil || p.User.Email != "jane@example.com" {
		t.Fatalf("decoded %+v", p)
	}
	for _, bad := range []string{`{"email_verified":"yes"}`, `{"user":"not json"}`, `{"user":42}`} {
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("%s decoded without error", bad)
		}
	}
}

func TestClientSecret(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1700000000, 0)
	s, err := clientSecret("TEAM123456", "KEY1234567", "com.example.web", key, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	// The header is exactly alg and kid.
	var header map[string]any
	h, _ := base64.RawURLEncoding.DecodeString(strings.Split(s, ".")[0])
	if err := json.Unmarshal(h, &header); err != nil {
		t.Fatal(err)
	}
	if header["alg"] != "ES256" || header["kid"] != "KEY1234567" {
		t.Errorf("header = %v", header)
	}
	tok, err := jwt.ParseSigned(s, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := tok.Claims(&key.PublicKey, &raw); err != nil {
		t.Fatalf("signature does not verify: %v", err)
	}
	want := map[string]any{
		"iss": "TEAM123456", "sub": "com.example.web", "aud": "https://appleid.apple.com",
		"iat": float64(1700000000), "exp": float64(1700003600),
	}
	if !reflect.DeepEqual(raw, want) {
		t.Errorf("claims = %v, want %v", raw, want)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err := tok.Claims(&other.PublicKey, &raw); err == nil {
		t.Error("verified with another key")
	}
}

func TestClientSecretRejects(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	tests := []struct {
		name              string
		team, kid, client string
		key               *ecdsa.PrivateKey
		ttl               time.Duration
	}{
		{"no team", "", "K", "C", p256, time.Hour},
		{"no key id", "T", "", "C", p256, time.Hour},
		{"no client", "T", "K", "", p256, time.Hour},
		{"nil key", "T", "K", "C", nil, time.Hour},
		{"P-384 key", "T", "K", "C", p384, time.Hour},
		{"zero ttl", "T", "K", "C", p256, 0},
		{"over six months", "T", "K", "C", p256, MaxClientSecretTTL + time.Second},
	}
	for _, tt := range tests {
		if _, err := ClientSecret(tt.team, tt.kid, tt.client, tt.key, tt.ttl); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := ClientSecret("T", "K", "C", p256, MaxClientSecretTTL); err != nil {
		t.Errorf("the maximum lifetime is refused: %v", err)
	}
}

func TestParsePrivateKey(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	p8 := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	got, err := ParsePrivateKey(p8)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(key) {
		t.Fatal("parsed a different key")
	}
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsaDER, _ := x509.MarshalPKCS8PrivateKey(rsaKey)
	for name, in := range map[string][]byte{
		"not PEM":   []byte("-----"),
		"RSA key":   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: rsaDER}),
		"truncated": pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der[:20]}),
	} {
		if _, err := ParsePrivateKey(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
