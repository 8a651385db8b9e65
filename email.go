package gatehouse

// The e-mail (magic link) sign-in, top to bottom: emailSignIn sends the
// link, emailCallback signs in whoever follows it.
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

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// emailRuntime is one e-mail provider, ready to use.
type emailRuntime struct {
	cfg    email.Config
	tokens *email.Tokens // hashes and uses up the links' tokens
}

// addEmail checks an e-mail provider and returns its flow.
func (h *Handler) addEmail(c email.Config) (flow, error) {
	c, err := c.Prepare()
	if err != nil {
		return nil, providerConfigError(c.ProviderBase().ID, err)
	}
	// An HTTP API sender without a key takes AUTH_<ID>_KEY, as Auth.js.
	if c.NeedsAPIKey() {
		v := "AUTH_" + providers.EnvName(c.ID) + "_KEY"
		if c.APIKey = h.getenv(v); c.APIKey == "" {
			return nil, &ConfigError{Provider: c.ID, Field: "apiKey", Reason: "is required: set it, or " + v}
		}
	}
	if h.cfg.Adapter == nil {
		return nil, &ConfigError{Provider: c.ID, Field: "Adapter", Reason: "an e-mail provider needs an Adapter to keep its verification tokens"}
	}
	// A link built from the request's Host would let anyone who can send
	// a Host (or X-Forwarded-Host) header have a victim's link point at
	// their own server, and collect the token when it is followed.
	if h.cfg.URL == "" {
		return nil, &ConfigError{Provider: c.ID, Field: "URL", Reason: "an e-mail provider needs Config.URL (AUTH_URL): sign-in links must not take their host from the request"}
	}
	secrets := h.cfg.Secret
	if c.Secret != "" {
		secrets = []string{c.Secret}
	}
	tokens, err := email.NewTokens(secrets, "gatehouse verification token", "Gatehouse e-mail verification token hash")
	if err != nil {
		return nil, &ConfigError{Provider: c.ID, Field: "Secret", Err: err}
	}
	return &emailRuntime{cfg: c, tokens: tokens}, nil
}

func (p *emailRuntime) info() providers.Base { return p.cfg.ProviderBase() }

// crossSiteCallback: the link is followed with a GET.
func (*emailRuntime) crossSiteCallback() bool { return false }

func (p *emailRuntime) addTo(page *pages.SignIn, ap providers.AppProvider, _ *base) {
	page.Email = append(page.Email, pages.EmailForm{ID: ap.ID, Name: ap.Name, SigninURL: ap.SigninURL})
}

func (p *emailRuntime) form(path, csrf, callback string) template.HTML {
	return renderForm(emailFormTmpl, formData{Action: path + "/signin/" + p.cfg.ID, Name: p.cfg.Name, CSRF: csrf, Callback: callback})
}

// signIn answers POST {base}/signin/{id}: a token is stored and the link
// sent.
func (p *emailRuntime) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, form url.Values) {
	ctx := r.Context()
	c := p.cfg
	fail := func(t ErrorType, code string, err error) {
		h.fail(w, r, b, autherr.New(t, code, c.ID, "signin", err))
	}

	// 1. The address, normalised; a malformed one is the one answer that
	// differs, and it depends only on what was typed.
	addr, err := c.NormalizeIdentifier(form.Get("email"))
	if err != nil {
		fail(EmailSignInError, "invalid_email", err)
		return
	}

	// 2. The send limits, per client and per address, the same for known
	// and unknown addresses: every accepted request counts, reserved
	// atomically before anything is sent. The address is counted under
	// limit.IdentifierKey, so case, Unicode forms and +tags of one
	// mailbox share one count. Any limiter error refuses.
	wait, err := limit.ReserveAll(ctx,
		limit.Attempt{Limiter: c.PerIP, Key: "ip:" + limit.IPKey(c.ClientIP(r))},
		limit.Attempt{Limiter: c.PerIdentifier, Key: "id:" + c.ID + ":" + limit.IdentifierKey(addr)})
	if err != nil {
		fail(EmailSignin, "limiter", err)
		return
	}
	if wait > 0 {
		h.tooManyAttempts(w, r, b, c.ID, wait)
		return
	}

	// 3. The application's say, before anything is sent (Auth.js:
	// signIn with email.verificationRequest). A refusal sends nothing but
	// answers as a success would: the form must not tell who may sign in.
	user := profile.User{Email: addr}
	if stored, err := h.cfg.Adapter.GetUserByEmail(ctx, addr); err == nil {
		user = accountlink.ToProfile(stored)
	} else if !errors.Is(err, adapter.ErrNotFound) {
		fail(AdapterError, "adapter", err)
		return
	}
	acct := &account.Account{Type: account.TypeEmail, Provider: c.ID, ProviderAccountID: addr}
	send := true
	if cb := h.cfg.Callbacks.SignIn; cb != nil {
		allow, _, err := cb(ctx, SignInParams{User: user, Account: acct, Request: r, VerificationRequest: true})
		if err != nil {
			fail(AccessDenied, "signin_callback", err)
			return
		}
		if !allow {
			h.cfg.Logger.Info("gatehouse: the SignIn callback refused an e-mail sign-in; no link sent", "provider", c.ID)
			send = false
		}
	}

	// 4. The token: random, stored only as its keyed hash, with an expiry.
	if send {
		token, err := c.NewToken()
		if err != nil {
			fail(EmailSignin, "token", err)
			return
		}
		expires := time.Now().Add(c.MaxAge)
		hash := p.tokens.Hash(token)
		if err := h.cfg.Adapter.CreateVerificationToken(ctx, adapter.VerificationToken{Identifier: addr, TokenHash: hash, Expires: expires}); err != nil {
			fail(AdapterError, "adapter", err)
			return
		}
		q := url.Values{"callbackUrl": {h.callbackURL(b, form.Get("callbackUrl"), r)}, "token": {token}, "email": {addr}}
		u, _ := url.Parse(b.origin)
		req := email.VerificationRequest{Identifier: addr, URL: b.url("callback", c.ID) + "?" + q.Encode(), Expires: expires, Host: u.Host, Provider: c, Request: r}
		// 5. The message. A failure removes the token: no link works that
		// nobody received. The error is logged, never the link nor the
		// address, which a sender's error may repeat.
		if err := c.Send(ctx, req); err != nil {
			_, _ = h.cfg.Adapter.UseVerificationToken(context.WithoutCancel(ctx), addr, hash)
			msg := strings.NewReplacer(req.URL, "[link]", token, "[token]", url.QueryEscape(token), "[token]",
				addr, "[email]", url.QueryEscape(addr), "[email]").Replace(err.Error())
			fail(EmailSignin, "send_failed", errors.New(msg))
			return
		}
	}

	// 6. The same answer for everyone: the verify-request page.
	q := url.Values{"provider": {c.ID}, "type": {"email"}}
	target := b.path + "/verify-request?" + q.Encode()
	if h.cfg.Pages.VerifyRequest != "" {
		target = h.cfg.Pages.VerifyRequest + "?" + q.Encode()
	}
	httpx.Redirect(w, r, target)
}

// callback answers GET {base}/callback/{id}?token=…&email=…: the token
// is used up, then the user signed in.
func (p *emailRuntime) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	if err := h.verifyEmail(w, r, b, p); err != nil {
		h.fail(w, r, b, autherr.Wrap(err, Verification, "failed", p.cfg.ID, "verification"))
	}
}

func (h *Handler) verifyEmail(w http.ResponseWriter, r *http.Request, b *base, p *emailRuntime) error {
	ctx := r.Context()
	c := p.cfg
	fail := func(t ErrorType, code string, err error) error {
		return autherr.New(t, code, c.ID, "verification", err)
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return fail(Verification, "malformed_link", errors.New("the link's query does not parse"))
	}
	token := q.Get("token")
	if token == "" || len(token) > email.MaxTokenLen || len(q["token"]) > 1 || len(q["email"]) > 1 {
		return fail(Verification, "malformed_link", errors.New("the link has no token, or two"))
	}
	addr, err := c.NormalizeIdentifier(q.Get("email"))
	if err != nil {
		return fail(Verification, "malformed_link", err)
	}

	// The token, used up whatever happens next, under any rotated secret,
	// and checked again in constant time (email.Tokens.Use).
	switch err := p.tokens.Use(ctx, h.cfg.Adapter, addr, token); {
	case errors.Is(err, email.ErrTokenUnknown):
		return fail(Verification, "invalid_token", err)
	case errors.Is(err, email.ErrTokenExpired):
		return fail(Verification, "expired", err)
	case err != nil:
		return fail(AdapterError, "adapter", err)
	}

	now := time.Now()
	user := profile.User{ID: addr, Email: addr, EmailVerified: &now}
	acct := &account.Account{Type: account.TypeEmail, Provider: c.ID, ProviderAccountID: addr}
	return h.finishSignIn(w, r, b, signin.Result{User: user, Account: acct, CallbackURL: q.Get("callbackUrl"), Unbound: true})
}
