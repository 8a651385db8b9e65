package gatehouse

// Tokens for calling provider APIs on behalf of the signed-in user: the
// access token, renewed with the refresh token when it has expired, the
// rotated tokens saved (Auth.js refreshes none).

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/tokensource"
	"github.com/go-jose/go-jose/v4"
)

// ErrSignInAgain is wrapped by the TokenSource errors that only a new
// sign-in can fix: nobody is signed in, the user has no account at the
// provider, the provider refused the refresh token (invalid_grant: revoked,
// expired or already used), or the access token expired and there is no
// refresh token. Those errors are also of type SessionRequired. Other
// failures (the provider or the database is down) are not: retry later.
//
//	if errors.Is(err, gatehouse.ErrSignInAgain) {
//		http.Redirect(w, r, "/auth/signin?callbackUrl=/reports", http.StatusFound)
//	}
var ErrSignInAgain = autherr.ErrSignInAgain

// DefaultMinValidity is how long an access token must still be valid for a
// TokenSource to hand it out without refreshing it first.
const DefaultMinValidity = time.Minute

// TokenOption changes how a TokenSource works.
type TokenOption func(*tokenOptions)

type tokenOptions struct {
	minValidity time.Duration
}

// MinValidity makes the TokenSource refresh an access token that expires
// within d (DefaultMinValidity when not given), for example to make sure a
// long batch of API calls does not outlive it. A token that has just come
// from the provider is used even when its lifetime is shorter than d.
func MinValidity(d time.Duration) TokenOption {
	return func(o *tokenOptions) { o.minValidity = d }
}

// KeepTokens is a JWT callback that keeps the provider's access and
// refresh tokens in the encrypted session cookie at sign-in, so that
// TokenSource works with the JWT strategy and no adapter. It then calls
// next (when not nil) with the token it made; next must return a token
// that keeps the claim "provider_tokens" for TokenSource to keep working.
//
//	Callbacks: gatehouse.Callbacks{JWT: gatehouse.KeepTokens(nil)},
//
// With an Adapter, tokens are stored on the account and KeepTokens is not
// needed. The tokens make the cookie larger (it is split in chunks when
// needed), and they are never shown by GET {base}/session unless a Session
// callback copies them there.
func KeepTokens(next func(ctx context.Context, p JWTParams) (*Token, error)) func(ctx context.Context, p JWTParams) (*Token, error) {
	return func(ctx context.Context, p JWTParams) (*Token, error) {
		if p.Account != nil && (p.Trigger == "signIn" || p.Trigger == "signUp") {
			p.Token.Extra = tokensource.Keep(p.Token.Extra, p.Account.Provider, p.Account.TokenSet, rp.IDRefOf(p.Account.IDToken))
		}
		if next == nil {
			t := p.Token
			return &t, nil
		}
		return next(ctx, p)
	}
}

// TokenSource returns the access token of the user signed in on r at the
// provider providerID, as an oauth2.TokenSource for oauth2.NewClient or any
// API client that takes one. The token source hands out the stored token
// while it is valid and, once it has expired, refreshes it with the
// provider's token endpoint (RFC 6749 §6) and saves what comes back, the
// rotated refresh token included:
//
//   - with an Adapter, the tokens are those of the user's account at the
//     provider, kept current at every sign-in and saved with
//     adapter.UpdateAccount after every refresh;
//   - with the JWT strategy and no adapter, they are kept in the session
//     cookie when the JWT callback is KeepTokens, and a refresh writes the
//     new cookie to w. Call Token before writing the response's header
//     or body; w may be nil with an adapter.
//
// Concurrent refreshes of one refresh token in this process make one
// request to the provider; the others wait for its answer, and requests
// that still carry the old refresh token shortly afterwards (a JWT cookie
// the browser has not replaced yet) get the new tokens too. Across
// processes, an adapter is the place where the tokens are shared: a
// refresh first reads the stored account, so one process uses what
// another has just saved.
//
// A DPoP-bound token (Client.DPoPBoundAccessTokens) has type "DPoP" and
// is useless without a proof of the Handler's key: call such APIs with
// Handler.Client, not oauth2.NewClient.
//
// Errors that wrap ErrSignInAgain (and are of type SessionRequired) mean
// the user must sign in again; other errors are of type
// TokenExchangeFailed, AdapterError, UnknownProvider or Configuration. The
// token source uses ctx for its requests; it is safe for concurrent use.
func (h *Handler) TokenSource(ctx context.Context, w http.ResponseWriter, r *http.Request, providerID string, opts ...TokenOption) (oauth2.TokenSource, error) {
	p, ok := h.oauthProvider(providerID)
	if !ok {
		return nil, autherr.New(UnknownProvider, "unknown_provider", providerID, "tokens", fmt.Errorf("no provider %q", providerID))
	}
	o := tokenOptions{minValidity: DefaultMinValidity}
	for _, opt := range opts {
		opt(&o)
	}
	return h.tokens.ForRequest(ctx, h.sessions, w, r, h.baseFor(r), providerID, p, o.minValidity)
}

// Client returns an HTTP client that calls the APIs of the provider
// providerID as the user signed in on r. Every request carries the access
// token of TokenSource (refreshed when needed, as TokenSource explains):
// a DPoP-bound token (Client.DPoPBoundAccessTokens) as "Authorization:
// DPoP" with a new proof for the request (RFC 9449 §7), retried once
// when the API asks for a DPoP nonce; any other token as a Bearer token.
// Use it rather than oauth2.NewClient(ctx, tokenSource), which cannot
// make DPoP proofs.
//
// The client has the timeouts of Config.HTTPClient and does not follow
// redirects. Arguments and errors are those of TokenSource; a failure to
// get a token is returned by the client's Do, wrapped in a *url.Error.
func (h *Handler) Client(ctx context.Context, w http.ResponseWriter, r *http.Request, providerID string, opts ...TokenOption) (*http.Client, error) {
	ts, err := h.TokenSource(ctx, w, r, providerID, opts...)
	if err != nil {
		return nil, err
	}
	p, _ := h.oauthProvider(providerID)
	return p.TokenClient(ts), nil
}

// ClientJWKS returns the public keys of the provider's Client.JWKS (all of
// them: the signing key and the older ones), to serve as the client's
// jwks_uri for private_key_jwt. It is empty for an unknown provider or one
// without keys.
//
//	mux.HandleFunc("/jwks.json", func(w http.ResponseWriter, r *http.Request) {
//		json.NewEncoder(w).Encode(h.ClientJWKS("corp"))
//	})
func (h *Handler) ClientJWKS(providerID string) jose.JSONWebKeySet {
	p, ok := h.oauthProvider(providerID)
	if !ok {
		return jose.JSONWebKeySet{}
	}
	return rp.ClientJWKS(p.Config().Client)
}
