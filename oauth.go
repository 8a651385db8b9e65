package gatehouse

// The OAuth 2.0 / OpenID Connect sign-in, top to bottom: signIn sends the
// browser to the provider, callback brings it back and signs it in.

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
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// oauthFlow is the flow of an OAuth 2.0 or OpenID Connect provider; the
// relying-party client (internal/rp) does the talking to the provider.
type oauthFlow struct{ *rp.Provider }

func (f oauthFlow) info() providers.Base {
	c := f.Config()
	return providers.Base{ID: c.ID, Name: c.Name, Type: c.Type}
}

// crossSiteCallback: a form_post answer is a cross-site POST from the
// provider's origin; the bound check cookie is what gives it any power
// (link.go).
func (oauthFlow) crossSiteCallback() bool { return true }

func (f oauthFlow) addTo(page *pages.SignIn, p providers.AppProvider, _ *base) {
	page.OAuth = append(page.OAuth, pages.Button{ID: p.ID, Name: p.Name, SigninURL: p.SigninURL, Style: f.Config().Style})
}

func (f oauthFlow) form(path, csrf, callback string) template.HTML {
	return formHTML(path+"/signin/"+f.Config().ID, csrf, callback, "Sign in with "+f.Config().Name)
}

// passThrough are the sign-in request's query parameters handed on to the
// authorization request (Auth.js passes every one, which lets a link
// override scope or redirect_uri; RFC 9700 §2.1 wants those fixed).
const passThrough = "login_hint prompt max_age ui_locales acr_values display hd organization domain_hint"

// signIn sends the browser to the provider's authorization endpoint:
// checks made and sealed into a cookie bound to this browser and session,
// the authorization request built (pushed, with PAR).
func (f oauthFlow) signIn(h *Handler, w http.ResponseWriter, r *http.Request, b *base, form url.Values) {
	p, id := f.Provider, f.Config().ID
	e, err := p.Endpoints(r.Context())
	if err != nil {
		h.fail(w, r, b, autherr.New(ProviderUnavailable, "discovery", id, "signin", err))
		return
	}
	c := p.Config()
	mode, err := p.ResponseMode(e) // the fixed request, built once per provider (internal/rp)
	if err != nil {
		h.fail(w, r, b, autherr.New(OAuthSignin, "authorization_url", id, "signin", err))
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
	setCheck := b.cookies.Set
	formPost := mode == "form_post" && (b.cookies.Secure || sessioncookie.LoopbackOrigin(b.origin))
	if formPost {
		// The callback is a cross-site POST, which carries SameSite=None
		// cookies only; browsers take Secure cookies on http://localhost
		// too, so local development works the same way.
		setCheck = b.cookies.SetNone
	}
	pkce, state, nonce := h.checksFor(c, e)
	tx := checks.NewTransaction(pkce, state, nonce)
	tx.Binding = h.binding(r, b) // who started it: link.go
	s := rp.SignIn{RedirectURI: h.redirectURI(b, c), State: tx.State, Nonce: tx.Nonce, Extra: extra}
	if pkce {
		s.CodeChallenge = checks.Challenge(tx.Verifier)
	}
	if pkce || state || nonce {
		sealed, err := h.sealer.SealTransaction(b.cookies.Checks, id, tx)
		if err != nil {
			h.fail(w, r, b, autherr.New(OAuthSignin, "seal", id, "signin", err))
			return
		}
		setCheck(w, b.cookies.Checks, sealed, expires)
	}
	if cb := h.callbackURL(b, form.Get("callbackUrl"), r); cb != "" {
		if formPost {
			setCheck(w, b.cookies.CallbackURL, cb, expires) // read by the cross-site POST too
		} else {
			b.cookies.Set(w, b.cookies.CallbackURL, cb, time.Time{})
		}
	}
	// The fixed parameters are encoded once per provider; PAR and DPoP:
	// internal/rp.
	dest, err := p.AuthorizationURL(r.Context(), e, s)
	if err != nil {
		h.fail(w, r, b, autherr.Wrap(err, OAuthSignin, "authorization_url", id, "signin"))
		return
	}
	httpx.Redirect(w, r, dest)
}

// checksFor returns the checks of provider c. State is added when a
// redirect proxy is in use (spec §2.3), and when the provider's metadata
// shows it does not support PKCE S256 (RFC 9700 §2.1: PKCE protects only
// once the AS is known to support it).
func (h *Handler) checksFor(c *providers.OAuth, e *rp.Endpoints) (pkce, state, nonce bool) {
	proxied := c.RedirectProxyURL != "" || h.cfg.RedirectProxyURL != ""
	return c.UsesChecks(proxied || e.PKCEUnsupported)
}

// redirectURI is the provider's callback URL: one path per provider, so
// that each issuer has its own redirect URI (mix-up defence, RFC 9700 §4.4).
func (h *Handler) redirectURI(b *base, c *providers.OAuth) string {
	if p := cmp.Or(c.RedirectProxyURL, h.cfg.RedirectProxyURL); p != "" {
		return strings.TrimSuffix(p, "/") + "/callback/" + c.ID
	}
	return b.origin + b.path + "/callback/" + c.ID
}

// callback brings the browser back: the check cookie read and cleared,
// then completeSignIn.
func (f oauthFlow) callback(h *Handler, w http.ResponseWriter, r *http.Request, b *base) {
	// The check cookie is single use: cleared whatever happens next.
	if sessioncookie.Value(r, b.cookies.Checks) != "" {
		b.cookies.Clear(w, b.cookies.Checks)
	}
	if err := h.completeSignIn(w, r, b, f.Provider); err != nil {
		h.fail(w, r, b, autherr.Wrap(err, CallbackRouteError, "callback", f.Config().ID, "callback"))
	}
}

func (h *Handler) completeSignIn(w http.ResponseWriter, r *http.Request, b *base, p *rp.Provider) error {
	ctx := r.Context()
	c := p.Config()
	fail := func(t ErrorType, code, step string, err error) error {
		return autherr.New(t, code, c.ID, step, err)
	}

	// 1. The authorization response: query, or form for form_post.
	params, err := httpx.CallbackParams(r)
	if err != nil {
		return fail(OAuthCallbackError, "malformed_response", "response", err)
	}
	e, err := p.Endpoints(ctx)
	if err != nil {
		return fail(ProviderUnavailable, "discovery", "discovery", err)
	}

	// 2. RFC 9207 iss first: an error response is not trusted before it
	// (security.md §2 item 6). The expected issuer is the configured or
	// discovered one, never a placeholder.
	if err := checks.VerifyIssuer(params.Get("iss"), e.Issuer, e.IssRequired); err != nil {
		return checkError(c.ID, err)
	}

	// 3. The sealed check values, then state against the sealed copy.
	usePKCE, useState, useNonce := h.checksFor(c, e)
	var tx checks.Transaction
	if usePKCE || useState || useNonce {
		first := checks.State
		if !useState {
			first = checks.PKCE
			if !usePKCE {
				first = checks.Nonce
			}
		}
		if tx, err = h.sealer.OpenTransaction(first, b.cookies.Checks, c.ID, sessioncookie.Value(r, b.cookies.Checks)); err == nil {
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
	// session (link.go). Only a provider's form_post answer goes
	// without: a cross-site POST, it carries no SameSite=Lax cookie (no
	// session, no CSRF cookie) to compare; its check cookie is a
	// SameSite=None one, which exists only on https and loopback, where it
	// is a __Host- cookie no other origin can set; and as no session is
	// visible to it, it links nothing. A POST that does carry those
	// cookies (same-site: a sibling subdomain's form) is compared.
	crossSitePost := r.Method == http.MethodPost && sessioncookie.ChunkedValue(r, b.cookies.Session) == "" && sessioncookie.Value(r, b.cookies.CSRF) == ""
	if (usePKCE || useState || useNonce) && !crossSitePost {
		if err := h.checkBinding(r, b, c.ID, tx.Binding); err != nil {
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
		return fail(OAuthCallbackError, code, "authorization", fmt.Errorf("the provider answered error=%q: %.200q", pe, params.Get("error_description")))
	}
	code := params.Get("code")
	if code == "" {
		return fail(OAuthCallbackError, "code_missing", "response", errors.New("no code in the authorization response"))
	}
	if params.Has("id_token") || params.Has("access_token") {
		// No implicit or hybrid flow: tokens come only from the token
		// endpoint (RFC 9700 §2.1.2).
		return fail(OAuthCallbackError, "front_channel_token", "response", errors.New("tokens in the authorization response"))
	}

	// 5. PKCE verifier and nonce, from the sealed cookie ("" when unused).
	verifier, nonce := tx.Verifier, tx.Nonce

	// 6. The code exchange.
	tokens, err := p.Exchange(ctx, e, code, verifier, h.redirectURI(b, c), params)
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
		return fail(InvalidIDToken, "missing", "id_token", errors.New("the token response has no id_token"))
	case nonce != "":
		return fail(InvalidIDToken, "missing", "id_token", errors.New("a nonce was sent but no verifiable id_token came back"))
	}

	// 8. The profile: userinfo (merged into the claims for OIDC), then
	// the provider's mapping.
	prof, err := p.Profile(ctx, e, tokens, claims, params)
	if err != nil {
		return err
	}
	user, err := c.MapProfile(ctx, prof, tokens)
	if err != nil {
		return fail(OAuthProfileParseError, "mapping", "profile", err)
	}
	if user.ID == "" {
		return fail(OAuthProfileParseError, "id_missing", "profile", errors.New("the profile mapping gave no user id"))
	}
	user.Email = strings.ToLower(strings.TrimSpace(user.Email))

	// 9. The account: the token set reduced by the provider's callback.
	reduced, err := account.Reduce(ctx, c.Account, tokens)
	if err != nil {
		return fail(CallbackRouteError, "account_callback", "account", err)
	}
	acct := &account.Account{Type: account.Type(c.Type), Provider: c.ID, ProviderAccountID: user.ID, TokenSet: reduced}

	// 10. The application's say, then the session.
	return h.finishSignIn(w, r, b, signin.Result{User: user, Account: acct, Profile: prof, Tokens: tokens})
}

func checkError(provider string, err error) error {
	var ce *checks.Error
	code := "failed"
	if errors.As(err, &ce) {
		code = ce.Code()
	}
	return autherr.New(InvalidCheck, code, provider, "checks", err)
}
