package rp

// Pushed Authorization Requests (RFC 9126): the authorization request's
// parameters go to the provider over the back channel, with client
// authentication, and the browser carries only a reference to them. They
// can then be neither read nor altered in the browser.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// usesPAR reports whether authorization requests to the provider are
// pushed: its metadata requires it, or the configuration does.
func (p *Provider) usesPAR(e *Endpoints) bool {
	return e.parRequired || p.cfg.Client.RequirePushedAuthorizationRequests
}

// authorizationURL is AuthorizationURL for the complete request q at
// authURL, with DPoP and PAR.
func (p *Provider) authorizationURL(ctx context.Context, e *Endpoints, authURL string, q url.Values) (string, error) {
	c := p.cfg
	if c.Client.DPoPBoundAccessTokens {
		k, err := p.dpop()
		if err != nil {
			return "", autherr.New(autherr.Configuration, "dpop_key", c.ID, "signin", err)
		}
		q.Set("dpop_jkt", k.jkt)
	}
	if !p.usesPAR(e) {
		return authURL + "?" + q.Encode(), nil
	}
	if e.par == "" {
		return "", autherr.New(autherr.OAuthSignin, "par_endpoint_missing", c.ID, "par", fmt.Errorf("pushed authorization requests are required, and the provider has no pushed_authorization_request_endpoint configured or discovered"))
	}
	uri, err := p.pushAuthorization(ctx, e, q)
	if err != nil {
		return "", err
	}
	return authURL + "?" + url.Values{"client_id": {c.ClientID}, "request_uri": {uri}}.Encode(), nil
}

// pushAuthorization posts the authorization request q to the PAR endpoint
// with client authentication (RFC 9126 §2.1) and returns the request_uri
// of the answer (§2.2). A provider that cannot be reached or fails (5xx)
// is ProviderUnavailable; a refusal (4xx: invalid_client,
// invalid_request, …) or a malformed answer is OAuthSignin.
func (p *Provider) pushAuthorization(ctx context.Context, e *Endpoints, q url.Values) (string, error) {
	c := p.cfg
	fail := func(t autherr.Type, code string, err error) error {
		return autherr.New(t, code, c.ID, "par", err)
	}
	if p.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.par, nil)
	if err != nil {
		return "", fail(autherr.OAuthSignin, "par_endpoint", err)
	}
	p.setClientAuth(req, q) // q is this request's own (authorizationRequest clones it)
	body := q.Encode()
	req.Body = io.NopCloser(strings.NewReader(body))
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := p.endpointClient(e, e.par).Do(req)
	if err != nil {
		code := "par_unavailable"
		if isTimeout(err) {
			code = "par_timeout"
		}
		return "", fail(autherr.ProviderUnavailable, code, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, providers.MaxResponseBytes+1))
	switch {
	case err != nil:
		return "", fail(autherr.ProviderUnavailable, "par_unavailable", err)
	case len(raw) > providers.MaxResponseBytes:
		return "", fail(autherr.ProviderUnavailable, "par_unavailable", errBodyTooLarge)
	case resp.StatusCode >= 500:
		return "", fail(autherr.ProviderUnavailable, "par_unavailable", fmt.Errorf("the PAR endpoint answered %d", resp.StatusCode))
	case resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK:
		// RFC 9126 §2.3: an OAuth error answer. Its text is the
		// provider's: logged, not shown.
		var oe struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		json.Unmarshal(raw, &oe)
		return "", fail(autherr.OAuthSignin, "par_rejected", fmt.Errorf("the PAR endpoint answered %d error=%.64q: %.200q", resp.StatusCode, oe.Error, oe.Description))
	}
	var ok struct {
		RequestURI string `json:"request_uri"`
	}
	if err := json.Unmarshal(raw, &ok); err != nil || ok.RequestURI == "" || len(ok.RequestURI) > 2048 {
		return "", fail(autherr.OAuthSignin, "par_malformed", fmt.Errorf("the PAR endpoint's answer has no usable request_uri (%v)", err))
	}
	return ok.RequestURI, nil
}
