package rp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"golang.org/x/oauth2"
)

// Exchange trades the code for tokens: the provider's own handler, or the
// standard exchange of RFC 6749 §4.1.3 with golang.org/x/oauth2 (the
// verifier of RFC 7636 §4.5 and the same redirect_uri as the authorization
// request). The full answer is kept, so the account callback sees every
// member of it.
func (p *Provider) Exchange(ctx context.Context, e *Endpoints, code, verifier, redirectURI string, params url.Values) (account.TokenSet, error) {
	c := p.cfg
	if c.Token.Request != nil {
		t, err := c.Token.Request(ctx, providers.TokenRequest{
			Code: code, CodeVerifier: verifier, RedirectURI: redirectURI, Params: params,
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, URL: e.Token, HTTPClient: p.client,
		})
		if err != nil {
			return account.TokenSet{}, tokenError(c.ID, err)
		}
		t.Normalize(time.Now())
		return t, nil
	}
	conf := &oauth2.Config{
		ClientID:     c.ClientID,
		ClientSecret: c.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: e.Token, AuthStyle: authStyle(c.Client.TokenEndpointAuthMethod)},
		RedirectURL:  redirectURI,
	}
	var opts []oauth2.AuthCodeOption
	if verifier != "" {
		opts = append(opts, oauth2.VerifierOption(verifier))
	}
	for k, v := range c.Token.Params {
		opts = append(opts, oauth2.SetAuthURLParam(k, v))
	}
	// x/oauth2 hides the answer's members behind Token.Extra; a recording
	// client keeps the body so that the whole token set is available.
	rec := &recordingClient{base: p.endpointClient(e, e.Token)} // client assertion, DPoP: clientauth.go
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: rec, Timeout: rec.base.Timeout, CheckRedirect: rec.base.CheckRedirect})
	tok, err := conf.Exchange(ctx, code, opts...)
	if err != nil {
		return account.TokenSet{}, tokenError(c.ID, err)
	}
	var t account.TokenSet
	if json.Unmarshal(rec.body, &t) != nil || t.AccessToken != tok.AccessToken {
		// Not JSON (form-encoded answers): keep what x/oauth2 parsed.
		t = account.TokenSet{AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType, ExpiresIn: tok.ExpiresIn}
		if s, ok := tok.Extra("id_token").(string); ok {
			t.IDToken = s
		}
		if s, ok := tok.Extra("scope").(string); ok {
			t.Scope = s
		}
	}
	if t.AccessToken == "" {
		return account.TokenSet{}, autherr.New(autherr.TokenExchangeFailed, "no_access_token", c.ID, "token", errors.New("the token response has no access_token"))
	}
	if err := p.checkTokenType(t, "token"); err != nil {
		return account.TokenSet{}, err
	}
	t.Normalize(time.Now())
	return t, nil
}

// checkTokenType applies RFC 6749 §5.1 to a token response: token_type is
// REQUIRED, and must be a type this client can use: "Bearer" (RFC 6750),
// or "DPoP" when DPoP-bound tokens were asked for (RFC 9449 §5), both
// compared case-insensitively (RFC 6749 §5.1).
func (p *Provider) checkTokenType(t account.TokenSet, step string) error {
	fail := func(code string, err error) error {
		return autherr.New(autherr.TokenExchangeFailed, code, p.cfg.ID, step, err)
	}
	switch {
	case t.TokenType == "":
		return fail("token_type_missing", errors.New("the token response has no token_type (RFC 6749 §5.1)"))
	case strings.EqualFold(t.TokenType, "bearer"):
		return nil
	case strings.EqualFold(t.TokenType, "dpop") && p.cfg.Client.DPoPBoundAccessTokens:
		return nil
	}
	return fail("token_type", fmt.Errorf("unsupported token_type %q", t.TokenType))
}

func tokenError(provider string, err error) error {
	var e *autherr.Error
	if errors.As(err, &e) {
		return e
	}
	code := "failed"
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re) && ErrorCodePattern.MatchString(re.ErrorCode):
		code = re.ErrorCode // invalid_grant, invalid_client, …: the provider's answer
		err = &answerError{status: re.Response.StatusCode, contentType: re.Response.Header.Get("Content-Type"), size: len(re.Body), code: re.ErrorCode, err: err}
	case errors.As(err, &re):
		code = fmt.Sprintf("http_%d", re.Response.StatusCode)
		err = &answerError{status: re.Response.StatusCode, contentType: re.Response.Header.Get("Content-Type"), size: len(re.Body), err: err}
	case isTimeout(err):
		code = "timeout"
	case errors.Is(err, errBodyTooLarge):
		code = "too_large"
	}
	return autherr.New(autherr.TokenExchangeFailed, code, provider, "token", err)
}

// answerError is a token endpoint's refusal, described without its body:
// status, content type, size and OAuth error code only, so that the log
// holds none of the provider's text. The body stays in the wrapped
// *oauth2.RetrieveError, for errors.As.
type answerError struct {
	status      int
	contentType string
	size        int
	code        string
	err         error
}

func (e *answerError) Error() string {
	s := fmt.Sprintf("the token endpoint answered %d (%s, %d bytes)", e.status, cmp.Or(e.contentType, "no content type"), e.size)
	if e.code != "" {
		s += " error=" + e.code
	}
	return s
}

func (e *answerError) Unwrap() error { return e.err }

func authStyle(m providers.AuthMethod) oauth2.AuthStyle {
	switch m {
	case providers.AuthClientSecretPost, providers.AuthNone, providers.AuthClientSecretJWT, providers.AuthPrivateKeyJWT:
		return oauth2.AuthStyleInParams // the assertions: clientauth.go
	}
	// client_secret_basic, with the form encoding of RFC 6749 §2.3.1.
	return oauth2.AuthStyleInHeader
}

// recordingClient keeps the body of the one answer it fetches.
type recordingClient struct {
	base *http.Client
	body []byte
}

func (rc *recordingClient) RoundTrip(r *http.Request) (*http.Response, error) {
	t := rc.base.Transport
	if t == nil {
		t = http.DefaultTransport
	}
	resp, err := t.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	rc.body = body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// Profile fetches and decodes the provider's profile. For OIDC it is the
// ID token's claims, merged with userinfo when there is an endpoint; the
// userinfo sub must equal the ID token's (Core §5.3.4). For OAuth it is
// the userinfo answer, or the custom handler's result.
func (p *Provider) Profile(ctx context.Context, e *Endpoints, tokens account.TokenSet, claims profile.Claims, params url.Values) (any, error) {
	c := p.cfg
	fail := func(t autherr.Type, code string, err error) error {
		return autherr.New(t, code, c.ID, "userinfo", err)
	}
	if c.UserinfoRequest != nil {
		v, err := c.UserinfoRequest(ctx, providers.UserinfoRequest{Tokens: tokens, URL: e.Userinfo, ClientID: c.ClientID, HTTPClient: p.APIClient(tokens)})
		if err != nil {
			return nil, fail(autherr.UserinfoFailed, "request", err)
		}
		return v, nil
	}
	switch {
	case e.Userinfo != "":
		u := e.Userinfo
		if len(c.UserinfoParams) > 0 {
			pu, err := url.Parse(u)
			if err != nil {
				return nil, fail(autherr.UserinfoFailed, "url", err)
			}
			q := pu.Query()
			for k, v := range c.UserinfoParams {
				q.Set(k, v)
			}
			pu.RawQuery = q.Encode()
			u = pu.String()
		}
		var body json.RawMessage
		// The access token goes in the Authorization header, never in the
		// URL (RFC 9700 §4.3.2, RFC 6750 §2.1).
		if err := providers.FetchJSON(ctx, p.APIClient(tokens), http.MethodGet, u, tokens.AccessToken, nil, nil, &body); err != nil {
			return nil, fail(autherr.UserinfoFailed, userinfoCode(err), err)
		}
		if claims == nil {
			// OAuth 2.0: the answer is the profile, decoded as it is.
			prof, err := c.DecodeProfile(body)
			if err != nil {
				return nil, fail(autherr.OAuthProfileParseError, "decode", err)
			}
			return prof, nil
		}
		var info map[string]any
		if err := json.Unmarshal(body, &info); err != nil {
			return nil, fail(autherr.UserinfoFailed, "not_an_object", err)
		}
		{
			if sub, _ := info["sub"].(string); sub != claims.String("sub") {
				return nil, fail(autherr.UserinfoFailed, "sub_mismatch", fmt.Errorf("userinfo sub %q differs from the ID token's", sub))
			}
			merged := maps.Clone(claims)
			for k, v := range info {
				if !protectedClaim(k) {
					merged[k] = v
				}
			}
			claims = merged
		}
	case claims == nil:
		return nil, fail(autherr.UserinfoFailed, "no_userinfo", errors.New("no userinfo endpoint and no ID token"))
	}
	// Apple posts the user's name on first consent as form field "user".
	if u := params.Get("user"); u != "" && claims != nil {
		var v any
		if json.Unmarshal([]byte(u), &v) == nil {
			claims = maps.Clone(claims)
			claims["user"] = v
		}
	}
	raw, err := json.Marshal(claims)
	if err != nil {
		return nil, fail(autherr.OAuthProfileParseError, "encode", err)
	}
	prof, err := c.DecodeProfile(raw)
	if err != nil {
		return nil, fail(autherr.OAuthProfileParseError, "decode", err)
	}
	return prof, nil
}

// protectedClaim reports whether k is an ID token claim userinfo may not replace.
func protectedClaim(k string) bool {
	switch k {
	case "iss", "sub", "aud", "exp", "iat", "nonce", "azp", "at_hash", "c_hash", "auth_time":
		return true
	}
	return false
}

func userinfoCode(err error) string {
	var he *providers.HTTPError
	switch {
	case errors.As(err, &he):
		return fmt.Sprintf("http_%d", he.StatusCode)
	case isTimeout(err):
		return "timeout"
	}
	return "failed"
}

// ErrorCodePattern is what an OAuth error code from a provider must look
// like before it is used as an error code of ours (RFC 6749 §5.2 allows
// more; a provider's text never reaches a page or log unchecked).
var ErrorCodePattern = regexp.MustCompile(`^[a-z_]{1,64}$`)
