// Package tokensource hands out the access token of a signed-in user's
// account at a provider, renewed with the refresh token when it has
// expired (RFC 6749 §6), the rotated tokens saved (Auth.js keeps neither
// fresh):
//
//   - with an adapter, in the stored account, under the adapter's account
//     lock when it has one, so that one process refreshes a rotation and
//     the others read what it saved (RFC 9700 §4.14.2: a rotated refresh
//     token presented twice makes some providers revoke the grant);
//   - with the JWT strategy and no adapter, through a Sink that writes the
//     session cookie (the root package's KeepTokens claim, Kept here).
//
// Within one process, refreshes of one refresh token are made once
// (rp.RefreshGroup). ForRequest finds a request's account through the
// session (internal/sessions); the rest knows nothing of requests.
package tokensource

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
)

// Refresher refreshes accounts' tokens. The zero value is not usable: set
// Flights and Logger.
type Refresher struct {
	// Adapter stores the accounts; nil with the JWT strategy.
	Adapter adapter.Adapter
	// Flights makes concurrent refreshes of one refresh token one request.
	Flights *rp.RefreshGroup
	// Logger receives the failures no caller sees (a save that failed).
	Logger *slog.Logger
	// OnRefresh, when set, is told of every refresh grant sent.
	OnRefresh func(ctx context.Context, provider string, err error)
}

// Sink saves refreshed tokens where the account's tokens came from when
// there is no adapter (the JWT session cookie).
type Sink interface {
	Save(provider string, ts account.TokenSet, ref *rp.IDRef) error
}

// SignInAgain is the error of a token only a new sign-in can give: it
// wraps autherr.ErrSignInAgain and is of type SessionRequired.
func SignInAgain(provider, code, why string) *autherr.Error {
	return autherr.New(autherr.SessionRequired, code, provider, "tokens", fmt.Errorf("%w: %s", autherr.ErrSignInAgain, why))
}

// freshLeeway is the margin kept on a token fresh from the provider, as
// x/oauth2 keeps on every token.
const freshLeeway = 10 * time.Second

func usable(t account.TokenSet, leeway time.Duration) bool {
	return t.AccessToken != "" && (t.ExpiresAt == 0 || time.Now().Add(leeway).Before(t.Expiry()))
}

// Source is an oauth2.TokenSource of one account, safe for concurrent use.
type Source struct {
	r           *Refresher
	p           *rp.Provider
	ctx         context.Context
	minValidity time.Duration
	sink        Sink      // no adapter: where refreshed tokens go
	ref         *rp.IDRef // no adapter: the sign-in's ID token claims (OIDC Core §12.2)

	mu        sync.Mutex
	acct      account.Account
	refreshed bool // acct holds tokens fresh from a refresh
}

// Source returns the token source of acct at p. It hands out a token
// valid for minValidity more, refreshing it first when needed (a token
// fresh from the provider is used even when its lifetime is shorter).
// sink and ref are for the JWT strategy; both nil with an adapter.
func (r *Refresher) Source(ctx context.Context, p *rp.Provider, acct account.Account, minValidity time.Duration, sink Sink, ref *rp.IDRef) *Source {
	return &Source{r: r, p: p, ctx: ctx, minValidity: minValidity, sink: sink, ref: ref, acct: acct}
}

// Token returns a valid access token, refreshing it when needed.
func (s *Source) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	prov := s.p.Config().ID
	leeway := s.minValidity
	if s.refreshed {
		leeway = min(leeway, freshLeeway)
	}
	if !usable(s.acct.TokenSet, leeway) {
		if s.acct.RefreshToken == "" {
			return nil, SignInAgain(prov, "no_refresh_token", "the access token has expired and there is no refresh token")
		}
		ts, err := s.r.Refresh(s.ctx, s.p, s.acct, s.ref)
		if err != nil {
			return nil, err
		}
		s.acct.TokenSet, s.refreshed = ts, true
		if s.sink != nil {
			if err := s.sink.Save(prov, ts, s.ref); err != nil {
				// The access token is good; the refresh token may be lost,
				// which the next refresh reports as ErrSignInAgain.
				s.r.Logger.Error("gatehouse: saving refreshed tokens in the session cookie failed", "provider", prov, "step", "refresh", "err", err)
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

// Refresh returns fresh tokens for acct: from another process that has
// just refreshed them (adapter), from a refresh in flight or just made in
// this process, or from the provider. With an adapter, the new tokens are
// saved before they are returned.
func (r *Refresher) Refresh(ctx context.Context, p *rp.Provider, acct account.Account, ref *rp.IDRef) (account.TokenSet, error) {
	prov := p.Config().ID
	e, err := p.Endpoints(ctx)
	if err != nil {
		return account.TokenSet{}, autherr.New(autherr.ProviderUnavailable, "discovery", prov, "refresh", err)
	}
	if e.Token == "" {
		return account.TokenSet{}, autherr.New(autherr.TokenExchangeFailed, "no_token_endpoint", prov, "refresh", errors.New("the provider has no token endpoint URL to refresh with"))
	}
	grant := func(ctx context.Context, old account.TokenSet, ref *rp.IDRef) (account.TokenSet, error) {
		ts, err := p.Refresh(ctx, e, old, ref)
		if r.OnRefresh != nil {
			r.OnRefresh(ctx, prov, err)
		}
		if err != nil {
			r.Logger.Error("gatehouse: refreshing tokens failed", "provider", prov, "step", "refresh", "err", err)
		}
		return ts, err
	}
	key := rp.RefreshKey(e.Token, p.Config().ClientID, acct.RefreshToken)
	return r.Flights.Do(ctx, key, func(ctx context.Context) (account.TokenSet, error) {
		if r.Adapter == nil {
			return grant(ctx, acct.TokenSet, ref)
		}
		return r.refreshStored(ctx, prov, acct, grant)
	})
}

// refreshStored refreshes the stored account acct: the account is read
// again (under the adapter's lock when it has one, adapter.AccountLocker)
// and the provider asked only if no other process has just refreshed.
func (r *Refresher) refreshStored(ctx context.Context, prov string, acct account.Account, grant func(context.Context, account.TokenSet, *rp.IDRef) (account.TokenSet, error)) (account.TokenSet, error) {
	a := r.Adapter
	var ts account.TokenSet
	refresh := func(ctx context.Context) error {
		cur, err := a.GetAccount(ctx, acct.Provider, acct.ProviderAccountID)
		switch {
		case errors.Is(err, adapter.ErrNotFound):
			return SignInAgain(prov, "no_account", "the account was unlinked")
		case err != nil:
			return autherr.New(autherr.AdapterError, "adapter", prov, "refresh", err)
		}
		if (cur.AccessToken != acct.AccessToken || cur.RefreshToken != acct.RefreshToken) && usable(cur.TokenSet, freshLeeway) {
			ts = cur.TokenSet // refreshed by another process meanwhile
			return nil
		}
		if cur.RefreshToken == "" {
			return SignInAgain(prov, "no_refresh_token", "the access token has expired and there is no refresh token")
		}
		fresh, err := grant(ctx, cur.TokenSet, rp.IDRefOf(cur.IDToken))
		if err != nil {
			return err
		}
		cur.TokenSet = fresh
		if err := a.UpdateAccount(ctx, cur); err != nil {
			// The tokens are good for this caller and, for a while, for
			// this process; the next process to refresh will present the
			// old refresh token.
			r.Logger.Error("gatehouse: saving refreshed tokens failed", "provider", prov, "step", "refresh", "err", err)
		}
		ts = fresh
		return nil
	}
	if l, ok := a.(adapter.AccountLocker); ok {
		if err := l.LockAccount(ctx, acct.Provider, acct.ProviderAccountID, refresh); err != nil {
			var ge *autherr.Error
			if !errors.As(err, &ge) {
				err = autherr.New(autherr.AdapterError, "adapter", prov, "refresh", err)
			}
			return account.TokenSet{}, err
		}
		return ts, nil
	}
	// No shared lock: single-flight in this process only. A refusal may
	// mean another process rotated the token meanwhile: its tokens are
	// used if they are there (the refusal is logged either way).
	err := refresh(ctx)
	if errors.Is(err, autherr.ErrSignInAgain) {
		if again, gerr := a.GetAccount(ctx, acct.Provider, acct.ProviderAccountID); gerr == nil &&
			again.RefreshToken != acct.RefreshToken && usable(again.TokenSet, freshLeeway) {
			return again.TokenSet, nil
		}
	}
	return ts, err
}
