package rp

import (
	"maps"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// authRequest is the part of a provider's authorization request that is
// the same for every sign-in: the endpoint without its query, and the
// configured parameters with the OpenID Connect default scope. It is built
// once per resolved endpoints, not parsed again on every sign-in.
type authRequest struct {
	e      *Endpoints
	url    string
	params url.Values
	err    error
}

// AuthorizationRequest returns the authorization endpoint and a copy of
// its fixed parameters, for the caller to add to. The copy shares its
// value slices with the cached one: callers Set (or Add) parameters, and
// never write into a value slice in place.
func (p *Provider) AuthorizationRequest(e *Endpoints) (string, url.Values, error) {
	a := p.authReq.Load()
	if a == nil || a.e != e {
		a = newAuthRequest(p.cfg, e)
		p.authReq.Store(a)
	}
	if a.err != nil {
		return "", nil, a.err
	}
	return a.url, maps.Clone(a.params), nil
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
	return &authRequest{e: e, url: authURL, params: q}
}
