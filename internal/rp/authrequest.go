package rp

import (
	"context"
	"maps"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// authRequest is the part of a provider's authorization request that is
// the same for every sign-in: the endpoint without its query, and the
// configured parameters with the OpenID Connect default scope, the code
// response type and the client_id. It is built once per resolved
// endpoints, not parsed again on every sign-in.
type authRequest struct {
	e      *Endpoints
	url    string
	params url.Values
	// front is url, '?', params encoded and '&': the start of every
	// front-channel authorization URL, to which a sign-in appends its own
	// parameters. The parameters a sign-in sets are left out of it.
	front        string
	responseMode string
	err          error
}

// SignIn is what one sign-in adds to the provider's fixed authorization
// request parameters.
type SignIn struct {
	RedirectURI   string
	CodeChallenge string // S256 (RFC 7636 §4.2); "" without PKCE
	State, Nonce  string // "" when the check is not used
	// Extra are parameters of the sign-in request handed on (login_hint,
	// prompt, …); they replace configured ones of the same name.
	Extra url.Values
}

// perSignIn are the parameters a sign-in sets: never taken from the
// configuration, and never from Extra.
var perSignIn = [...]string{"redirect_uri", "code_challenge", "code_challenge_method", "state", "nonce"}

func (p *Provider) authRequest(e *Endpoints) *authRequest {
	a := p.authReq.Load()
	if a == nil || a.e != e {
		a = newAuthRequest(p.cfg, e)
		p.authReq.Store(a)
	}
	return a
}

func newAuthRequest(c *providers.OAuth, e *Endpoints) *authRequest {
	authURL, q, err := c.Authorization.Query()
	if err != nil || e.auth != c.Authorization.URL {
		authURL, q, err = providers.AuthorizationEndpoint{URL: e.auth, Params: c.Authorization.Params}.Query()
	}
	if err != nil {
		return &authRequest{e: e, err: err}
	}
	if _, ok := c.Authorization.Scope(); !ok && c.Type == providers.TypeOIDC {
		q.Set("scope", "openid profile email")
	}
	// The code flow only: a provider may name its own code-like response
	// type (Azure DevOps: "Assertion"), never one that puts tokens in the
	// front channel (RFC 9700 §2.1.2).
	if rt := q.Get("response_type"); rt == "" || strings.Contains(rt, "token") {
		q.Set("response_type", "code")
	}
	q.Set("client_id", c.ClientID)
	for _, k := range perSignIn {
		q.Del(k)
	}
	return &authRequest{e: e, url: authURL, params: q, front: authURL + "?" + q.Encode() + "&", responseMode: q.Get("response_mode")}
}

// ResponseMode returns the response_mode the provider is configured with
// ("" for the default, query), or the error of a malformed authorization
// endpoint.
func (p *Provider) ResponseMode(e *Endpoints) (string, error) {
	a := p.authRequest(e)
	return a.responseMode, a.err
}

// AuthorizationURL returns where the browser goes for the authorization
// request of sign-in s. Most go in the URL as they are: the fixed part
// encoded once, the sign-in's values appended. With PAR (the provider's
// metadata requires it, or Client.RequirePushedAuthorizationRequests), the
// request is pushed first and the URL carries only client_id and the
// request_uri (RFC 9126 §4). With DPoP, dpop_jkt binds the code to the
// DPoP key (RFC 9449 §10).
func (p *Provider) AuthorizationURL(ctx context.Context, e *Endpoints, s SignIn) (string, error) {
	a := p.authRequest(e)
	if a.err != nil {
		return "", a.err
	}
	c := p.cfg
	if len(s.Extra) == 0 && !c.Client.DPoPBoundAccessTokens && !p.usesPAR(e) {
		return a.frontChannel(s), nil
	}
	q := maps.Clone(a.params)
	for k, v := range s.Extra {
		q[k] = v
	}
	s.set(q)
	return p.authorizationURL(ctx, e, a.url, q)
}

// set adds the sign-in's own parameters to q.
func (s SignIn) set(q url.Values) {
	for _, k := range perSignIn {
		q.Del(k) // never from Extra
	}
	q.Set("redirect_uri", s.RedirectURI)
	if s.CodeChallenge != "" {
		q.Set("code_challenge", s.CodeChallenge)
		q.Set("code_challenge_method", "S256")
	}
	if s.State != "" {
		q.Set("state", s.State)
	}
	if s.Nonce != "" {
		q.Set("nonce", s.Nonce)
	}
}

// frontChannel is a.front with the sign-in's parameters, built in one
// buffer. The challenge, state and nonce are base64url, which needs no
// escaping in a query.
func (a *authRequest) frontChannel(s SignIn) string {
	var b strings.Builder
	b.Grow(len(a.front) + 3*len(s.RedirectURI) + len(s.CodeChallenge) + len(s.State) + len(s.Nonce) + 128)
	b.WriteString(a.front)
	b.WriteString("redirect_uri=")
	appendQueryEscape(&b, s.RedirectURI)
	if s.CodeChallenge != "" {
		b.WriteString("&code_challenge=")
		appendQueryEscape(&b, s.CodeChallenge)
		b.WriteString("&code_challenge_method=S256")
	}
	if s.State != "" {
		b.WriteString("&state=")
		appendQueryEscape(&b, s.State)
	}
	if s.Nonce != "" {
		b.WriteString("&nonce=")
		appendQueryEscape(&b, s.Nonce)
	}
	return b.String()
}

// appendQueryEscape writes s escaped as url.QueryEscape does, without the
// intermediate string: unreserved characters (RFC 3986 §2.3) as they are,
// a space as '+', every other byte as %XX.
func appendQueryEscape(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for len(s) > 0 {
		i := 0
		for i < len(s) && unreserved[s[i]] {
			i++
		}
		b.WriteString(s[:i])
		if i == len(s) {
			return
		}
		if c := s[i]; c == ' ' {
			b.WriteByte('+')
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
		s = s[i+1:]
	}
}

var unreserved = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~'
	}
	return t
}()
