// Package emailflow is the e-mail (magic link) sign-in, top to bottom:
// SignIn sends the link, Callback signs in whoever follows it.
//
// What each step defends against:
//   - account enumeration: the answer to the form (status, location,
//     body, cookies) does not depend on whether a user has the address;
//     both cases look the user up, store a token and send a message. A
//     SignIn callback that refuses at this point makes no message, with the
//     same answer.
//   - token theft from the database: only an HMAC of the token, keyed from
//     the secret, is stored (Auth.js: sha256(token+secret)).
//   - replay: the adapter deletes the token as it returns it, atomically,
//     so a link works once; an expired one fails even though found.
//   - guessing: tokens are 256 random bits; the stored hash is compared in
//     constant time.
//   - mail flooding: links asked for are counted per client address and
//     per e-mail address (email.Config.PerIP, PerIdentifier); past a
//     limit the answer is 429 with Retry-After.
//   - link poisoning: links are built on Config.URL, which an e-mail
//     provider requires, never on the request's Host header.
//   - leaking the link: the callback answers with Referrer-Policy:
//     no-referrer and Cache-Control: no-store and redirects at once; no log
//     line contains the token or the address.
package emailflow

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/linktoken"
	"github.com/gatehouse-auth/gatehouse/internal/logclip"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Host is what the flow needs of the Handler, per request. The
// *finish.Finisher implements it (internal/finish, and internal/site's
// Site, which it embeds), where each method is documented.
type Host interface {
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	TooManyAttempts(w http.ResponseWriter, r *http.Request, provider string, wait time.Duration)
	CallbackURL(r *http.Request, raw string) string
	URL(r *http.Request, parts ...string) string
	Origin(r *http.Request) string
	FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error
	// Lang returns the language of r's pages, that of the message too.
	Lang(r *http.Request) pages.Language
}

// Provider is what the flow needs of an e-mail provider's configuration
// (email.Config, prepared).
type Provider struct {
	ID, Name string
	// MaxAge is how long a link works.
	MaxAge time.Duration
	// PerIP and PerIdentifier count the links asked for per client
	// address (ClientIP's) and per e-mail address.
	PerIP, PerIdentifier limit.Limiter
	ClientIP             func(r *http.Request) string
	// Normalize normalises and checks a typed address; NewToken makes a
	// link's token.
	Normalize func(address string) (string, error)
	NewToken  func() (string, error)
	// Send sends the link: to identifier, the URL, working until expires,
	// for the site on host, asked for by r, in the language lang (a BCP 47
	// tag: that of the pages r is answered with).
	Send func(ctx context.Context, r *http.Request, identifier, url, host, lang string, expires time.Time) error
}

// Config is one e-mail provider, checked, with what its flow needs of
// the Handler's configuration.
type Config struct {
	Provider Provider
	Tokens   *linktoken.Tokens // hashes and uses up the links' tokens
	Adapter  adapter.Adapter
	Logger   *slog.Logger
	// Allow is the application's SignIn callback asked before a link is
	// sent (Auth.js: signIn with email.verificationRequest); nil allows.
	Allow func(ctx context.Context, user profile.User, acct *account.Account, r *http.Request) (bool, error)
	// BasePath is the routes' path, e.g. /auth; VerifyRequestPage the
	// application's own "check your e-mail" page (Pages.VerifyRequest),
	// "" for the built-in one.
	BasePath, VerifyRequestPage string
}

// Flow is one e-mail provider's sign-in.
type Flow struct {
	cfg  Config
	host Host
}

// Info returns the provider's id, name and type.
func (f *Flow) Info() providers.Base {
	return providers.Base{ID: f.cfg.Provider.ID, Name: f.cfg.Provider.Name, Type: providers.TypeEmail}
}

// CrossSiteCallback: the link is followed with a GET.
func (*Flow) CrossSiteCallback() bool { return false }

// Way reports an e-mail link as a way to sign in besides linked
// accounts, when the user's address was proven (a link to an unproven
// address makes its owner a user of their own: accountlink.Claim).
func (f *Flow) Way(_ context.Context, _ string, stored func() (adapter.User, error)) (string, int, error) {
	u, err := stored()
	if err != nil || u.Email == "" || u.EmailVerified == nil {
		return "", 0, err
	}
	return "Email link", 1, nil
}

// AddTo puts the provider's form on the built-in sign-in page.
func (f *Flow) AddTo(page *pages.SignIn, p providers.AppProvider, _ *site.Base) {
	page.Forms = append(page.Forms, pages.EmailForm{ID: p.ID, Name: p.Name, SigninURL: p.SigninURL})
}

// Form renders the signIn template helper's form: one address input.
func (f *Flow) Form(path string, o pages.HelperForm) template.HTML {
	c := f.cfg.Provider
	o.Action, o.Name = path+"/signin/"+c.ID, c.Name
	return o.Email()
}

// New returns the flow of cfg.
func New(cfg Config, host Host) *Flow { return &Flow{cfg: cfg, host: host} }

// SignIn answers POST {base}/signin/{id}: a token is stored and the link
// sent.
func (f *Flow) SignIn(w http.ResponseWriter, r *http.Request, form url.Values) {
	ctx := r.Context()
	// The store calls are bounded; the application's callback and the
	// message's sending keep the request's own context.
	store, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	c, h := f.cfg.Provider, f.host
	fail := func(t autherr.Type, code string, err error) {
		h.Fail(w, r, autherr.New(t, code, c.ID, "signin", err))
	}

	// 1. The address, normalised; a malformed one is the one answer that
	// differs, and it depends only on what was typed.
	addr, err := c.Normalize(form.Get("email"))
	if err != nil {
		fail(autherr.EmailSignInError, "invalid_email", err)
		return
	}

	// 2. The send limits, per client and per address, the same for known
	// and unknown addresses: every accepted request counts, reserved
	// atomically before anything is sent. The address is counted under
	// limit.IdentifierKey, so case, Unicode forms and +tags of one
	// mailbox share one count. Any limiter error refuses.
	wait, err := limit.ReserveAll(store,
		limit.Attempt{Limiter: c.PerIP, Key: "ip:" + limit.IPKey(c.ClientIP(r))},
		limit.Attempt{Limiter: c.PerIdentifier, Key: "id:" + c.ID + ":" + limit.IdentifierKey(addr)})
	if err != nil {
		fail(autherr.EmailSignin, "limiter", err)
		return
	}
	if wait > 0 {
		h.TooManyAttempts(w, r, c.ID, wait)
		return
	}

	// 3. The application's say, before anything is sent (Auth.js:
	// signIn with email.verificationRequest). A refusal sends nothing but
	// answers as a success would: the form must not tell who may sign in.
	user := profile.User{Email: addr}
	if stored, err := f.cfg.Adapter.GetUserByEmail(store, addr); err == nil {
		user = accountlink.ToProfile(stored)
	} else if !errors.Is(err, adapter.ErrNotFound) {
		fail(autherr.AdapterError, "adapter", err)
		return
	}
	acct := &account.Account{Type: account.TypeEmail, Provider: c.ID, ProviderAccountID: addr}
	send := true
	if cb := f.cfg.Allow; cb != nil {
		allow, err := cb(ctx, user, acct, r)
		if err != nil {
			fail(autherr.AccessDenied, "signin_callback", err)
			return
		}
		if !allow {
			f.cfg.Logger.Info("gatehouse: the SignIn callback refused an e-mail sign-in; no link sent", "provider", c.ID)
			send = false
		}
	}

	// 4. The token: random, stored only as its keyed hash, with an expiry.
	if send {
		token, err := c.NewToken()
		if err != nil {
			fail(autherr.EmailSignin, "token", err)
			return
		}
		expires := time.Now().Add(c.MaxAge)
		hash := f.cfg.Tokens.Hash(token)
		if err := f.cfg.Adapter.CreateVerificationToken(store, adapter.VerificationToken{Identifier: addr, TokenHash: hash, Expires: expires}); err != nil {
			fail(autherr.AdapterError, "adapter", err)
			return
		}
		q := url.Values{"callbackUrl": {h.CallbackURL(r, form.Get("callbackUrl"))}, "token": {token}, "email": {addr}}
		u, _ := url.Parse(h.Origin(r))
		link := h.URL(r, "callback", c.ID) + "?" + q.Encode()
		// 5. The message. A failure removes the token: no link works that
		// nobody received. The error is logged, never the link nor the
		// address, which a sender's error may repeat.
		if err := c.Send(ctx, r, addr, link, u.Host, h.Lang(r).Tag, expires); err != nil {
			undo, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpx.StoreTimeout)
			_, _ = f.cfg.Adapter.UseVerificationToken(undo, addr, hash)
			cancel()
			fail(autherr.EmailSignin, "send_failed", logclip.Scrub(err, link, "[link]", token, "[token]", addr, "[email]"))
			return
		}
	}

	// 6. The same answer for everyone: the verify-request page.
	q := url.Values{"provider": {c.ID}, "type": {"email"}}
	target := f.cfg.BasePath + "/verify-request?" + q.Encode()
	if f.cfg.VerifyRequestPage != "" {
		target = f.cfg.VerifyRequestPage + "?" + q.Encode()
	}
	httpx.Redirect(w, r, target)
}

// Callback answers GET {base}/callback/{id}?token=…&email=…: the token
// is used up, then the user signed in.
func (f *Flow) Callback(w http.ResponseWriter, r *http.Request) {
	if err := f.verify(w, r); err != nil {
		f.host.Fail(w, r, autherr.Wrap(err, autherr.Verification, "failed", f.cfg.Provider.ID, "verification"))
	}
}

func (f *Flow) verify(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c := f.cfg.Provider
	fail := func(t autherr.Type, code string, err error) error {
		return autherr.New(t, code, c.ID, "verification", err)
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return fail(autherr.Verification, "malformed_link", errors.New("the link's query does not parse"))
	}
	token := q.Get("token")
	if token == "" || len(token) > linktoken.MaxTokenLen || len(q["token"]) > 1 || len(q["email"]) > 1 {
		return fail(autherr.Verification, "malformed_link", errors.New("the link has no token, or two"))
	}
	addr, err := c.Normalize(q.Get("email"))
	if err != nil {
		return fail(autherr.Verification, "malformed_link", err)
	}

	// The token, used up whatever happens next, under any rotated secret,
	// and checked again in constant time (linktoken.Tokens.Use).
	store, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	switch err := f.cfg.Tokens.Use(store, f.cfg.Adapter, addr, token); {
	case errors.Is(err, linktoken.ErrTokenUnknown):
		return fail(autherr.Verification, "invalid_token", err)
	case errors.Is(err, linktoken.ErrTokenExpired):
		return fail(autherr.Verification, "expired", err)
	case err != nil:
		return fail(autherr.AdapterError, "adapter", err)
	}

	now := time.Now()
	user := profile.User{ID: addr, Email: addr, EmailVerified: &now}
	acct := &account.Account{Type: account.TypeEmail, Provider: c.ID, ProviderAccountID: addr}
	return f.host.FinishSignIn(w, r, signin.Result{User: user, Account: acct, CallbackURL: q.Get("callbackUrl"), Unbound: true})
}
