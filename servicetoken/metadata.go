package servicetoken

import (
	"encoding/json"
	"net/http"
	"strings"
)

// GrantType is the one grant the token endpoint serves, as a client names
// it in grant_type: the caller's own credential (an API key, or a
// session) gets a token for itself, as in the client credentials grant
// (RFC 6749 §4.4). A request without grant_type is taken as this one.
const GrantType = "client_credentials"

// AuthMethodAPIKey names, in token_endpoint_auth_methods_supported, how
// a program authenticates at the token endpoint: with its API key as a
// bearer token ("Authorization: Bearer <key>", or the header
// apikey.Config.Header names). No registered method (client_secret_basic,
// client_secret_post, private_key_jwt, ...) describes that, and RFC 7591
// §2 lets an unregistered method be named by an absolute URI: this one is
// the documentation of package apikey, which describes the keys.
const AuthMethodAPIKey = "https://pkg.go.dev/github.com/gatehouse-auth/gatehouse/apikey"

// WellKnownPath is the well-known URI suffix of authorization server
// metadata (RFC 8414 §3, §7.3).
const WellKnownPath = "/.well-known/oauth-authorization-server"

// Metadata is the authorization server metadata of RFC 8414 §2 that is
// true of Gatehouse's token endpoint: the issuer, where the keys and the
// token endpoint are, that no authorization endpoint exists (no response
// types), that the one grant is GrantType, and that callers authenticate
// with an API key (AuthMethodAPIKey).
//
// The signing algorithm is not a metadata field: each key of the key set
// names it (the JWK's alg). scopes_supported (RECOMMENDED) is left out:
// the scopes are the permissions the application defines, which this
// package does not know.
type Metadata struct {
	// Issuer is the iss of the tokens: the handler's URL with its base
	// path, e.g. "https://app.example.com/auth".
	Issuer                 string   `json:"issuer"`
	JWKSURI                string   `json:"jwks_uri"`
	TokenEndpoint          string   `json:"token_endpoint"`
	ResponseTypesSupported []string `json:"response_types_supported"`
	GrantTypesSupported    []string `json:"grant_types_supported"`
	// TokenEndpointAuthMethodsSupported is how callers authenticate at
	// the token endpoint. Left out, it would mean client_secret_basic
	// (RFC 8414 §2), which the endpoint does not accept. (A browser's
	// session cookie with the CSRF token works too, but is no client
	// authentication method.)
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
}

// NewMetadata returns the metadata of the tokens issuer issues: its key
// set at issuer/jwks and its token endpoint at issuer/token, the routes
// the handler serves under its base path (which the issuer ends with).
func NewMetadata(issuer string) Metadata {
	issuer = strings.TrimSuffix(issuer, "/")
	return Metadata{
		Issuer:        issuer,
		JWKSURI:       issuer + "/jwks",
		TokenEndpoint: issuer + "/token",
		// REQUIRED by RFC 8414 §2; empty, as there is no authorization
		// endpoint to send a response type to.
		ResponseTypesSupported: []string{},
		// Named, as its absence would mean "authorization_code" and
		// "implicit" (RFC 8414 §2), which are not served.
		GrantTypesSupported:               []string{GrantType},
		TokenEndpointAuthMethodsSupported: []string{AuthMethodAPIKey},
	}
}

// ServeHTTP answers the metadata as JSON (RFC 8414 §3.2), cacheable for
// an hour.
func (m Metadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := json.Marshal(m)
	if err != nil {
		http.Error(w, "metadata", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Write(append(body, '\n'))
}

// MetadataPath returns the path at which RFC 8414 §3.1 puts the metadata
// of issuer: the well-known segment between the host and the issuer's
// path, e.g. "/.well-known/oauth-authorization-server/auth" for
// "https://app.example.com/auth". Mount NewMetadata(issuer) there, on the
// application's own mux: it is outside the handler's base path.
func MetadataPath(issuer string) string {
	_, rest, _ := strings.Cut(issuer, "://")
	_, path, _ := strings.Cut(rest, "/")
	return WellKnownPath + strings.TrimSuffix("/"+path, "/")
}
