package tokensource

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/site"
)

// ForRequest returns the token source of the user signed in on r at the
// provider id, p (the root package's Handler.TokenSource): with an
// adapter, the stored account of the session's user at p; with the JWT strategy and no
// adapter, the tokens KeepTokens kept in the session cookie, a refresh
// rewriting the cookie on w.
func (rf *Refresher) ForRequest(ctx context.Context, m *sessions.Manager, w http.ResponseWriter, r *http.Request, b *site.Base, id string, p *rp.Provider, minValidity time.Duration) (oauth2.TokenSource, error) {
	if a := rf.Adapter; a != nil {
		uid, _, err := m.Current(ctx, r, b)
		if err != nil {
			return nil, autherr.New(autherr.AdapterError, "adapter", id, "tokens", err)
		}
		if uid == "" {
			return nil, SignInAgain(id, "no_session", "nobody is signed in")
		}
		list, err := a.ListAccounts(ctx, uid)
		if err != nil {
			return nil, autherr.New(autherr.AdapterError, "adapter", id, "tokens", err)
		}
		for _, acct := range list {
			if acct.Provider == id {
				return rf.Source(ctx, p, acct, minValidity, nil, nil), nil
			}
		}
		return nil, SignInAgain(id, "no_account", "the user has no account at this provider")
	}

	t, ok := m.Token(r, b)
	if !ok {
		return nil, SignInAgain(id, "no_session", "nobody is signed in")
	}
	if t.Provider != id {
		return nil, SignInAgain(id, "no_account", "the user signed in with another provider")
	}
	k, ok := KeptIn(t.Extra)
	if !ok || k.Provider != id {
		return nil, autherr.New(autherr.Configuration, "tokens_not_kept", id, "tokens", errors.New("the session holds no provider tokens: with the JWT strategy and no adapter, set Callbacks.JWT to KeepTokens"))
	}
	if w == nil {
		return nil, autherr.New(autherr.Configuration, "no_response_writer", id, "tokens", errors.New("TokenSource needs the ResponseWriter with the JWT strategy, to save refreshed tokens in the session cookie"))
	}
	acct := account.Account{Provider: id, ProviderAccountID: strings.TrimPrefix(t.Subject, id+":"), TokenSet: k.TokenSet()}
	return rf.Source(ctx, p, acct, minValidity, &cookieSink{m: m, w: w, r: r, b: b}, k.IDRef), nil
}

// cookieSink writes refreshed tokens into the JWT session cookie.
type cookieSink struct {
	m *sessions.Manager
	w http.ResponseWriter
	r *http.Request
	b *site.Base
}

func (c *cookieSink) Save(provider string, ts account.TokenSet, ref *rp.IDRef) error {
	t, ok := c.m.Token(c.r, c.b)
	if !ok {
		return errors.New("the session cookie does not open")
	}
	t.Extra = Keep(t.Extra, provider, ts, ref)
	return c.m.Rewrite(c.w, c.r, c.b, t)
}
