// Package apiservice is the example's second service: it trusts nobody's
// session, only the short-lived access tokens the site issues at POST
// /auth/token, which it verifies on its own with the site's public keys
// (package bearer). The example site starts it beside itself; go run
// ./example/api runs it alone.
package apiservice

import (
	"encoding/json"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/bearer"
)

// New returns the service: GET /me answers who the token speaks for,
// to a token with the scope profile:read.
func New(issuer, audience string) (http.Handler, error) {
	v, err := bearer.New(bearer.Config{Issuer: issuer, Audience: []string{audience}, JWKSURL: issuer + "/jwks"})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /me", v.RequireScope("profile:read")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := bearer.FromContext(r.Context())
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"user": t.Subject, "client": t.ClientID, "scopes": t.Scopes})
	})))
	return v.Middleware(mux), nil
}
