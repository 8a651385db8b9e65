package rp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"golang.org/x/oauth2"
)

// Refresh makes one refresh_token grant request (RFC 6749 §6) and returns
// the new token set, reduced by the provider's account callback. A refresh
// token the provider does not replace is kept (§6: the client keeps the
// old one), as is the ID token of the sign-in when no new one comes.
func (p *Provider) Refresh(ctx context.Context, e *Endpoints, old account.TokenSet, ref *IDRef) (account.TokenSet, error) {
	c := p.cfg
	conf := &oauth2.Config{
		ClientID:     c.ClientID,
		ClientSecret: c.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: e.Token, AuthStyle: authStyle(c.Client.TokenEndpointAuthMethod)},
	}
	rec := &recordingClient{base: p.endpointClient(e, e.Token)} // client assertion, DPoP: clientauth.go
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: rec, Timeout: rec.base.Timeout, CheckRedirect: rec.base.CheckRedirect})
	tok, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: old.RefreshToken}).Token()
	if err != nil {
		te := autherr.Wrap(tokenError(c.ID, err), autherr.TokenExchangeFailed, "failed", c.ID, "refresh")
		te.Step = "refresh"
		if te.Code == "invalid_grant" {
			te.Type = autherr.SessionRequired
			te.Err = fmt.Errorf("%w: the provider refused the refresh token: %w", autherr.ErrSignInAgain, err)
		}
		return account.TokenSet{}, te
	}
	var t account.TokenSet
	if json.Unmarshal(rec.body, &t) != nil || t.AccessToken != tok.AccessToken {
		t = account.TokenSet{AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType, ExpiresIn: tok.ExpiresIn}
		if t.ExpiresIn == 0 && !tok.Expiry.IsZero() {
			t.ExpiresAt = tok.Expiry.Unix()
		}
	}
	if err := p.checkTokenType(t, "refresh"); err != nil {
		return account.TokenSet{}, err
	}
	t.Normalize(time.Now())
	if ref == nil {
		ref = IDRefOf(old.IDToken)
	}
	if err := p.checkRefreshedIDToken(ctx, e, ref, t); err != nil { // OIDC Core §12.2: refresh_idtoken.go
		return account.TokenSet{}, err
	}
	reduced, err := account.Reduce(ctx, c.Account, t)
	if err != nil {
		return account.TokenSet{}, autherr.New(autherr.CallbackRouteError, "account_callback", c.ID, "refresh", err)
	}
	if reduced.RefreshToken == "" {
		reduced.RefreshToken = old.RefreshToken
	}
	if reduced.IDToken == "" {
		reduced.IDToken = old.IDToken
	}
	return reduced, nil
}

// RefreshKey names one refresh grant: the same refresh token for the same
// client at the same token endpoint. Hashed, so that the tables below hold
// no refresh token as a key.
func RefreshKey(tokenURL, clientID, refreshToken string) string {
	sum := sha256.Sum256([]byte(tokenURL + "\x00" + clientID + "\x00" + refreshToken))
	return hex.EncodeToString(sum[:])
}

// Timings of the refresh table.
const (
	// refreshTimeout bounds a refresh and the save after it. A refresh
	// runs to its end even when the request that started it is gone, so
	// that rotated tokens are not lost half-way.
	refreshTimeout = 30 * time.Second
	// refreshGrace is how long the result of a refresh answers callers
	// that still present the refresh token it replaced.
	refreshGrace = 30 * time.Second
	// maxRecentRefreshes bounds the results kept for refreshGrace.
	maxRecentRefreshes = 4096
)

// NewRefreshGroup makes a Handler's table of refresh grants in flight and
// just made, keyed by the grant itself (refreshKey). It lives on the
// Handler (no global state); Handlers in other processes share refreshed
// tokens through the adapter, not through this table.
func NewRefreshGroup() *RefreshGroup {
	return &RefreshGroup{calls: map[string]*refreshCall{}, recent: bounded.New[string, account.TokenSet](maxRecentRefreshes)}
}

// RefreshGroup is a table of refresh grants in flight and just made
// (NewRefreshGroup).
type RefreshGroup struct {
	mu     sync.Mutex
	calls  map[string]*refreshCall
	recent *bounded.Map[string, account.TokenSet] // results, for refreshGrace
}

type refreshCall struct {
	done chan struct{}
	ts   account.TokenSet
	err  error
}

// Do returns the result of fn for key, calling fn once for all the
// callers that arrive while it runs, and answering later callers with its
// result for refreshGrace. fn runs with a context that keeps ctx's values
// but not its cancellation; a caller whose ctx ends stops waiting.
func (g *RefreshGroup) Do(ctx context.Context, key string, fn func(context.Context) (account.TokenSet, error)) (account.TokenSet, error) {
	now := time.Now()
	g.mu.Lock()
	if ts, ok := g.recent.Get(key, now); ok {
		g.mu.Unlock()
		return ts, nil
	}
	c, ok := g.calls[key]
	if !ok {
		c = &refreshCall{done: make(chan struct{})}
		g.calls[key] = c
		go g.run(ctx, key, c, fn)
	}
	g.mu.Unlock()
	select {
	case <-c.done:
		return c.ts, c.err
	case <-ctx.Done():
		return account.TokenSet{}, ctx.Err()
	}
}

func (g *RefreshGroup) run(ctx context.Context, key string, c *refreshCall, fn func(context.Context) (account.TokenSet, error)) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refreshTimeout)
	defer cancel()
	c.ts, c.err = fn(ctx)
	now := time.Now()
	g.mu.Lock()
	delete(g.calls, key)
	if c.err == nil {
		g.recent.Set(key, c.ts, now.Add(refreshGrace), now)
	}
	g.mu.Unlock()
	close(c.done)
}
