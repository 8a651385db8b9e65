package rp

// Client authentication with a signed JWT (client_secret_jwt and
// private_key_jwt, RFC 7523 §2.2 and §3, OpenID Connect Core §9), and the
// transport that adds it, and DPoP proofs, to the requests sent to the
// token and PAR endpoints.

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/gatehouse-auth/gatehouse/internal/bounded"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// clientExt is a provider's state for PAR, client assertions and DPoP.
type clientExt struct {
	dpopOnce sync.Once
	dpopKey  *dpopKey
	dpopErr  error
	nonces   *bounded.Map[string, string] // origin → latest DPoP-Nonce
}

// maxNonceServers bounds the DPoP nonces kept, the latest of each server
// (scheme://host): nonces are per server (RFC 9449 §8, §9). One that is
// forgotten is asked for again.
const maxNonceServers = 256

// maxFormBytes bounds the form of a token or PAR request that
// endpointTransport reads back to sign into.
const maxFormBytes = 64 << 10

// assertionType is client_assertion_type for a JWT (RFC 7523 §2.2).
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionLifetime is how long a client assertion is valid: long enough
// for one request, short enough that a leaked one is soon useless
// (RFC 7523 §3 item 4).
const assertionLifetime = time.Minute

// usesAssertion reports whether the client authenticates with a JWT.
func (p *Provider) usesAssertion() bool {
	m := p.cfg.Client.TokenEndpointAuthMethod
	return m == providers.AuthClientSecretJWT || m == providers.AuthPrivateKeyJWT
}

// clientAssertion returns a new client assertion for audience aud: iss and
// sub the client_id, a random jti, exp a minute ahead (RFC 7523 §3). It is
// signed with HS256 and the client secret (client_secret_jwt), or with the
// first key of Client.JWKS, its kid in the header (private_key_jwt).
func (p *Provider) clientAssertion(aud string) (string, error) {
	c := p.cfg
	opts := (&jose.SignerOptions{}).WithType("JWT")
	var sk jose.SigningKey
	switch c.Client.TokenEndpointAuthMethod {
	case providers.AuthClientSecretJWT:
		sk = jose.SigningKey{Algorithm: jose.HS256, Key: []byte(c.ClientSecret)}
	case providers.AuthPrivateKeyJWT:
		k := c.Client.JWKS.Keys[0] // checked by Validate: private, with a kid
		alg, err := providers.SigningAlgorithm(&k)
		if err != nil {
			return "", err
		}
		sk = jose.SigningKey{Algorithm: alg, Key: k.Key}
		opts = opts.WithHeader("kid", k.KeyID)
	default:
		return "", fmt.Errorf("no client assertion for %q", c.Client.TokenEndpointAuthMethod)
	}
	signer, err := jose.NewSigner(sk, opts)
	if err != nil {
		return "", err
	}
	now := time.Now()
	return jwt.Signed(signer).Claims(jwt.Claims{
		Issuer:   c.ClientID,
		Subject:  c.ClientID,
		Audience: jwt.Audience{aud},
		ID:       rand.Text(),
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(assertionLifetime)),
	}).Serialize()
}

// assertionAudience is the aud of client assertions: the issuer
// identifier, as RFC 7523 §3 allows and FAPI 2.0 requires,
// so that one assertion serves the token and PAR endpoints alike and
// cannot be replayed at another server. Without an issuer (a plain OAuth
// provider configured by URLs) it is the endpoint's URL.
func assertionAudience(e *Endpoints, endpoint string) string {
	if e.Issuer != "" && !e.perTenant {
		return e.Issuer
	}
	return endpoint
}

// endpointClient is the HTTP client for the token and PAR endpoints:
// p.client with endpointTransport in front of its transport when the
// client signs assertions or DPoP proofs. It never follows a redirect,
// whatever Config.HTTPClient does: the requests carry the client's
// credentials, and endpointTransport signs a new assertion into every
// request it sends.
func (p *Provider) endpointClient(e *Endpoints, endpoint string) *http.Client {
	c := &http.Client{Transport: p.client.Transport, Timeout: p.client.Timeout, CheckRedirect: noRedirect, Jar: p.client.Jar}
	if p.usesAssertion() || p.cfg.Client.DPoPBoundAccessTokens {
		c.Transport = &endpointTransport{p: p, aud: assertionAudience(e, endpoint), base: p.client.Transport}
	}
	return c
}

// endpointTransport authenticates the client of a form POST to the token
// or PAR endpoint with a client assertion, and adds a DPoP proof (RFC 9449
// §5). golang.org/x/oauth2 cannot do either: it posts client_id (its
// AuthStyleInParams) and this transport adds the rest to the form. When
// the server answers use_dpop_nonce (RFC 9449 §8), the request is sent
// once more with its nonce, and a new assertion (its jti is single use).
type endpointTransport struct {
	p    *Provider
	aud  string
	base http.RoundTripper
}

func (t *endpointTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.base
	if base == nil {
		base = http.DefaultTransport
	}
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxFormBytes+1))
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(b) > maxFormBytes {
			// Cut, the form would be sent truncated.
			return nil, fmt.Errorf("the request's form is larger than %d bytes", maxFormBytes)
		}
		body = b
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, err
	}
	if t.p.usesAssertion() {
		// The assertion replaces the secret (RFC 7523 §2.2); x/oauth2
		// would post it with client_secret_jwt.
		form.Del("client_secret")
		form.Set("client_id", t.p.cfg.ClientID)
		form.Set("client_assertion_type", assertionType)
	}
	for attempt := 0; ; attempt++ {
		req := r.Clone(r.Context())
		if t.p.usesAssertion() {
			a, err := t.p.clientAssertion(t.aud)
			if err != nil {
				return nil, fmt.Errorf("signing the client assertion: %w", err)
			}
			form.Set("client_assertion", a)
			body = []byte(form.Encode())
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = nil
		if t.p.cfg.Client.DPoPBoundAccessTokens {
			if err := t.p.addProof(req, ""); err != nil {
				return nil, err
			}
		}
		resp, err := base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		dpop := t.p.cfg.Client.DPoPBoundAccessTokens
		if !dpop || !t.p.keepNonce(req.URL, resp) || attempt > 0 || resp.StatusCode != http.StatusBadRequest {
			return resp, nil
		}
		// RFC 9449 §8: a 400 with error use_dpop_nonce asks for a proof
		// with the nonce it sent in DPoP-Nonce.
		raw, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		var oe struct{ Error string }
		if json.Unmarshal(raw, &oe) != nil || oe.Error != "use_dpop_nonce" {
			resp.Body = io.NopCloser(bytes.NewReader(raw))
			return resp, nil
		}
	}
}

// setClientAuth adds client_secret_basic or client_secret_post
// credentials to a request the client makes itself (the PAR request);
// endpointTransport adds assertions.
func (p *Provider) setClientAuth(req *http.Request, form url.Values) {
	c := p.cfg
	form.Set("client_id", c.ClientID)
	switch c.Client.TokenEndpointAuthMethod {
	case providers.AuthClientSecretPost:
		form.Set("client_secret", c.ClientSecret)
	case "", providers.AuthClientSecretBasic:
		// RFC 6749 §2.3.1: both parts form-encoded first.
		req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.ClientSecret))
	}
}

// ClientJWKS returns the public keys of Client.JWKS, for the
// application to publish at the jwks_uri it registered.
func ClientJWKS(c providers.Client) jose.JSONWebKeySet {
	var set jose.JSONWebKeySet
	if c.JWKS == nil {
		return set
	}
	for _, k := range c.JWKS.Keys {
		pub := k.Public()
		if !pub.Valid() {
			continue
		}
		pub.Use = "sig"
		set.Keys = append(set.Keys, pub)
	}
	return set
}

// originOf names the server of u for DPoP nonces.
func originOf(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }
