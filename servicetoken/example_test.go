package servicetoken_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// A Signer over the store every instance shares issues a token; a service
// verifies it with the published key set. (In an application the handler
// does the issuing, at POST {base}/token, and serves GET {base}/jwks.)
func Example() {
	ctx := context.Background()
	signer, err := servicetoken.NewSigner(servicetoken.Config{Audiences: []string{"https://reports.example.com"}},
		memory.New(), []string{"the-app-secret-of-at-least-32-bytes!"})
	if err != nil {
		panic(err)
	}
	token, _, err := signer.Issue(ctx, "https://app.example.com/auth", servicetoken.Claims{
		Subject: "user-1", Audience: "https://reports.example.com", ClientID: "gatehouse", Scope: "report:read"})
	if err != nil {
		panic(err)
	}

	// The service's side.
	raw, _ := signer.JWKS(ctx)
	var keys jose.JSONWebKeySet
	_ = json.Unmarshal(raw, &keys)
	parsed, _ := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.EdDSA})
	var claims struct {
		jwt.Claims
		Scope string `json:"scope"`
	}
	err = parsed.Claims(keys.Key(parsed.Headers[0].KeyID)[0].Key, &claims)
	fmt.Println(err, parsed.Headers[0].ExtraHeaders["typ"], claims.Subject, claims.Scope)
	// Output: <nil> at+jwt user-1 report:read
}
