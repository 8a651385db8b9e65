// Package authtest provides an in-process OpenID Connect provider, in the
// manner of net/http/httptest.
//
// A Provider is an http.Handler that serves discovery, authorization,
// token, userinfo, JWKS and end-session endpoints under the path of its
// issuer URL. It has two uses:
//
//   - a development provider mounted inside an application's own server,
//     where a person picks one of the configured users on a small HTML
//     page ("Development sign-in");
//   - a hostile provider for conformance tests: SetFaults switches on
//     misbehaviours (bad ID token signatures and claims, a wrong iss in the
//     authorization response, a slow or broken token endpoint, and so on),
//     and Requests shows what the client sent.
//
// The provider is strict where a real one should be: the authorization
// code flow only, PKCE with S256 required, exact redirect URI matching,
// single-use codes, rotating refresh tokens, and Bearer tokens accepted in
// the Authorization header only.
//
// It also speaks the OAuth client extensions: pushed authorization
// requests (RFC 9126) at {issuer}/par, required with Options.RequirePAR;
// client_secret_jwt and private_key_jwt client authentication (RFC 7523,
// aud the issuer, single-use jti; the client's public keys in
// Options.ClientJWKS); and DPoP (RFC 9449): a proof at the token endpoint
// makes the access token of type DPoP, bound to the proof's key (its
// cnf.jkt, kept by the provider), which the userinfo endpoint, the
// provider's protected resource, then accepts only with a proof of that
// key; Options.DPoPNonce adds nonce challenges; dpop_jkt binds a code.
//
// It is for tests and development only. It keeps everything in memory and
// lets anyone sign in as any configured user without a password.
package authtest

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// The client credentials a Provider registers when Options leaves them
// empty.
const (
	// DefaultClientID is the client_id used when Options.ClientID is empty.
	DefaultClientID = "test-client"
	// DefaultClientSecret is the client secret used when
	// Options.ClientSecret is empty.
	DefaultClientSecret = "test-secret"
)

// Lifetimes of what the provider issues.
const (
	codeLifetime         = time.Minute
	accessTokenLifetime  = time.Hour
	idTokenLifetime      = time.Hour
	refreshTokenLifetime = 30 * 24 * time.Hour
)

// User is an account of the provider. Its fields become the standard
// claims of the ID token and the userinfo answer.
type User struct {
	// Subject is the sub claim. It must be non-empty and unique.
	Subject string
	// Name is the name claim (scope profile).
	Name string
	// Email is the email claim (scope email).
	Email string
	// EmailVerified is the email_verified claim (scope email).
	EmailVerified bool
	// Picture is the picture claim (scope profile), a URL.
	Picture string
	// Extra holds further claims, added to the ID token and the userinfo
	// answer whatever the scope. An Extra claim never replaces a claim the
	// provider sets itself.
	Extra map[string]any
}

// Options configure a Provider.
type Options struct {
	// Issuer is the issuer identifier, an http or https URL without query
	// or fragment. New requires it. The endpoints are served under its
	// path: with Issuer "http://localhost:8080/dev", the token endpoint is
	// "http://localhost:8080/dev/token". NewServer sets it to the server's
	// URL, followed by Issuer when Issuer is a path such as "/tenant".
	Issuer string
	// ClientID is the one registered client's client_id. Default
	// DefaultClientID.
	ClientID string
	// ClientSecret is the client's secret, for client_secret_basic and
	// client_secret_post. Default DefaultClientSecret.
	ClientSecret string
	// PublicClient lets the client use token endpoint authentication
	// method "none": client_id alone, with PKCE as the only proof.
	PublicClient bool
	// RedirectURIs are the client's registered redirect URIs. A redirect_uri
	// must equal one of them exactly (RFC 9700 §2.1). When empty, any
	// absolute http or https URL without a fragment is accepted
	// (development mode).
	RedirectURIs []string
	// PostLogoutRedirectURIs are the URIs end_session may redirect to,
	// matched exactly. When both they and RedirectURIs are empty, any
	// absolute http or https URL is accepted (development mode).
	PostLogoutRedirectURIs []string
	// Users are the accounts one can sign in as. Default: one user, alice
	// (Alice, alice@example.com, verified).
	Users []User
	// AutoApprove makes the authorization endpoint answer at once, for the
	// user whose subject or email equals login_hint, or else the first
	// user. Without it, the endpoint shows the "Development sign-in" page.
	AutoApprove bool
	// Alg is the ID token signing algorithm: "RS256" (the default) or
	// "ES256".
	Alg string

	// RequirePAR makes pushed authorization requests (RFC 9126) the only
	// way in: the metadata sets require_pushed_authorization_requests and
	// the authorization endpoint refuses requests without a request_uri.
	// The PAR endpoint, {issuer}/par, is served either way.
	RequirePAR bool
	// ClientJWKS holds the client's public keys, for private_key_jwt
	// client authentication (RFC 7523): the assertion's kid picks the
	// key. client_secret_jwt (HS256 with ClientSecret) is always accepted.
	ClientJWKS jose.JSONWebKeySet
	// DPoPNonce makes the token and userinfo endpoints require a DPoP
	// nonce (RFC 9449 §8, §9): a proof without the provider's current
	// nonce is answered with use_dpop_nonce and the nonce in DPoP-Nonce.
	DPoPNonce bool
	// RepeatNonceOnRefresh puts the sign-in's nonce in the ID tokens of
	// refresh answers too, as node oidc-provider does (OpenID Connect
	// Core §12.2 says it SHOULD NOT be there; relying parties meet it).
	RepeatNonceOnRefresh bool
	// RevokeOnRefreshReuse revokes the whole grant, every access and
	// refresh token issued from one authorization, when a refresh token
	// that was already used is presented again (RFC 9700 §4.14.2
	// refresh token rotation with reuse detection). Refresh tokens are
	// rotated at every refresh either way.
	RevokeOnRefreshReuse bool
	// SessionIDs puts a sid claim in ID tokens: one session id per
	// authorization (per browser sign-in), as providers that support
	// OpenID Connect Back-Channel Logout do; SIDs lists them.
	SessionIDs bool
}

// Provider is an OpenID Connect provider. It is an http.Handler serving
// every endpoint under the path of its issuer, and is safe for concurrent
// use.
type Provider struct {
	issuer string // as configured
	base   string // issuer without a trailing slash: endpoint URLs start with it
	prefix string // path of base: request paths start with it

	clientID, clientSecret string
	publicClient           bool
	redirectURIs           []string
	postLogoutURIs         []string
	users                  []User
	autoApprove            bool
	alg                    jose.SignatureAlgorithm
	requirePAR             bool
	clientJWKS             jose.JSONWebKeySet
	dpopNonce              string // "" unless Options.DPoPNonce
	repeatNonce            bool   // Options.RepeatNonceOnRefresh
	revokeOnReuse          bool   // Options.RevokeOnRefreshReuse
	sessionIDs             bool   // Options.SessionIDs

	csrf *http.CrossOriginProtection

	mu         sync.Mutex
	faults     Faults
	key        *jose.JSONWebKey   // the signing key, private
	extraKeys  []*jose.JSONWebKey // for Faults.JWKSExtraKeys, made on demand
	foreignKey *jose.JSONWebKey   // for Faults.IDTokenForeignKey, made on demand
	codes      map[string]*codeGrant
	access     map[string]*tokenGrant
	refresh    map[string]*tokenGrant
	// usedRefresh maps a refresh token already used to its grant's
	// family; revokedFamilies holds the families revoked for reuse.
	usedRefresh     map[string]string
	revokedFamilies map[string]bool
	// sids lists the session ids issued per subject (Options.SessionIDs).
	sids     map[string][]string
	pushed   map[string]*pushedRequest // PAR: request_uri → parameters
	jtis     map[string]time.Time      // client assertion and DPoP proof jti → expiry
	requests []RecordedRequest
}

// grant is what a user approved: it travels from the code to the tokens.
type grant struct {
	user     User
	clientID string
	scope    string
	nonce    string
	authTime time.Time
	// family names the authorization the tokens come from, so that
	// reuse detection can revoke all of them.
	family string
}

type codeGrant struct {
	grant
	redirectURI string
	challenge   string
	dpopJKT     string // the DPoP key the code is bound to (RFC 9449 §10)
	expires     time.Time
	used        bool     // the code was presented
	revoked     bool     // the code was presented twice
	issued      []string // access and refresh tokens issued for the code
}

type tokenGrant struct {
	grant
	expires time.Time
	jkt     string // DPoP: the thumbprint of the key the token is bound to (cnf.jkt)
}

// New returns a Provider for opts. It reports an error when the options
// are invalid: a missing or malformed issuer, a user without a subject or
// two users with the same one, or an unsupported algorithm.
func New(opts Options) (*Provider, error) {
	iu, err := url.Parse(opts.Issuer)
	if err != nil {
		return nil, fmt.Errorf("authtest: issuer: %w", err)
	}
	if (iu.Scheme != "http" && iu.Scheme != "https") || iu.Host == "" || iu.User != nil ||
		iu.RawQuery != "" || iu.ForceQuery || iu.Fragment != "" || strings.Contains(opts.Issuer, "#") {
		return nil, fmt.Errorf("authtest: issuer %q is not an http or https URL without query and fragment", opts.Issuer)
	}
	p := &Provider{
		issuer:          opts.Issuer,
		base:            strings.TrimSuffix(opts.Issuer, "/"),
		clientID:        opts.ClientID,
		clientSecret:    opts.ClientSecret,
		publicClient:    opts.PublicClient,
		repeatNonce:     opts.RepeatNonceOnRefresh,
		revokeOnReuse:   opts.RevokeOnRefreshReuse,
		sessionIDs:      opts.SessionIDs,
		redirectURIs:    slices.Clone(opts.RedirectURIs),
		postLogoutURIs:  slices.Clone(opts.PostLogoutRedirectURIs),
		autoApprove:     opts.AutoApprove,
		csrf:            http.NewCrossOriginProtection(),
		codes:           map[string]*codeGrant{},
		access:          map[string]*tokenGrant{},
		refresh:         map[string]*tokenGrant{},
		usedRefresh:     map[string]string{},
		revokedFamilies: map[string]bool{},
		pushed:          map[string]*pushedRequest{},
		jtis:            map[string]time.Time{},
		requirePAR:      opts.RequirePAR,
		clientJWKS:      opts.ClientJWKS,
	}
	if opts.DPoPNonce {
		p.dpopNonce = randomToken()
	}
	p.prefix = strings.TrimSuffix(iu.Path, "/")
	if p.clientID == "" {
		p.clientID = DefaultClientID
	}
	if p.clientSecret == "" {
		p.clientSecret = DefaultClientSecret
	}
	switch opts.Alg {
	case "", "RS256":
		p.alg = jose.RS256
	case "ES256":
		p.alg = jose.ES256
	default:
		return nil, fmt.Errorf("authtest: unsupported algorithm %q (want RS256 or ES256)", opts.Alg)
	}
	users := opts.Users
	if len(users) == 0 {
		users = []User{{Subject: "alice", Name: "Alice", Email: "alice@example.com", EmailVerified: true}}
	}
	seen := map[string]bool{}
	for _, u := range users {
		if u.Subject == "" {
			return nil, errors.New("authtest: a user has no Subject")
		}
		if seen[u.Subject] {
			return nil, fmt.Errorf("authtest: two users have Subject %q", u.Subject)
		}
		seen[u.Subject] = true
		u.Extra = cloneMap(u.Extra)
		p.users = append(p.users, u)
	}
	if p.key, err = newKey(p.alg); err != nil {
		return nil, err
	}
	warmSpares(p.alg)
	return p, nil
}

// Issuer returns the provider's issuer identifier.
func (p *Provider) Issuer() string { return p.issuer }

// SetFaults replaces the provider's faults. It applies to requests that
// arrive after it returns; the zero Faults is a well-behaved provider.
func (p *Provider) SetFaults(f Faults) {
	// The keys the faults need are made now, not by the first request
	// that needs them: key generation under load could otherwise make a
	// JWKS or token answer slower than the client's timeout.
	if f.JWKSExtraKeys > 0 {
		p.jwks(f)
	}
	if f.IDTokenForeignKey {
		p.ensureForeignKey()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.faults = f
}

// RotateKey replaces the signing key with a new one with a new kid. The
// old key leaves the JWKS at once.
func (p *Provider) RotateKey() {
	k, err := newKey(p.alg)
	if err != nil {
		panic("authtest: " + err.Error())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.key = k
}

// KeyID returns the kid of the current signing key.
func (p *Provider) KeyID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.key.KeyID
}

// Endpoint names an endpoint of the provider in a RecordedRequest.
type Endpoint string

// The provider's endpoints.
const (
	// EndpointDiscovery is /.well-known/openid-configuration.
	EndpointDiscovery Endpoint = "discovery"
	// EndpointAuthorize is /authorize.
	EndpointAuthorize Endpoint = "authorize"
	// EndpointToken is /token.
	EndpointToken Endpoint = "token"
	// EndpointUserinfo is /userinfo.
	EndpointUserinfo Endpoint = "userinfo"
	// EndpointJWKS is /jwks.
	EndpointJWKS Endpoint = "jwks"
	// EndpointEndSession is /end_session.
	EndpointEndSession Endpoint = "end_session"
	// EndpointPAR is /par, the pushed authorization request endpoint.
	EndpointPAR Endpoint = "par"
)

// RecordedRequest is a request the provider received.
type RecordedRequest struct {
	// Endpoint is the endpoint the request was for.
	Endpoint Endpoint
	// Method is the HTTP method.
	Method string
	// Query holds the parameters of the URL's query.
	Query url.Values
	// Form holds the parameters of an application/x-www-form-urlencoded
	// body.
	Form url.Values
	// Header holds the request's header fields.
	Header http.Header
	// ClientAuth is, for token and PAR requests, how the client
	// authenticated: "client_secret_basic", "client_secret_post",
	// "client_secret_jwt", "private_key_jwt", "none" (a client_id alone),
	// or "" (no client_id at all).
	ClientAuth string
}

// maxRecorded is how many requests a Provider remembers.
const maxRecorded = 10000

// Requests returns the requests received so far, oldest first, for every
// endpoint: the latest 10000. The caller must not modify the values it
// holds.
func (p *Provider) Requests() []RecordedRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// maxRequestBody bounds what the provider reads of a request body.
const maxRequestBody = 64 << 10

// ServeHTTP serves the provider's endpoints: discovery at
// {issuer}/.well-known/openid-configuration, then {issuer}/authorize,
// /token, /userinfo, /jwks, /end_session and /par. Other paths are
// answered 404.
// The request's path must include the issuer's path: mount the provider
// without http.StripPrefix.
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, p.prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	rt, ok := routes[rest]
	if !ok {
		http.NotFound(w, r)
		return
	}
	ep := rt.endpoint
	if !slices.Contains(rt.methods, r.Method) {
		w.Header().Set("Allow", strings.Join(rt.methods, ", "))
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "malformed request: "+err.Error(), http.StatusBadRequest)
		return
	}
	rec := RecordedRequest{
		Endpoint: ep,
		Method:   r.Method,
		Query:    r.URL.Query(),
		Form:     cloneValues(r.PostForm),
		Header:   r.Header.Clone(),
	}
	if ep == EndpointToken || ep == EndpointPAR {
		rec.ClientAuth = clientAuthMethod(r)
	}
	p.mu.Lock()
	if len(p.requests) >= maxRecorded {
		p.requests = slices.Delete(p.requests, 0, len(p.requests)-maxRecorded+1)
	}
	p.requests = append(p.requests, rec)
	f := p.faults
	p.mu.Unlock()
	rt.serve(p, w, r, f)
}

// route is an endpoint ServeHTTP serves: the methods it answers and its
// handler.
type route struct {
	endpoint Endpoint
	methods  []string
	serve    func(*Provider, http.ResponseWriter, *http.Request, Faults)
}

// routes are the provider's endpoints by their path below the issuer.
var routes = map[string]route{
	"/.well-known/openid-configuration": {EndpointDiscovery, []string{http.MethodGet, http.MethodHead}, (*Provider).serveDiscovery},
	"/authorize":                        {EndpointAuthorize, []string{http.MethodGet, http.MethodPost}, (*Provider).serveAuthorize},
	"/token":                            {EndpointToken, []string{http.MethodPost}, (*Provider).serveToken},
	"/userinfo":                         {EndpointUserinfo, []string{http.MethodGet, http.MethodPost}, (*Provider).serveUserinfo},
	"/jwks":                             {EndpointJWKS, []string{http.MethodGet, http.MethodHead}, (*Provider).serveJWKS},
	"/end_session":                      {EndpointEndSession, []string{http.MethodGet, http.MethodPost}, (*Provider).serveEndSession},
	"/par":                              {EndpointPAR, []string{http.MethodPost}, (*Provider).servePAR},
}

// clientAuthMethod tells how a token request authenticates its client.
func clientAuthMethod(r *http.Request) string {
	switch {
	case strings.HasPrefix(strings.ToLower(r.Header.Get("Authorization")), "basic "):
		return "client_secret_basic"
	case r.PostForm.Has("client_secret"):
		return "client_secret_post"
	case r.PostForm.Has("client_assertion"):
		return assertionMethod(r.PostForm.Get("client_assertion"))
	case r.PostForm.Has("client_id"):
		return "none"
	}
	return ""
}

// endpointURL returns the absolute URL of the endpoint at path.
func (p *Provider) endpointURL(path string) string { return p.base + path }

// findUser returns the user whose subject, or else email, is hint.
func (p *Provider) findUser(hint string) (User, bool) {
	for _, u := range p.users {
		if u.Subject == hint {
			return u, true
		}
	}
	for _, u := range p.users {
		if u.Email != "" && u.Email == hint {
			return u, true
		}
	}
	return User{}, false
}

// redirectURIAllowed reports whether uri may receive authorization
// responses.
func (p *Provider) redirectURIAllowed(uri string) bool {
	if len(p.redirectURIs) > 0 {
		return slices.Contains(p.redirectURIs, uri)
	}
	return devURL(uri)
}

// postLogoutURIAllowed reports whether end_session may redirect to uri.
func (p *Provider) postLogoutURIAllowed(uri string) bool {
	if len(p.postLogoutURIs) > 0 || len(p.redirectURIs) > 0 {
		return slices.Contains(p.postLogoutURIs, uri)
	}
	return devURL(uri)
}

// devURL reports whether uri is an absolute http or https URL without a
// fragment, which is what development mode accepts.
func devURL(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || strings.Contains(uri, "#") {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func cloneValues(v url.Values) url.Values {
	c := make(url.Values, len(v))
	for k, vs := range v {
		c[k] = slices.Clone(vs)
	}
	return c
}

// RevokedGrants returns how many grants were revoked because a used
// refresh token came back (Options.RevokeOnRefreshReuse).
func (p *Provider) RevokedGrants() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.revokedFamilies)
}

// SIDs returns the session ids (sid claims) issued to the user sub, oldest
// first (Options.SessionIDs).
func (p *Provider) SIDs(sub string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.sids[sub])
}
