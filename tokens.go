package gatehouse

// Tokens for calling provider APIs on behalf of the signed-in user: the
// access token, renewed with the refresh token when it has expired, the
// rotated tokens saved (authjs.md §11.2 items 1–2).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
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

// keptTokensClaim is the session token claim KeepTokens writes.
const keptTokensClaim = "provider_tokens"

// keptTokens is what the JWT strategy keeps of an account's tokens in the
// session cookie: enough to call and refresh, not the ID token (cookies
// stay small, authjs.md §11.2 item 9).
type keptTokens struct {
	Provider     string `json:"provider"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
	ExpiresAt    int64  `json:"expires_at,omitempty"`
	TokenType    string `json:"token_type,omitempty"`
	Scope        string `json:"scope,omitempty"`
	// IDRef holds the sign-in's ID token claims that a refreshed ID
	// token must repeat (OIDC Core §12.2): internal/rp.
	IDRef *rp.IDRef `json:"id_ref,omitempty"`
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
			setKeptTokens(&p.Token, p.Account.Provider, p.Account.TokenSet, rp.IDRefOf(p.Account.IDToken))
		}
		if next == nil {
			t := p.Token
			return &t, nil
		}
		return next(ctx, p)
	}
}

func setKeptTokens(t *Token, provider string, ts account.TokenSet, ref *rp.IDRef) {
	extra := make(map[string]any, len(t.Extra)+1)
	for k, v := range t.Extra {
		extra[k] = v
	}
	extra[keptTokensClaim] = keptTokens{Provider: provider, AccessToken: ts.AccessToken, RefreshToken: ts.RefreshToken,
		ExpiresAt: ts.ExpiresAt, TokenType: ts.TokenType, Scope: ts.Scope, IDRef: ref}
	t.Extra = extra
}

func keptTokensOf(t Token) (keptTokens, bool) {
	v, ok := t.Extra[keptTokensClaim]
	if !ok {
		return keptTokens{}, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return keptTokens{}, false
	}
	var k keptTokens
	if json.Unmarshal(raw, &k) != nil || k.AccessToken == "" {
		return keptTokens{}, false
	}
	return k, true
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
	b := h.baseFor(r)
	s := &tokenSource{h: h, p: p, ctx: ctx, minValidity: o.minValidity}
	if a := h.cfg.Adapter; a != nil {
		uid, err := h.currentUserID(ctx, r, b)
		if err != nil {
			return nil, autherr.New(AdapterError, "adapter", providerID, "tokens", err)
		}
		if uid == "" {
			return nil, signInAgain(providerID, "no_session", "nobody is signed in")
		}
		list, err := a.ListAccounts(ctx, uid)
		if err != nil {
			return nil, autherr.New(AdapterError, "adapter", providerID, "tokens", err)
		}
		for _, acct := range list {
			if acct.Provider == providerID {
				s.acct = acct
				return s, nil
			}
		}
		return nil, signInAgain(providerID, "no_account", "the user has no account at this provider")
	}

	raw, _ := sessioncookie.ReadChunked(r, b.cookies.Session)
	t, err := h.sessions[b.cookies.Secure].Decode(raw, time.Now())
	if raw == "" || err != nil {
		return nil, signInAgain(providerID, "no_session", "nobody is signed in")
	}
	if t.Provider != providerID {
		return nil, signInAgain(providerID, "no_account", "the user signed in with another provider")
	}
	k, ok := keptTokensOf(t)
	if !ok || k.Provider != providerID {
		return nil, autherr.New(Configuration, "tokens_not_kept", providerID, "tokens", errors.New("the session holds no provider tokens: with the JWT strategy and no adapter, set Callbacks.JWT to KeepTokens"))
	}
	if w == nil {
		return nil, autherr.New(Configuration, "no_response_writer", providerID, "tokens", errors.New("TokenSource needs the ResponseWriter with the JWT strategy, to save refreshed tokens in the session cookie"))
	}
	s.acct = account.Account{Provider: providerID, ProviderAccountID: strings.TrimPrefix(t.Subject, providerID+":"),
		TokenSet: account.TokenSet{AccessToken: k.AccessToken, RefreshToken: k.RefreshToken, ExpiresAt: k.ExpiresAt, TokenType: k.TokenType, Scope: k.Scope}}
	s.ref = k.IDRef
	s.cookie = &cookieSink{h: h, w: w, r: r, b: b}
	return s, nil
}

func signInAgain(provider, code, why string) *Error {
	return autherr.New(SessionRequired, code, provider, "tokens", fmt.Errorf("%w: %s", ErrSignInAgain, why))
}

// tokenSource is what TokenSource returns.
type tokenSource struct {
	h           *Handler
	p           *rp.Provider
	ctx         context.Context
	minValidity time.Duration
	cookie      *cookieSink // JWT strategy: where refreshed tokens go
	ref         *rp.IDRef   // JWT strategy: the sign-in's ID token claims (§12.2)

	mu        sync.Mutex
	acct      account.Account
	refreshed bool // acct holds tokens fresh from a refresh
}

// freshLeeway is the margin kept on a token fresh from the provider, as
// x/oauth2 keeps on every token.
const freshLeeway = 10 * time.Second

func usable(t account.TokenSet, leeway time.Duration) bool {
	return t.AccessToken != "" && (t.ExpiresAt == 0 || time.Now().Add(leeway).Before(t.Expiry()))
}

// Token returns a valid access token, refreshing it when needed.
func (s *tokenSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	leeway := s.minValidity
	if s.refreshed {
		leeway = min(leeway, freshLeeway)
	}
	if !usable(s.acct.TokenSet, leeway) {
		if s.acct.RefreshToken == "" {
			return nil, signInAgain(s.p.Config().ID, "no_refresh_token", "the access token has expired and there is no refresh token")
		}
		ts, err := s.h.refreshAccount(s.ctx, s.p, s.acct, s.ref)
		if err != nil {
			return nil, err
		}
		s.acct.TokenSet, s.refreshed = ts, true
		if s.cookie != nil {
			if err := s.cookie.save(s.p.Config().ID, ts, s.ref); err != nil {
				// The access token is good; the refresh token may be lost,
				// which the next refresh reports as ErrSignInAgain.
				s.h.cfg.Logger.Error("gatehouse: saving refreshed tokens in the session cookie failed", "provider", s.p.Config().ID, "step", "refresh", "err", err)
			}
		}
	}
	t := s.acct.TokenSet
	tok := &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Expiry: t.Expiry()}
	if tok.TokenType == "" {
		tok.TokenType = "Bearer"
	}
	extra := map[string]any{}
	if t.Scope != "" {
		extra["scope"] = t.Scope
	}
	if t.IDToken != "" {
		extra["id_token"] = t.IDToken
	}
	return tok.WithExtra(extra), nil
}

// cookieSink writes refreshed tokens into the JWT session cookie.
type cookieSink struct {
	h *Handler
	w http.ResponseWriter
	r *http.Request
	b *base
}

func (c *cookieSink) save(provider string, ts account.TokenSet, ref *rp.IDRef) error {
	codec := c.h.sessions[c.b.cookies.Secure]
	raw, _ := sessioncookie.ReadChunked(c.r, c.b.cookies.Session)
	t, err := codec.Decode(raw, time.Now())
	if err != nil {
		return err
	}
	setKeptTokens(&t, provider, ts, ref)
	sealed, err := codec.Encode(t)
	if err != nil {
		return err
	}
	c.b.cookies.WriteChunked(c.w, c.r, c.b.cookies.Session, sealed, time.Unix(t.Expires, 0))
	return nil
}

// refreshAccount returns fresh tokens for acct: from another process that
// has just refreshed them (adapter), from a refresh in flight or just made
// in this process, or from the provider. With an adapter, the new tokens
// are saved before they are returned.
func (h *Handler) refreshAccount(ctx context.Context, p *rp.Provider, acct account.Account, ref *rp.IDRef) (account.TokenSet, error) {
	prov := p.Config().ID
	e, err := p.Endpoints(ctx)
	if err != nil {
		return account.TokenSet{}, autherr.New(ProviderUnavailable, "discovery", prov, "refresh", err)
	}
	if e.Token == "" {
		return account.TokenSet{}, autherr.New(TokenExchangeFailed, "no_token_endpoint", prov, "refresh", errors.New("the provider has no token endpoint URL to refresh with"))
	}
	key := rp.RefreshKey(e.Token, p.Config().ClientID, acct.RefreshToken)
	return h.refreshes.Do(ctx, key, func(ctx context.Context) (account.TokenSet, error) {
		a := h.cfg.Adapter
		if a == nil {
			ts, err := p.Refresh(ctx, e, acct.TokenSet, ref)
			h.refreshed(ctx, prov, err)
			if err != nil {
				h.cfg.Logger.Error("gatehouse: refreshing tokens failed", "provider", prov, "step", "refresh", "err", err)
			}
			return ts, err
		}
		// With a lock shared by every process (adapter.AccountLocker), one
		// refresh per rotation: the lock is taken, the stored account read
		// again, and the provider asked only if no other process has just
		// refreshed (RFC 9700 §4.14.2: a rotated refresh token presented
		// twice makes some providers revoke the grant).
		var ts account.TokenSet
		refresh := func(ctx context.Context) error {
			cur, err := a.GetAccount(ctx, acct.Provider, acct.ProviderAccountID)
			switch {
			case errors.Is(err, adapter.ErrNotFound):
				return signInAgain(prov, "no_account", "the account was unlinked")
			case err != nil:
				return autherr.New(AdapterError, "adapter", prov, "refresh", err)
			}
			if (cur.AccessToken != acct.AccessToken || cur.RefreshToken != acct.RefreshToken) && usable(cur.TokenSet, freshLeeway) {
				ts = cur.TokenSet // refreshed by another process meanwhile
				return nil
			}
			if cur.RefreshToken == "" {
				return signInAgain(prov, "no_refresh_token", "the access token has expired and there is no refresh token")
			}
			fresh, err := p.Refresh(ctx, e, cur.TokenSet, rp.IDRefOf(cur.IDToken))
			h.refreshed(ctx, prov, err)
			if err != nil {
				h.cfg.Logger.Error("gatehouse: refreshing tokens failed", "provider", prov, "step", "refresh", "err", err)
				return err
			}
			cur.TokenSet = fresh
			if err := a.UpdateAccount(ctx, cur); err != nil {
				// The tokens are good for this caller and, for a while, for
				// this process; the next process to refresh will present the
				// old refresh token.
				h.cfg.Logger.Error("gatehouse: saving refreshed tokens failed", "provider", prov, "step", "refresh", "err", err)
			}
			ts = fresh
			return nil
		}
		if l, ok := a.(adapter.AccountLocker); ok {
			if err := l.LockAccount(ctx, acct.Provider, acct.ProviderAccountID, refresh); err != nil {
				var ge *Error
				if !errors.As(err, &ge) {
					err = autherr.New(AdapterError, "adapter", prov, "refresh", err)
				}
				return account.TokenSet{}, err
			}
			return ts, nil
		}
		// No shared lock: single-flight in this process only. A refusal may
		// mean another process rotated the token meanwhile: its tokens are
		// used if they are there (the refusal is logged either way).
		err := refresh(ctx)
		if errors.Is(err, ErrSignInAgain) {
			if again, gerr := a.GetAccount(ctx, acct.Provider, acct.ProviderAccountID); gerr == nil &&
				again.RefreshToken != acct.RefreshToken && usable(again.TokenSet, freshLeeway) {
				return again.TokenSet, nil
			}
		}
		return ts, err
	})
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

// refreshed tells Events.Refresh of a refresh grant sent to provider.
func (h *Handler) refreshed(ctx context.Context, provider string, err error) {
	if ev := h.cfg.Events.Refresh; ev != nil {
		ev(ctx, provider, err)
	}
}
