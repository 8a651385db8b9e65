package providers

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Check is a protection the callback endpoint performs.
type Check string

// The checks an OAuth or OpenID Connect provider can ask for.
const (
	CheckNone  Check = "none"  // no check (only alone; not recommended)
	CheckState Check = "state" // a one-time state bound to the browser (RFC 6749 §10.12)
	CheckPKCE  Check = "pkce"  // PKCE with S256 (RFC 7636)
	CheckNonce Check = "nonce" // an ID token nonce (OpenID Connect Core §3.1.2.1); OIDC only
)

// AuthMethod is how the client authenticates at the token endpoint
// (RFC 7591 §2 token_endpoint_auth_method).
type AuthMethod string

// Client authentication methods.
const (
	AuthClientSecretBasic AuthMethod = "client_secret_basic" // the default
	AuthClientSecretPost  AuthMethod = "client_secret_post"
	AuthNone              AuthMethod = "none" // public client: PKCE only
	// AuthClientSecretJWT signs a client assertion with the client secret
	// (HS256; RFC 7523 §2.2, OpenID Connect Core §9).
	AuthClientSecretJWT AuthMethod = "client_secret_jwt"
	// AuthPrivateKeyJWT signs a client assertion with the first key of
	// Client.JWKS (RFC 7523 §2.2, OpenID Connect Core §9).
	AuthPrivateKeyJWT AuthMethod = "private_key_jwt"
)

// Client holds overrides for the OAuth client (Auth.js's "client",
// a Partial<Client>): the client metadata of RFC 7591 §2 that changes how
// the flow talks to the provider.
type Client struct {
	// TokenEndpointAuthMethod defaults to client_secret_basic.
	TokenEndpointAuthMethod AuthMethod `json:"token_endpoint_auth_method,omitempty"`
	// IDTokenSignedResponseAlg is the only algorithm accepted on ID tokens
	// (e.g. "ES256"). Empty means those the provider's metadata lists,
	// else RS256. "HS256" is honoured only here, with the client secret
	// as the HMAC key (OpenID Connect Core §10.1), as LINE requires;
	// symmetric algorithms from metadata are always ignored.
	IDTokenSignedResponseAlg string `json:"id_token_signed_response_alg,omitempty"`

	// RequirePushedAuthorizationRequests sends every authorization
	// request through the provider's pushed authorization request
	// endpoint (RFC 9126 §6). Without it, PAR is used when the provider's
	// metadata sets require_pushed_authorization_requests.
	RequirePushedAuthorizationRequests bool `json:"require_pushed_authorization_requests,omitempty"`
	// PushedAuthorizationRequestEndpoint is the PAR endpoint (RFC 9126
	// §5), overriding the discovered pushed_authorization_request_endpoint.
	PushedAuthorizationRequestEndpoint string `json:"-"`

	// JWKS holds the client's private keys for private_key_jwt. The first
	// key signs the client assertions; the others are older keys still
	// published to the provider. Each key needs a kid. To rotate, put the
	// new key first, publish it, and drop the old one once the provider
	// has seen the new one (RFC 7523 §3, RFC 7517 §4.5). The algorithm is
	// the key's Algorithm, else RS256, ES256 or EdDSA by key type.
	JWKS *jose.JSONWebKeySet `json:"-"`

	// DPoPBoundAccessTokens asks for sender-constrained access tokens
	// (RFC 9449 §5.2): every token request, PAR request and provider API
	// call made through the Handler carries a DPoP proof.
	DPoPBoundAccessTokens bool `json:"dpop_bound_access_tokens,omitempty"`
	// DPoPKey is the private key of the DPoP proofs. When nil, New makes
	// an ES256 key that lives as long as the Handler: tokens bound to it
	// are useless to another process or after a restart. Give the same
	// key to every process that shares the tokens (an adapter, several
	// servers) to keep them usable.
	DPoPKey *jose.JSONWebKey `json:"-"`
}

func (c Client) merge(o Client) Client {
	set(&c.TokenEndpointAuthMethod, o.TokenEndpointAuthMethod)
	set(&c.IDTokenSignedResponseAlg, o.IDTokenSignedResponseAlg)
	c.RequirePushedAuthorizationRequests = c.RequirePushedAuthorizationRequests || o.RequirePushedAuthorizationRequests
	set(&c.PushedAuthorizationRequestEndpoint, o.PushedAuthorizationRequestEndpoint)
	if o.JWKS != nil {
		c.JWKS = o.JWKS
	}
	c.DPoPBoundAccessTokens = c.DPoPBoundAccessTokens || o.DPoPBoundAccessTokens
	if o.DPoPKey != nil {
		c.DPoPKey = o.DPoPKey
	}
	return c
}

// AuthorizationEndpoint is where the browser is sent to start login
// (Auth.js's "authorization"): a URL, with parameters to add to its query
// (Auth.js's AuthorizationEndpointHandler). Parameters already in URL's query
// count too; Params win over them.
type AuthorizationEndpoint struct {
	URL string
	// Params are AuthorizationParameters: scope, prompt, access_type,
	// response_mode, … An entry with an empty value is sent empty.
	Params map[string]string
}

// Query returns the endpoint's own parameters: those in URL, then Params.
func (e AuthorizationEndpoint) Query() (base string, q url.Values, err error) {
	u, err := url.Parse(e.URL)
	if err != nil {
		return "", nil, err
	}
	q = u.Query()
	for k, v := range e.Params {
		q.Set(k, v)
	}
	u.RawQuery = ""
	return u.String(), q, nil
}

// Scope returns the configured scope parameter and whether one is set.
func (e AuthorizationEndpoint) Scope() (string, bool) {
	if v, ok := e.Params["scope"]; ok {
		return v, true
	}
	if u, err := url.Parse(e.URL); err == nil {
		if q := u.Query(); q.Has("scope") {
			return q.Get("scope"), true
		}
	}
	return "", false
}

func (e AuthorizationEndpoint) merge(o AuthorizationEndpoint) AuthorizationEndpoint {
	e.URL, e.Params = mergeURL(e.URL, e.Params, o.URL, o.Params)
	return e
}

// mergeURL lays a user's endpoint URL and parameters over the defaults'
// (Merge: the user's values win). A parameter written in the user's
// own URL is the user's value: the defaults' parameter of that name is
// dropped, or it would replace the user's (Query lets Params win over the
// URL). The user's Params win over both.
func mergeURL(url0 string, params0 map[string]string, url1 string, params1 map[string]string) (string, map[string]string) {
	if url1 != "" {
		url0 = url1
		if u, err := url.Parse(url1); err == nil && u.RawQuery != "" {
			own := u.Query()
			kept := make(map[string]string, len(params0))
			for k, v := range params0 {
				if !own.Has(k) {
					kept[k] = v
				}
			}
			params0 = kept
		}
	}
	return url0, mergeParams(params0, params1)
}

func mergeParams(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	out := maps.Clone(a)
	if out == nil {
		out = make(map[string]string, len(b))
	}
	maps.Copy(out, b)
	return out
}

// TokenRequest is what a custom token endpoint handler receives (Auth.js's
// TokenEndpointHandler: the checks and the callback parameters).
type TokenRequest struct {
	// Code is the authorization code from the callback.
	Code string
	// CodeVerifier is the PKCE verifier, "" when PKCE is not in use.
	CodeVerifier string
	// RedirectURI is the redirect_uri the authorization request used.
	RedirectURI string
	// Params are all the callback's parameters.
	Params url.Values
	// ClientID and ClientSecret are the provider's client credentials.
	ClientID, ClientSecret string
	// URL is the configured or discovered token endpoint, if any.
	URL string
	// HTTPClient has the configured timeouts and read limits; use it.
	HTTPClient *http.Client
}

// TokenEndpoint is where the code is exchanged for tokens (Auth.js's
// "token"): a URL, or a Request handler that does the exchange itself.
type TokenEndpoint struct {
	URL string
	// Params are added to the token request's form.
	Params map[string]string
	// Request, when set, replaces the standard code exchange.
	Request func(ctx context.Context, r TokenRequest) (account.TokenSet, error)
}

func (e TokenEndpoint) merge(o TokenEndpoint) TokenEndpoint {
	set(&e.URL, o.URL)
	e.Params = mergeParams(e.Params, o.Params)
	if o.Request != nil {
		e.Request = o.Request
	}
	return e
}

// UserinfoRequest is what a custom userinfo handler receives (Auth.js's
// UserinfoEndpointHandler: the token set).
type UserinfoRequest struct {
	Tokens account.TokenSet
	// URL is the configured or discovered userinfo endpoint, if any.
	URL string
	// ClientID is the provider's client id (some APIs want it in a header).
	ClientID string
	// HTTPClient has the configured timeouts and read limits; use it.
	HTTPClient *http.Client
}

// UserinfoEndpoint is where the user's profile is read (Auth.js's
// "userinfo"): a URL answered to a GET with the access token as a Bearer
// token, or a Request handler that produces the profile itself.
type UserinfoEndpoint[P any] struct {
	URL string
	// Params are added to the URL's query.
	Params map[string]string
	// Request, when set, replaces the GET on URL.
	Request func(ctx context.Context, r UserinfoRequest) (P, error)
}

func (e UserinfoEndpoint[P]) merge(o UserinfoEndpoint[P]) UserinfoEndpoint[P] {
	e.URL, e.Params = mergeURL(e.URL, e.Params, o.URL, o.Params)
	if o.Request != nil {
		e.Request = o.Request
	}
	return e
}

// OAuthConfig is the configuration of an OAuth 2.0 (Type "oauth", Auth.js's
// OAuth2Config) or OpenID Connect (Type "oidc", Auth.js's OIDCConfig)
// provider whose profile has type P.
//
// The endpoints may come from discovery: for OIDC providers, WellKnown or
// Issuer names the provider metadata and any of Authorization, Token and
// Userinfo set here override what discovery says.
type OAuthConfig[P any] struct {
	ID   string
	Name string
	Type ProviderType
	// Account reduces the token set to the stored account; nil means the
	// default reduction (account.Default).
	Account account.Callback
	// AllowDangerousEmailAccountLinking lets a sign-in with this provider
	// link to an existing user with the same e-mail address. Only safe when
	// the provider is trusted to have verified the address. Default false.
	AllowDangerousEmailAccountLinking bool
	Authorization                     AuthorizationEndpoint
	Token                             TokenEndpoint
	Userinfo                          UserinfoEndpoint[P]
	// Checks the callback performs. Empty means the default: pkce for
	// oauth; pkce, state and nonce for oidc. state is added when a
	// redirect proxy URL is set.
	Checks       []Check
	Client       Client
	ClientID     string
	ClientSecret string
	// Issuer is the provider's issuer identifier. For OIDC it is the
	// discovery base and the expected ID token iss; for OAuth, when set,
	// the expected RFC 9207 iss of authorization responses.
	Issuer string
	// JWKSEndpoint is the URL of the provider's signing keys, overriding
	// the discovered jwks_uri.
	JWKSEndpoint string
	// Profile maps the profile to a User; nil means profile.FromClaims on
	// the profile's JSON form.
	Profile          profile.Callback[P]
	RedirectProxyURL string
	Style            Style
	// WellKnown is a discovery document URL (RFC 8414 / OpenID Connect
	// Discovery 1.0), used instead of <Issuer>/.well-known/openid-configuration.
	WellKnown string
}

// OIDCDefaults returns the defaults of a generic OpenID Connect provider:
// the id and display name, Type "oidc", scope as the authorization
// endpoint's "scope" parameter and the button style. Everything else is
// unset: the endpoints come from the discovery document of the issuer,
// the checks are the OIDC default (pkce, state, nonce) and the profile is
// the ID token's claims, mapped by profile.FromClaims. A provider's
// Defaults sets what more it needs (an Issuer, Checks) on the result.
func OIDCDefaults[P any](id, name, scope string, style Style) OAuthConfig[P] {
	return OAuthConfig[P]{
		ID:            id,
		Name:          name,
		Type:          TypeOIDC,
		Authorization: AuthorizationEndpoint{Params: map[string]string{"scope": scope}},
		Style:         style,
	}
}

// OAuthEndpoints are the endpoints of a plain OAuth 2.0 provider, as
// OAuthDefaults takes them.
type OAuthEndpoints struct {
	AuthorizationURL string
	// AuthorizationParams are the authorization request's parameters,
	// the scope among them.
	AuthorizationParams map[string]string
	TokenURL            string
	UserinfoURL         string
}

// EndpointsAt returns the endpoints of a self-hosted provider whose base
// URL is issuer (a trailing slash is allowed): each path appended to it.
// With issuer "" the URLs are empty: the configuration is incomplete until
// the user sets them or an issuer, and Validate says so.
func EndpointsAt(issuer, authorizationPath, tokenPath, userinfoPath string) OAuthEndpoints {
	base := strings.TrimRight(issuer, "/")
	if base == "" {
		return OAuthEndpoints{}
	}
	return OAuthEndpoints{
		AuthorizationURL: base + authorizationPath,
		TokenURL:         base + tokenPath,
		UserinfoURL:      base + userinfoPath,
	}
}

// OAuthDefaults returns the defaults of a plain OAuth 2.0 provider: the
// id and display name, Type "oauth", the endpoints, the profile callback
// (nil for the default mapping) and the button style. The checks are the
// OAuth default (pkce). A provider's Defaults sets what more it needs
// (Checks, Client, a userinfo Request) on the result.
func OAuthDefaults[P any](id, name string, e OAuthEndpoints, mapProfile profile.Callback[P], style Style) OAuthConfig[P] {
	return OAuthConfig[P]{
		ID:            id,
		Name:          name,
		Type:          TypeOAuth,
		Authorization: AuthorizationEndpoint{URL: e.AuthorizationURL, Params: e.AuthorizationParams},
		Token:         TokenEndpoint{URL: e.TokenURL},
		Userinfo:      UserinfoEndpoint[P]{URL: e.UserinfoURL},
		Profile:       mapProfile,
		Style:         style,
	}
}

// OAuth2Config is Auth.js's name for an OAuthConfig of Type "oauth".
type OAuth2Config[P any] = OAuthConfig[P]

// OIDCConfig is Auth.js's name for an OAuthConfig of Type "oidc".
type OIDCConfig[P any] = OAuthConfig[P]

// ProviderBase implements Provider.
func (c OAuthConfig[P]) ProviderBase() Base { return Base{ID: c.ID, Name: c.Name, Type: c.Type} }

// OAuthUserConfig is what a built-in provider's factory takes:
// every field of OAuthConfig, all optional, with no Type. Set fields
// override the provider's defaults; unset ones keep them.
type OAuthUserConfig[P any] struct {
	ID                                string
	Name                              string
	Account                           account.Callback
	AllowDangerousEmailAccountLinking bool
	Authorization                     AuthorizationEndpoint
	Token                             TokenEndpoint
	Userinfo                          UserinfoEndpoint[P]
	Checks                            []Check
	Client                            Client
	ClientID                          string
	ClientSecret                      string
	Issuer                            string
	JWKSEndpoint                      string
	Profile                           profile.Callback[P]
	RedirectProxyURL                  string
	Style                             Style
	WellKnown                         string
}

// OIDCUserConfig is Auth.js's name for the options of an OIDC provider's
// factory.
type OIDCUserConfig[P any] = OAuthUserConfig[P]

// Merge lays user options over a built-in provider's defaults: every set
// option replaces the default; endpoint parameters,
// client and style merge field by field; a set Checks list replaces the
// default list whole (no merging by index). The type never changes.
func Merge[P any](d OAuthConfig[P], o OAuthUserConfig[P]) OAuthConfig[P] {
	set(&d.ID, o.ID)
	set(&d.Name, o.Name)
	if o.Account != nil {
		d.Account = o.Account
	}
	if o.AllowDangerousEmailAccountLinking {
		d.AllowDangerousEmailAccountLinking = true
	}
	d.Authorization = d.Authorization.merge(o.Authorization)
	d.Token = d.Token.merge(o.Token)
	d.Userinfo = d.Userinfo.merge(o.Userinfo)
	if o.Checks != nil {
		d.Checks = slices.Clone(o.Checks)
	}
	d.Client = d.Client.merge(o.Client)
	set(&d.ClientID, o.ClientID)
	set(&d.ClientSecret, o.ClientSecret)
	set(&d.Issuer, o.Issuer)
	set(&d.JWKSEndpoint, o.JWKSEndpoint)
	if o.Profile != nil {
		d.Profile = o.Profile
	}
	set(&d.RedirectProxyURL, o.RedirectProxyURL)
	d.Style = d.Style.merge(o.Style)
	set(&d.WellKnown, o.WellKnown)
	return d
}

// OAuth is an OAuthConfig with its profile type erased: the form the
// sign-in flow works with. Get one with OAuthConfig.OAuth.
type OAuth struct {
	Base
	Account                           account.Callback
	AllowDangerousEmailAccountLinking bool
	Authorization                     AuthorizationEndpoint
	Token                             TokenEndpoint
	// UserinfoURL and UserinfoParams are the userinfo endpoint's URL form.
	UserinfoURL    string
	UserinfoParams map[string]string
	Checks         []Check
	Client         Client
	ClientID       string
	ClientSecret   string
	Issuer         string
	JWKSEndpoint   string
	// RedirectProxyURL is the provider's own setting; the configuration's
	// applies when this is empty.
	RedirectProxyURL string
	Style            Style
	WellKnown        string

	// UserinfoRequest is the custom userinfo handler, nil for a GET.
	UserinfoRequest func(ctx context.Context, r UserinfoRequest) (any, error)
	// DecodeProfile decodes a JSON profile (a userinfo answer, or OIDC
	// claims) into the provider's profile type.
	DecodeProfile func(raw []byte) (any, error)
	// MapProfile reduces a profile that DecodeProfile or UserinfoRequest
	// returned to a User, with the provider's callback or the default.
	MapProfile func(ctx context.Context, p any, tokens account.TokenSet) (profile.User, error)
}

// OAuthProvider is implemented by every OAuthConfig.
type OAuthProvider interface {
	Provider
	// OAuth returns the type-erased configuration.
	OAuth() *OAuth
}

// OAuth implements OAuthProvider.
func (c OAuthConfig[P]) OAuth() *OAuth {
	o := &OAuth{
		Base:                              c.ProviderBase(),
		Account:                           c.Account,
		AllowDangerousEmailAccountLinking: c.AllowDangerousEmailAccountLinking,
		Authorization:                     c.Authorization,
		Token:                             c.Token,
		UserinfoURL:                       c.Userinfo.URL,
		UserinfoParams:                    c.Userinfo.Params,
		Checks:                            slices.Clone(c.Checks),
		Client:                            c.Client,
		ClientID:                          c.ClientID,
		ClientSecret:                      c.ClientSecret,
		Issuer:                            c.Issuer,
		JWKSEndpoint:                      c.JWKSEndpoint,
		RedirectProxyURL:                  c.RedirectProxyURL,
		Style:                             c.Style,
		WellKnown:                         c.WellKnown,
	}
	if req := c.Userinfo.Request; req != nil {
		o.UserinfoRequest = func(ctx context.Context, r UserinfoRequest) (any, error) { return req(ctx, r) }
	}
	o.DecodeProfile = func(raw []byte) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		return p, nil
	}
	mapper := c.Profile
	o.MapProfile = func(ctx context.Context, v any, tokens account.TokenSet) (profile.User, error) {
		p, ok := v.(P)
		if !ok {
			return profile.User{}, fmt.Errorf("profile is %T, want %T", v, p)
		}
		if mapper != nil {
			return mapper(ctx, p, tokens)
		}
		return defaultMapping(p)
	}
	return o
}

// defaultMapping applies profile.FromClaims to any profile through its JSON
// form, so providers without a mapping of their own still give a User.
func defaultMapping[P any](p P) (profile.User, error) {
	if c, ok := any(p).(profile.Claims); ok {
		return profile.FromClaims(c), nil
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return profile.User{}, err
	}
	var c profile.Claims
	if err := json.Unmarshal(raw, &c); err != nil {
		return profile.User{}, fmt.Errorf("profile is not a JSON object: %w", err)
	}
	return profile.FromClaims(c), nil
}

// EffectiveChecks returns the checks the callback performs: the configured
// ones, or the default for the type (pkce for oauth; pkce, state and nonce
// for oidc), with state added when proxied is true (a redirect proxy is in
// use).
func (o *OAuth) EffectiveChecks(proxied bool) []Check {
	cs := slices.Clone(o.Checks)
	if len(cs) == 0 {
		cs = []Check{CheckPKCE}
		if o.Type == TypeOIDC {
			cs = []Check{CheckPKCE, CheckState, CheckNonce}
		}
	}
	if proxied && !slices.Contains(cs, CheckState) {
		cs = slices.DeleteFunc(cs, func(c Check) bool { return c == CheckNone })
		cs = append(cs, CheckState)
	}
	return cs
}

// UsesChecks is EffectiveChecks(proxied) as three answers, without
// building the list: for the sign-in and the callback, on every request.
func (o *OAuth) UsesChecks(proxied bool) (pkce, state, nonce bool) {
	if len(o.Checks) == 0 {
		oidc := o.Type == TypeOIDC
		return true, oidc || proxied, oidc
	}
	return Has(o.Checks, CheckPKCE), proxied || Has(o.Checks, CheckState), Has(o.Checks, CheckNonce)
}

// Has reports whether checks contains c.
func Has(checks []Check, c Check) bool { return slices.Contains(checks, c) }

// Validate reports the first problem with the configuration as a
// *ConfigError naming the provider and the field.
func (o *OAuth) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Provider: o.ID, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case o.ID == "":
		return bad("id", "is required")
	case !ValidID(o.ID):
		return bad("id", "must be 1-64 lower-case letters, digits, '-' or '_' (it is part of the URL)")
	case o.Name == "":
		return bad("name", "is required")
	case o.Type != TypeOAuth && o.Type != TypeOIDC:
		return bad("type", "is %q; an OAuth configuration must be %q or %q", o.Type, TypeOAuth, TypeOIDC)
	case o.ClientID == "":
		return bad("clientId", "is required (set it, or AUTH_%s_ID)", EnvName(o.ID))
	}
	for _, c := range o.Checks {
		switch c {
		case CheckState, CheckPKCE:
		case CheckNone:
			if len(o.Checks) > 1 {
				return bad("checks", `"none" cannot be combined with other checks`)
			}
		case CheckNonce:
			if o.Type != TypeOIDC {
				return bad("checks", `"nonce" is only for oidc providers`)
			}
		default:
			return bad("checks", "unknown check %q (want none, state, pkce or nonce)", c)
		}
	}
	if err := o.Client.validate(o.ClientSecret); err != nil {
		return bad(err.field, "%s", err.reason)
	}
	for field, u := range map[string]string{
		"client.pushed_authorization_request_endpoint": o.Client.PushedAuthorizationRequestEndpoint,
		"authorization": o.Authorization.URL, "token": o.Token.URL, "userinfo": o.UserinfoURL,
		"issuer": o.Issuer, "wellKnown": o.WellKnown, "jwks_endpoint": o.JWKSEndpoint,
		"redirectProxyUrl": o.RedirectProxyURL,
	} {
		if u == "" {
			continue
		}
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			return bad(field, "%q is not an absolute http(s) URL", u)
		}
	}
	// Endpoints missing from the configuration come from discovery, which
	// needs an issuer or a wellKnown URL.
	var missing []string
	if o.Authorization.URL == "" {
		missing = append(missing, "authorization")
	}
	if o.Token.URL == "" && o.Token.Request == nil {
		missing = append(missing, "token")
	}
	if o.Type == TypeOAuth && o.UserinfoURL == "" && o.UserinfoRequest == nil {
		missing = append(missing, "userinfo")
	}
	if len(missing) > 0 && o.Issuer == "" && o.WellKnown == "" {
		return bad(missing[0], "no %s endpoint and no issuer or wellKnown to discover it from", strings.Join(missing, ", "))
	}
	if o.Type == TypeOIDC && o.Issuer == "" {
		return bad("issuer", "an oidc provider needs its issuer, to check the ID token's iss")
	}
	return nil
}

// EnvName returns id as it appears in environment variable names:
// upper-cased, with '-' turned into '_' (AUTH_<ID>_ID).
func EnvName(id string) string {
	return strings.ToUpper(strings.ReplaceAll(id, "-", "_"))
}
