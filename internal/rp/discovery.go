package rp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Metadata is what Gatehouse uses of a provider's discovery document
// (OpenID Connect Discovery 1.0 §3, RFC 8414 §2).
type Metadata struct {
	Issuer                          string   `json:"issuer"`
	AuthorizationEndpoint           string   `json:"authorization_endpoint"`
	TokenEndpoint                   string   `json:"token_endpoint"`
	UserinfoEndpoint                string   `json:"userinfo_endpoint"`
	JWKSURI                         string   `json:"jwks_uri"`
	EndSessionEndpoint              string   `json:"end_session_endpoint"`
	CodeChallengeMethodsSupported   []string `json:"code_challenge_methods_supported"`
	IDTokenSigningAlgValues         []string `json:"id_token_signing_alg_values_supported"`
	IssParameterSupported           bool     `json:"authorization_response_iss_parameter_supported"`
	TokenEndpointAuthMethods        []string `json:"token_endpoint_auth_methods_supported"`
	PushedAuthorizationRequestEndpt string   `json:"pushed_authorization_request_endpoint"`
	RequirePushedAuthorizationReqs  bool     `json:"require_pushed_authorization_requests"`
}

// Endpoints is a provider's resolved configuration: the configured values
// with discovery filling the gaps. Immutable once built.
type Endpoints struct {
	// Issuer is the provider's issuer identifier ("" for a plain OAuth
	// provider configured by URLs).
	Issuer string
	// Token, Userinfo and EndSession are the endpoints' URLs ("" when the
	// provider has none).
	Token, Userinfo, EndSession string
	// IssRequired: the provider says it sends RFC 9207 iss.
	IssRequired bool
	// PKCEUnsupported: the metadata lists code challenge methods and S256
	// is not among them (RFC 9700 §2.1.1: use PKCE only once the AS is
	// known to support it).
	PKCEUnsupported bool

	auth, jwks string
	// perTenant: issuer is a template with "{tenantid}", as Microsoft's
	// multi-tenant endpoints publish; each ID token's iss is checked
	// against the template filled with the token's own tid claim.
	perTenant bool
	verifier  *oidc.IDTokenVerifier
	keys      *keySet
	algs      []string
	// par is the pushed authorization request endpoint (RFC 9126 §5);
	// parRequired: the metadata requires its use.
	par         string
	parRequired bool
}

// VerifiesTokens reports whether the provider's ID tokens (and logout
// tokens) can be verified: it has an issuer and a key set.
func (e *Endpoints) VerifiesTokens() bool { return e.verifier != nil }

// Provider is one configured OAuth provider with its resolved
// endpoints, fetched at most once (again only after a failure, and then
// not more often than retryAfter).
type Provider struct {
	cfg     *providers.OAuth
	client  *http.Client
	skew    time.Duration
	timeout time.Duration // per call (Config.ProviderTimeout)

	resolved   atomic.Pointer[Endpoints]
	ext        clientExt                      // PAR, client assertions, DPoP: clientauth.go, dpop.go
	authReq    atomic.Pointer[authRequest]    // authrequest.go
	logoutJTIs *bounded.Map[string, struct{}] // logouttoken.go
	mu         sync.Mutex
	lastErr    error
	lastTry    time.Time
}

// New returns the relying-party client of the provider configured by cfg
// (already validated): calls go through client (see HTTPClient), each
// bounded by timeout; token times are checked with skew of leeway.
// Nothing is fetched until the first call needs it.
func New(cfg *providers.OAuth, client *http.Client, skew, timeout time.Duration) *Provider {
	p := &Provider{cfg: cfg, client: client, skew: skew, timeout: timeout,
		logoutJTIs: bounded.New[string, struct{}](maxLogoutJTIs)}
	p.ext.nonces = bounded.New[string, string](maxNonceServers)
	return p
}

// Config returns the provider's configuration.
func (p *Provider) Config() *providers.OAuth { return p.cfg }

// retryAfter is how long a failed discovery is remembered before the next
// sign-in tries again: a provider that is down is not hammered, and one
// that comes back is used within seconds.
const retryAfter = 5 * time.Second

// NeedsDiscovery reports whether any endpoint must come from metadata.
func (p *Provider) NeedsDiscovery() bool {
	c := p.cfg
	if c.WellKnown == "" && c.Issuer == "" {
		return false
	}
	missing := c.Authorization.URL == "" || (c.Token.URL == "" && c.Token.Request == nil)
	if c.Type == providers.TypeOIDC {
		return missing || c.JWKSEndpoint == ""
	}
	return missing || (c.UserinfoURL == "" && c.UserinfoRequest == nil)
}

// Endpoints returns the resolved endpoints, running discovery the first
// time it is needed.
func (p *Provider) Endpoints(ctx context.Context) (*Endpoints, error) {
	if e := p.resolved.Load(); e != nil {
		return e, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.resolved.Load(); e != nil {
		return e, nil
	}
	if p.lastErr != nil && time.Since(p.lastTry) < retryAfter {
		return nil, p.lastErr
	}
	p.lastTry = time.Now()
	e, err := p.resolve(ctx)
	if err != nil {
		p.lastErr = err
		return nil, err
	}
	p.lastErr = nil
	p.resolved.Store(e)
	return e, nil
}

func (p *Provider) resolve(ctx context.Context) (*Endpoints, error) {
	c := p.cfg
	e := &Endpoints{Issuer: c.Issuer, auth: c.Authorization.URL, Token: c.Token.URL, Userinfo: c.UserinfoURL, jwks: c.JWKSEndpoint,
		par: c.Client.PushedAuthorizationRequestEndpoint}
	if p.NeedsDiscovery() {
		m, err := p.discover(ctx)
		if err != nil {
			return nil, err
		}
		e.Issuer = m.Issuer
		e.perTenant = strings.Contains(m.Issuer, tenantPlaceholder)
		e.auth = cmp.Or(e.auth, m.AuthorizationEndpoint)
		e.Token = cmp.Or(e.Token, m.TokenEndpoint)
		e.Userinfo = cmp.Or(e.Userinfo, m.UserinfoEndpoint)
		e.jwks = cmp.Or(e.jwks, m.JWKSURI)
		e.EndSession = m.EndSessionEndpoint
		e.IssRequired = m.IssParameterSupported
		e.PKCEUnsupported = m.CodeChallengeMethodsSupported != nil && !slices.Contains(m.CodeChallengeMethodsSupported, "S256")
		e.algs = m.IDTokenSigningAlgValues
		e.par = cmp.Or(e.par, m.PushedAuthorizationRequestEndpt)
		e.parRequired = m.RequirePushedAuthorizationReqs
	}
	if e.auth == "" {
		return nil, errors.New("no authorization endpoint configured or discovered")
	}
	if e.Token == "" && c.Token.Request == nil {
		return nil, errors.New("no token endpoint configured or discovered")
	}
	if e.jwks != "" && e.Issuer != "" {
		algs := e.algs
		var hmacKey []byte
		switch a := c.Client.IDTokenSignedResponseAlg; {
		case a == "HS256" && c.ClientSecret != "":
			// Pinned by the provider's configuration (LINE signs ID
			// tokens with HS256): the HMAC key is the client secret
			// (OpenID Connect Core §10.1), never a key from the JWKS.
			algs, hmacKey = []string{a}, []byte(c.ClientSecret)
		case a != "":
			algs = []string{a}
		}
		if hmacKey == nil {
			// Only asymmetric algorithms: a JWKS never holds the client's
			// secret, and accepting HS256 with a public key as the secret
			// is the classic key-confusion attack.
			algs = slices.DeleteFunc(slices.Clone(algs), func(a string) bool { return a == "none" || strings.HasPrefix(a, "HS") })
		}
		if len(algs) == 0 {
			algs = []string{oidc.RS256}
		}
		e.algs = algs
		e.keys = newKeySet(e.jwks, p.client, p.timeout, algs, hmacKey)
		keys := e.keys
		skew := p.skew
		e.verifier = oidc.NewVerifier(e.Issuer, keys, &oidc.Config{
			ClientID:             c.ClientID,
			SupportedSigningAlgs: algs,
			// go-oidc checks exp with no leeway; allow the configured
			// clock skew (oauth4webapi and Auth.js allow 30 s).
			Now: func() time.Time { return time.Now().Add(-skew) },
			// A per-tenant issuer is checked in verifyIDToken instead.
			SkipIssuerCheck: e.perTenant,
		})
	} else if c.Type == providers.TypeOIDC {
		return nil, errors.New("no jwks_uri configured or discovered: ID tokens could not be verified")
	}
	return e, nil
}

// discover fetches the metadata document and checks that its issuer is
// the configured one, exactly (OpenID Connect Discovery §4.3, RFC 8414 §3.3,
// ASVS 10.5.3).
func (p *Provider) discover(ctx context.Context) (*Metadata, error) {
	c := p.cfg
	u := c.WellKnown
	if u == "" {
		u = strings.TrimSuffix(c.Issuer, "/") + "/.well-known/openid-configuration"
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("discovery %s: %w", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("discovery %s: %w", u, err)
	}
	if len(body) > providers.MaxResponseBytes {
		return nil, fmt.Errorf("discovery %s: %w", u, errBodyTooLarge)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("discovery %s answered %d", u, resp.StatusCode)
	}
	var m Metadata
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("discovery %s: not a JSON metadata document: %w", u, err)
	}
	if c.Issuer != "" && m.Issuer != c.Issuer && !tenantTemplate(c.Issuer, m.Issuer) {
		return nil, fmt.Errorf("discovery %s: issuer %q differs from the configured %q", u, m.Issuer, c.Issuer)
	}
	if m.Issuer == "" {
		return nil, fmt.Errorf("discovery %s: no issuer", u)
	}
	if err := m.noDowngrade(); err != nil {
		return nil, fmt.Errorf("discovery %s: %w", u, err)
	}
	return &m, nil
}

// noDowngrade refuses metadata whose issuer is https but which sends the
// browser or the client to an endpoint over plain http: the client secret,
// the code, tokens and (at sign-out) the ID token as id_token_hint would
// cross the network in clear (RFC 9700 §2.6 and RP-Initiated Logout 1.0
// §2, which wants TLS for the end_session_endpoint). An http issuer is a
// development provider on the application's own choice and is left alone.
func (m *Metadata) noDowngrade() error {
	if !strings.HasPrefix(m.Issuer, "https://") {
		return nil
	}
	for _, e := range []struct{ name, url string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"userinfo_endpoint", m.UserinfoEndpoint},
		{"jwks_uri", m.JWKSURI},
		{"end_session_endpoint", m.EndSessionEndpoint},
		{"pushed_authorization_request_endpoint", m.PushedAuthorizationRequestEndpt},
	} {
		if e.url != "" && !strings.HasPrefix(strings.ToLower(e.url), "https://") {
			return fmt.Errorf("%s %q is not https while the issuer is", e.name, e.url)
		}
	}
	return nil
}

// tenantPlaceholder is how Microsoft's multi-tenant metadata writes the
// tenant in its issuer.
const tenantPlaceholder = "{tenantid}"

// tenantTemplate reports whether discovered is configured with one path
// segment (common, organizations, …) replaced by "{tenantid}": the only
// issuer mismatch discovery accepts.
func tenantTemplate(configured, discovered string) bool {
	prefix, suffix, ok := strings.Cut(discovered, tenantPlaceholder)
	if !ok || strings.Contains(suffix, tenantPlaceholder) {
		return false
	}
	mid, ok := strings.CutPrefix(configured, prefix)
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, suffix)
	return ok && mid != "" && !strings.ContainsAny(mid, "/?#")
}

var tenantIDPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// tenantIssuer returns the issuer an ID token with tenant claim tid must
// carry under a per-tenant template, or "" when tid is not a tenant id.
func tenantIssuer(template, tid string) string {
	if !tenantIDPattern.MatchString(tid) {
		return ""
	}
	return strings.Replace(template, tenantPlaceholder, tid, 1)
}
