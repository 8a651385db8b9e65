// Package rp is Gatehouse's OAuth 2.0 and OpenID Connect relying-party
// client, one Provider per configured provider. It knows nothing of
// cookies, sessions or pages: it turns a provider's configuration into
// requests and checks the answers.
//
//	discovery.go       metadata discovery, cached, issuer checked exactly (Endpoints)
//	keyset.go          the provider's JWKS: cached, refetch budget, key/alg fit
//	idtoken.go         ID token verification: one small function per claim
//	logouttoken.go     back-channel logout tokens, jti replay cache
//	authrequest.go     the authorization request, built once per provider
//	par.go             pushed authorization requests (RFC 9126)
//	clientauth.go      client_secret_jwt / private_key_jwt (RFC 7523)
//	dpop.go            DPoP proofs and nonces (RFC 9449), API clients
//	exchange.go        code exchange, token type checks, userinfo
//	refresh.go         refresh grants, one per rotation (single flight)
//	refresh_idtoken.go ID tokens in refresh answers (OIDC Core §12.2)
//	httpclient.go      the bounded HTTP client for every provider call
//
// Errors are *autherr.Error (gatehouse.Error) with the step and a stable
// code; checks run cheapest first, the signature before any claim is
// trusted.
package rp
