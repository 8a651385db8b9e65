package bearer_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/bearer"
)

func Example() {
	// The issuer's key set; in production the issuer (Gatehouse's
	// {base}/jwks, or any OAuth server's jwks_uri) serves it.
	signing, jwks := exampleIssuer()
	defer jwks.Close()

	// The API server: every route needs a token, deleting needs a scope.
	v, err := bearer.New(bearer.Config{
		Issuer:   "https://auth.example.com",
		Audience: []string{"https://api.example.com"},
		JWKSURL:  jwks.URL, // empty: discovered from the issuer
		Realm:    "projects",
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("DELETE /projects/{id}", v.RequireScope("project:delete")(http.HandlerFunc(
		func(w http.ResponseWriter, r *http.Request) {
			t := bearer.FromContext(r.Context())
			fmt.Fprintf(w, "project %s deleted by %s of %s", r.PathValue("id"), t.Subject, t.Organization)
		})))
	api := httptest.NewServer(v.Middleware(mux))
	defer api.Close()

	for _, scope := range []string{"project:read project:delete", "project:read"} {
		req, _ := http.NewRequest("DELETE", api.URL+"/projects/7", nil)
		req.Header.Set("Authorization", "Bearer "+accessToken(signing, scope, 5*time.Minute))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %s\n", resp.StatusCode, strings.TrimSpace(string(body)))
		if resp.StatusCode != http.StatusOK {
			fmt.Println(resp.Header.Get("WWW-Authenticate"))
		}
	}
	// Output:
	// 200 project 7 deleted by user-1 of org-7
	// 403 insufficient scope
	// Bearer realm="projects", error="insufficient_scope", error_description="insufficient scope", scope="project:delete"
}

// Verify checks a token outside HTTP, for a queue consumer or a gRPC
// interceptor; each failure matches one of the package's errors.
func ExampleVerifier_Verify() {
	signing, jwks := exampleIssuer()
	defer jwks.Close()
	v, err := bearer.New(bearer.Config{
		Issuer:   "https://auth.example.com",
		Audience: []string{"https://api.example.com"},
		JWKSURL:  jwks.URL,
	})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	t, err := v.Verify(ctx, accessToken(signing, "reports:read", time.Minute))
	fmt.Println(t.Subject, t.ClientID, t.Scopes, err)

	_, err = v.Verify(ctx, accessToken(signing, "reports:read", -time.Hour))
	fmt.Println(errors.Is(err, bearer.ErrExpired))
	// Output:
	// user-1 reports [reports:read] <nil>
	// true
}

// exampleIssuer returns a signing key and a server publishing its JWKS.
func exampleIssuer() (jose.JSONWebKey, *httptest.Server) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	signing := jose.JSONWebKey{Key: key, KeyID: "2026-11", Algorithm: "ES256"}
	jwks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{signing.Public()}})
	}))
	return signing, jwks
}

// accessToken signs an RFC 9068 access token, valid for ttl, as the
// issuer would.
func accessToken(key jose.JSONWebKey, scope string, ttl time.Duration) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		log.Fatal(err)
	}
	now := time.Now()
	claims, _ := json.Marshal(map[string]any{
		"iss": "https://auth.example.com", "aud": "https://api.example.com",
		"sub": "user-1", "client_id": "reports", "scope": scope, "org_id": "org-7",
		"iat": now.Unix(), "exp": now.Add(ttl).Unix(), "jti": rand.Text(),
	})
	jws, err := signer.Sign(claims)
	if err != nil {
		log.Fatal(err)
	}
	token, _ := jws.CompactSerialize()
	return token
}
