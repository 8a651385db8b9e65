package authtest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// A sign-in with the authorization code flow and PKCE against a test
// provider, as a relying party would do it.
func Example() {
	srv := authtest.NewServer(authtest.Options{AutoApprove: true})
	defer srv.Close()
	ctx := context.Background()

	provider, err := oidc.NewProvider(ctx, srv.Issuer())
	if err != nil {
		log.Fatal(err)
	}
	conf := oauth2.Config{
		ClientID:     authtest.DefaultClientID,
		ClientSecret: authtest.DefaultClientSecret,
		Endpoint:     provider.Endpoint(),
		RedirectURL:  "http://app.example/callback",
		Scopes:       []string{oidc.ScopeOpenID, "email"},
	}
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("some-state", oauth2.S256ChallengeOption(verifier), oidc.Nonce("some-nonce"))

	// The browser's part: the provider redirects to the callback at once.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(authURL)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	callback, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		log.Fatal(err)
	}
	q := callback.Query()
	fmt.Println("iss matches:", q.Get("iss") == srv.Issuer())

	tok, err := conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		log.Fatal(err)
	}
	rawIDToken, _ := tok.Extra("id_token").(string)
	idToken, err := provider.Verifier(&oidc.Config{ClientID: conf.ClientID}).Verify(ctx, rawIDToken)
	if err != nil {
		log.Fatal(err)
	}
	var claims struct {
		Email string `json:"email"`
	}
	if err := idToken.Claims(&claims); err != nil {
		log.Fatal(err)
	}
	fmt.Println(idToken.Subject, claims.Email, idToken.Nonce)
	// Output:
	// iss matches: true
	// alice alice@example.com some-nonce
}

// A hostile provider: with a fault switched on, discovery answers another
// issuer, and a careful relying party refuses to go on.
func ExampleProvider_SetFaults() {
	srv := authtest.NewServer(authtest.Options{AutoApprove: true})
	defer srv.Close()

	srv.SetFaults(authtest.Faults{DiscoveryWrongIssuer: true})
	_, err := oidc.NewProvider(context.Background(), srv.Issuer())
	fmt.Println("refused:", err != nil)

	srv.SetFaults(authtest.Faults{}) // well-behaved again
	_, err = oidc.NewProvider(context.Background(), srv.Issuer())
	fmt.Println("accepted:", err == nil)

	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Endpoint)
	}
	// Output:
	// refused: true
	// accepted: true
	// GET discovery
	// GET discovery
}

// The development provider mounted in an application's own server, under
// a path prefix. A person signs in on its "Development sign-in" page.
func ExampleNew() {
	p, err := authtest.New(authtest.Options{
		Issuer:       "http://localhost:8080/dev-oidc",
		RedirectURIs: []string{"http://localhost:8080/auth/callback/dev"},
		Users: []authtest.User{
			{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true},
			{Subject: "bob", Name: "Bob", Email: "bob@example.com"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/dev-oidc/", p) // no StripPrefix: p serves the issuer's path
	// mux.Handle("/", app)
	// http.ListenAndServe("localhost:8080", mux)
	fmt.Println(p.Issuer() + "/.well-known/openid-configuration")
	// Output: http://localhost:8080/dev-oidc/.well-known/openid-configuration
}
