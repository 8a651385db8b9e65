// Package oauthflow is the OAuth 2.0 / OpenID Connect sign-in, top to
// bottom: SignIn sends the browser to the provider, Callback brings it
// back and signs it in. The relying-party client (internal/rp) does the
// talking to the provider; this package does the browser's part: the
// checks sealed in a cookie bound to the browser and session that started
// the sign-in, and the callback's checks in the order RFC 9700 wants.
package oauthflow

import (
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Host is what the flow needs of the Handler, per request. The
// *finish.Finisher implements it (internal/finish, and internal/site's
// Site, which it embeds), where each method is documented.
type Host interface {
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	Cookies(r *http.Request) cookies.Names
	Origin(r *http.Request) string
	CallbackURL(r *http.Request, raw string) string
	// Binding is the digest of the browser and session starting a
	// sign-in; CheckBinding compares it with the one finishing it.
	Binding(r *http.Request) string
	CheckBinding(r *http.Request, provider, recorded string) error
	FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error
}

// Config is what the flow needs of the Handler's configuration.
type Config struct {
	// Sealer seals the checks into their cookie.
	Sealer *checks.Sealer
	// RedirectProxyURL is Config.RedirectProxyURL.
	RedirectProxyURL string
	// BasePath is the routes' path, e.g. /auth.
	BasePath string
}

// Flow is one OAuth 2.0 or OpenID Connect provider's sign-in.
type Flow struct {
	p    *rp.Provider
	cfg  Config
	host Host
}

// New returns the sign-in of provider p.
func New(p *rp.Provider, cfg Config, host Host) *Flow { return &Flow{p: p, cfg: cfg, host: host} }

// Provider returns the provider's relying-party client.
func (f *Flow) Provider() *rp.Provider { return f.p }

// Info returns the provider's id, name and type.
func (f *Flow) Info() providers.Base {
	c := f.p.Config()
	return providers.Base{ID: c.ID, Name: c.Name, Type: c.Type}
}

// CrossSiteCallback: a form_post answer (response_mode=form_post) is a
// cross-site POST from the provider's origin; the check cookie, bound to
// the browser that began the sign-in, is what gives it any power.
func (*Flow) CrossSiteCallback() bool { return true }

// AddTo puts the provider's button on the built-in sign-in page.
func (f *Flow) AddTo(page *pages.SignIn, p providers.AppProvider, _ *site.Base) {
	page.OAuth = append(page.OAuth, pages.Button{ID: p.ID, Name: p.Name, SigninURL: p.SigninURL, Style: f.p.Config().Style})
}

// Form renders the signIn template helper's form: one button that posts
// to the sign-in route.
func (f *Flow) Form(path string, o pages.HelperForm) template.HTML {
	c := f.p.Config()
	o.Action, o.Name = path+"/signin/"+c.ID, c.Name
	return o.Button()
}

// passThrough are the sign-in request's query parameters handed on to the
// authorization request (Auth.js passes every one, which lets a link
// override scope or redirect_uri; RFC 9700 §2.1 wants those fixed).
const passThrough = "login_hint prompt max_age ui_locales acr_values display hd organization domain_hint"

// SignIn sends the browser to the provider's authorization endpoint:
// checks made and sealed into a cookie bound to this browser and session,
// the authorization request built (pushed, with PAR).
func (f *Flow) SignIn(w http.ResponseWriter, r *http.Request, form url.Values) {
	p, h, id := f.p, f.host, f.p.Config().ID
	names, origin := h.Cookies(r), h.Origin(r)
	e, err := p.Endpoints(r.Context())
	if err != nil {
		h.Fail(w, r, autherr.New(autherr.ProviderUnavailable, "discovery", id, "signin", err))
		return
	}
	mode, err := p.ResponseMode(e) // the fixed request, built once per provider (internal/rp)
	if err != nil {
		h.Fail(w, r, autherr.New(autherr.OAuthSignin, "authorization_url", id, "signin", err))
		return
	}
	var extra url.Values
	if r.URL.RawQuery != "" {
		rq := r.URL.Query()
		for k := range strings.FieldsSeq(passThrough) {
			if v := rq.Get(k); v != "" {
				if extra == nil {
					extra = url.Values{}
				}
				extra.Set(k, v)
			}
		}
	}

	// The checks, sealed together into one cookie bound to this provider
	// and to the cookie's name, for checks.MaxAge.
	expires := time.Now().Add(checks.MaxAge)
	setCheck := names.Set
	formPost := mode == "form_post" && (names.Secure || cookies.LoopbackOrigin(origin))
	if formPost {
		// The callback is a cross-site POST, which carries SameSite=None
		// cookies only; browsers take Secure cookies on http://localhost
		// too, so local development works the same way.
		setCheck = names.SetNone
	}
	pkce, state, nonce := f.checksFor(e)
	tx := checks.NewTransaction(pkce, state, nonce)
	tx.Binding = h.Binding(r) // who started it (internal/finish, Site.Binding)
	s := rp.SignIn{RedirectURI: f.redirectURI(r), State: tx.State, Nonce: tx.Nonce, Extra: extra}
	if pkce {
		s.CodeChallenge = checks.Challenge(tx.Verifier)
	}
	if pkce || state || nonce {
		sealed, err := f.cfg.Sealer.SealTransaction(names.Checks, id, tx)
		if err != nil {
			h.Fail(w, r, autherr.New(autherr.OAuthSignin, "seal", id, "signin", err))
			return
		}
		setCheck(w, names.Checks, sealed, expires)
	}
	if cb := h.CallbackURL(r, form.Get("callbackUrl")); cb != "" {
		switch {
		case formPost:
			setCheck(w, names.CallbackURL, cb, expires) // read by the cross-site POST too
		case len(cb) == len(origin)+1 && strings.HasPrefix(cb, origin) && cb[len(origin)] == '/': // origin + "/", not built
			// The default, which the callback takes when the cookie is
			// missing: no cookie, or one left from a sign-in that did
			// not finish cleared (a finished one clears it).
			names.ClearSent(w, r, names.CallbackURL)
		case cookies.Value(r, names.CallbackURL) != cb:
			// A browser-session cookie: one that already holds cb (a
			// second try from the same page) is left as it is.
			names.Set(w, names.CallbackURL, cb, time.Time{})
		}
	}
	// The fixed parameters are encoded once per provider; PAR and DPoP:
	// internal/rp.
	dest, err := p.AuthorizationURL(r.Context(), e, s)
	if err != nil {
		h.Fail(w, r, autherr.Wrap(err, autherr.OAuthSignin, "authorization_url", id, "signin"))
		return
	}
	httpx.Redirect(w, r, dest)
}

// checksFor returns the checks of the provider. State is added when a
// redirect proxy is in use (Config.RedirectProxyURL), and when the provider's metadata
// shows it does not support PKCE S256 (RFC 9700 §2.1: PKCE protects only
// once the AS is known to support it).
func (f *Flow) checksFor(e *rp.Endpoints) (pkce, state, nonce bool) {
	c := f.p.Config()
	proxied := c.RedirectProxyURL != "" || f.cfg.RedirectProxyURL != ""
	return c.UsesChecks(proxied || e.PKCEUnsupported)
}

// redirectURI is the provider's callback URL: one path per provider, so
// that each issuer has its own redirect URI (mix-up defence, RFC 9700 §4.4).
func (f *Flow) redirectURI(r *http.Request) string {
	c := f.p.Config()
	if p := cmp.Or(c.RedirectProxyURL, f.cfg.RedirectProxyURL); p != "" {
		return strings.TrimSuffix(p, "/") + "/callback/" + c.ID
	}
	return f.host.Origin(r) + f.cfg.BasePath + "/callback/" + c.ID
}

// Callback brings the browser back: the check cookie read and cleared,
// then completeSignIn.
func (f *Flow) Callback(w http.ResponseWriter, r *http.Request) {
	// The check cookie is single use: cleared whatever happens next.
	if names := f.host.Cookies(r); cookies.Value(r, names.Checks) != "" {
		names.Clear(w, names.Checks)
	}
	if err := f.completeSignIn(w, r); err != nil {
		f.host.Fail(w, r, autherr.Wrap(err, autherr.CallbackRouteError, "callback", f.p.Config().ID, "callback"))
	}
}

func (f *Flow) completeSignIn(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, h, names := f.p, f.host, f.host.Cookies(r)
	c := p.Config()
	fail := func(t autherr.Type, code, step string, err error) error {
		return autherr.New(t, code, c.ID, step, err)
	}

	// 1. The authorization response: query, or form for form_post.
	params, err := httpx.CallbackParams(r)
	if err != nil {
		return fail(autherr.OAuthCallbackError, "malformed_response", "response", err)
	}
	e, err := p.Endpoints(ctx)
	if err != nil {
		return fail(autherr.ProviderUnavailable, "discovery", "discovery", err)
	}

	// 2. RFC 9207 iss first: an error response is not trusted before it
	// (RFC 9207 §2.4). The expected issuer is the configured or
	// discovered one, never a placeholder.
	if err := checks.VerifyIssuer(params.Get("iss"), e.Issuer, e.IssRequired); err != nil {
		return checkError(c.ID, err)
	}

	// 3. The sealed check values, then state against the sealed copy.
	usePKCE, useState, useNonce := f.checksFor(e)
	var tx checks.Transaction
	if usePKCE || useState || useNonce {
		first := checks.State
		if !useState {
			first = checks.PKCE
			if !usePKCE {
				first = checks.Nonce
			}
		}
		if tx, err = f.cfg.Sealer.OpenTransaction(first, names.Checks, c.ID, cookies.Value(r, names.Checks)); err == nil {
			err = tx.Need(usePKCE, useState, useNonce)
		}
		if err != nil {
			return checkError(c.ID, err)
		}
	}
	if useState {
		if err := checks.VerifyState(params.Get("state"), tx.State); err != nil {
			return checkError(c.ID, err)
		}
	}
	// The browser that finishes must be the one that started, in the same
	// session (internal/finish, Site.CheckBinding). Only a provider's form_post answer goes
	// without: a cross-site POST, it carries no SameSite=Lax cookie (no
	// session, no CSRF cookie) to compare; its check cookie is a
	// SameSite=None one, which exists only on https and loopback, where it
	// is a __Host- cookie no other origin can set; and as no session is
	// visible to it, it links nothing. A POST that does carry those
	// cookies (same-site: a sibling subdomain's form) is compared.
	crossSitePost := r.Method == http.MethodPost && cookies.ChunkedValue(r, names.Session) == "" && cookies.Value(r, names.CSRF) == ""
	if (usePKCE || useState || useNonce) && !crossSitePost {
		if err := h.CheckBinding(r, c.ID, tx.Binding); err != nil {
			return err
		}
	}

	// 4. An error answer from the provider, now that it is known to be
	// for this sign-in. Its text is the provider's: logged, not shown.
	if pe := params.Get("error"); pe != "" {
		code := pe
		if !rp.ErrorCodePattern.MatchString(code) {
			code = "provider_error"
		}
		return fail(autherr.OAuthCallbackError, code, "authorization", fmt.Errorf("the provider answered error=%q: %.200q", pe, params.Get("error_description")))
	}
	code := params.Get("code")
	if code == "" {
		return fail(autherr.OAuthCallbackError, "code_missing", "response", errors.New("no code in the authorization response"))
	}
	if params.Has("id_token") || params.Has("access_token") {
		// No implicit or hybrid flow: tokens come only from the token
		// endpoint (RFC 9700 §2.1.2).
		return fail(autherr.OAuthCallbackError, "front_channel_token", "response", errors.New("tokens in the authorization response"))
	}

	// 5. PKCE verifier and nonce, from the sealed cookie ("" when unused).
	verifier, nonce := tx.Verifier, tx.Nonce

	// 6. The code exchange.
	tokens, err := p.Exchange(ctx, e, code, verifier, f.redirectURI(r), params)
	if err != nil {
		return err
	}

	// 7. The ID token: required for OIDC, verified whenever it can be.
	var claims profile.Claims
	switch {
	case tokens.IDToken != "" && e.VerifiesTokens():
		if claims, err = p.VerifyIDToken(ctx, e, tokens.IDToken, nonce, tokens.AccessToken); err != nil {
			return err
		}
	case c.Type == providers.TypeOIDC:
		return fail(autherr.InvalidIDToken, "missing", "id_token", errors.New("the token response has no id_token"))
	case nonce != "":
		return fail(autherr.InvalidIDToken, "missing", "id_token", errors.New("a nonce was sent but no verifiable id_token came back"))
	}

	// 8. The profile: userinfo (merged into the claims for OIDC), then
	// the provider's mapping.
	prof, err := p.Profile(ctx, e, tokens, claims, params)
	if err != nil {
		return err
	}
	user, err := c.MapProfile(ctx, prof, tokens)
	if err != nil {
		return fail(autherr.OAuthProfileParseError, "mapping", "profile", err)
	}
	if user.ID == "" {
		return fail(autherr.OAuthProfileParseError, "id_missing", "profile", errors.New("the profile mapping gave no user id"))
	}
	user.Email = strings.ToLower(strings.TrimSpace(user.Email))

	// 9. The account: the token set reduced by the provider's callback.
	reduced, err := account.Reduce(ctx, c.Account, tokens)
	if err != nil {
		return fail(autherr.CallbackRouteError, "account_callback", "account", err)
	}
	acct := &account.Account{Type: account.Type(c.Type), Provider: c.ID, ProviderAccountID: user.ID, TokenSet: reduced}

	// 10. The application's say, then the session.
	return h.FinishSignIn(w, r, signin.Result{User: user, Account: acct, Profile: prof, Tokens: tokens,
		AllowDangerousLinking: c.AllowDangerousEmailAccountLinking})
}

// checkError is the error of a failed check (state, PKCE, nonce, iss):
// of type InvalidCheck, its code the check's.
func checkError(provider string, err error) *autherr.Error {
	var ce *checks.Error
	code := "failed"
	if errors.As(err, &ce) {
		code = ce.Code()
	}
	return autherr.New(autherr.InvalidCheck, code, provider, "checks", err)
}
