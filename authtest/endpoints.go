package authtest

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

// discovery is the provider metadata of OpenID Connect Discovery 1.0 §3.
type discovery struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	UserinfoEndpoint                  string   `json:"userinfo_endpoint"`
	JWKSURI                           string   `json:"jwks_uri"`
	EndSessionEndpoint                string   `json:"end_session_endpoint"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	SubjectTypesSupported             []string `json:"subject_types_supported"`
	IDTokenSigningAlgValuesSupported  []string `json:"id_token_signing_alg_values_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	AuthorizationResponseISSSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ClaimsSupported                   []string `json:"claims_supported"`

	TokenEndpointAuthSigningAlgs       []string `json:"token_endpoint_auth_signing_alg_values_supported"`
	PushedAuthorizationRequestEndpoint string   `json:"pushed_authorization_request_endpoint"`
	RequirePushedAuthorizationRequests bool     `json:"require_pushed_authorization_requests"`
	DPoPSigningAlgs                    []string `json:"dpop_signing_alg_values_supported"`
}

func (p *Provider) serveDiscovery(w http.ResponseWriter, r *http.Request, f Faults) {
	claims := []string{"iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "azp",
		"name", "picture", "email", "email_verified"}
	var extra []string
	for _, u := range p.users {
		for k := range u.Extra {
			if !slices.Contains(claims, k) && !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
		}
	}
	sort.Strings(extra)
	claims = append(claims, extra...)
	d := discovery{
		Issuer:                            p.issuer,
		AuthorizationEndpoint:             p.endpointURL("/authorize"),
		TokenEndpoint:                     p.endpointURL("/token"),
		UserinfoEndpoint:                  p.endpointURL("/userinfo"),
		JWKSURI:                           p.endpointURL("/jwks"),
		EndSessionEndpoint:                p.endpointURL("/end_session"),
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query", "form_post"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		SubjectTypesSupported:             []string{"public"},
		IDTokenSigningAlgValuesSupported:  []string{string(p.alg)},
		CodeChallengeMethodsSupported:     []string{"S256"},
		TokenEndpointAuthMethodsSupported: []string{"client_secret_basic", "client_secret_post", "none", "client_secret_jwt", "private_key_jwt"},
		AuthorizationResponseISSSupported: true,
		ScopesSupported:                   []string{"openid", "profile", "email"},
		ClaimsSupported:                   claims,

		TokenEndpointAuthSigningAlgs:       algNames(assertionAlgs),
		PushedAuthorizationRequestEndpoint: p.endpointURL("/par"),
		RequirePushedAuthorizationRequests: p.requirePAR,
		DPoPSigningAlgs:                    algNames(dpopAlgs),
	}
	if f.DiscoveryWrongIssuer {
		d.Issuer = p.base + evilPath
	}
	w.Header().Set("Cache-Control", "no-cache")
	writeJSON(w, http.StatusOK, d)
}

func (p *Provider) serveJWKS(w http.ResponseWriter, r *http.Request, f Faults) {
	if f.JWKSFail {
		http.Error(w, "internal server error (authtest fault JWKSFail)", http.StatusInternalServerError)
		return
	}
	set, err := p.jwks(f)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "application/jwk-set+json")
	body, err := json.Marshal(set)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Write(body)
}

// oauthError is an OAuth 2.0 error answer (RFC 6749 §5.2).
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// tokenResponse is a successful token answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	IDToken      string `json:"id_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
	Padding      string `json:"authtest_padding,omitempty"`
}

func (p *Provider) serveToken(w http.ResponseWriter, r *http.Request, f Faults) {
	if f.TokenDelay > 0 {
		t := time.NewTimer(f.TokenDelay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch {
	case f.TokenServerError:
		http.Error(w, "internal server error (authtest fault TokenServerError)", http.StatusInternalServerError)
		return
	case f.TokenHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html>\n<html lang=\"en\"><head><title>Maintenance</title></head>" +
			"<body><h1>We'll be back soon</h1><p>authtest fault TokenHTML</p></body></html>\n"))
		return
	}
	clientID, e, status := p.authenticateClient(w, r)
	if e != nil {
		writeJSON(w, status, e)
		return
	}
	if f.TokenInvalidGrant {
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_grant", "authtest fault TokenInvalidGrant"})
		return
	}
	for k, vs := range r.PostForm {
		if len(vs) > 1 {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "parameter " + k + " repeated"})
			return
		}
	}
	// DPoP (RFC 9449 §5): a proof makes the tokens DPoP-bound.
	var jkt string
	if r.Header.Get("DPoP") != "" {
		if jkt, e = p.checkProof(r, p.endpointURL("/token"), ""); e != nil {
			writeDPoPError(w, http.StatusBadRequest, e, p.dpopNonce)
			return
		}
	}
	var resp tokenResponse
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		resp, e = p.exchangeCode(r.PostForm, clientID, jkt, f)
	case "refresh_token":
		resp, e = p.exchangeRefresh(r.PostForm, clientID, jkt, f)
	case "":
		e = &oauthError{"invalid_request", "grant_type is missing"}
	default:
		e = &oauthError{"unsupported_grant_type", "grant_type must be authorization_code or refresh_token"}
	}
	if e != nil {
		writeJSON(w, http.StatusBadRequest, e)
		return
	}
	if f.TokenOmitIDToken {
		resp.IDToken = ""
	}
	if f.TokenHugeBody {
		resp.Padding = strings.Repeat("x", 2<<20+4096)
	}
	w.Header().Set("Pragma", "no-cache")
	writeJSON(w, http.StatusOK, resp)
}

// authenticateClient authenticates the client of a token request (RFC
// 6749 §2.3.1) and returns its client_id, or the error to answer with its
// status.
func (p *Provider) authenticateClient(w http.ResponseWriter, r *http.Request) (string, *oauthError, int) {
	form := r.PostForm
	user, pass, basic := r.BasicAuth()
	hasAuthz := r.Header.Get("Authorization") != ""
	if form.Has("client_assertion") || form.Has("client_assertion_type") {
		if hasAuthz || form.Has("client_secret") {
			return "", &oauthError{"invalid_request", "the client used more than one authentication method"}, http.StatusBadRequest
		}
		return p.verifyAssertion(form)
	}
	if hasAuthz && !basic {
		w.Header().Set("WWW-Authenticate", `Basic realm="authtest"`)
		return "", &oauthError{"invalid_client", "unsupported Authorization header"}, http.StatusUnauthorized
	}
	if basic && form.Has("client_secret") {
		return "", &oauthError{"invalid_request", "the client used more than one authentication method"}, http.StatusBadRequest
	}
	var id, secret string
	switch {
	case basic:
		var err1, err2 error
		id, err1 = url.QueryUnescape(user)
		secret, err2 = url.QueryUnescape(pass)
		if err1 != nil || err2 != nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="authtest"`)
			return "", &oauthError{"invalid_client", "malformed Basic credentials"}, http.StatusUnauthorized
		}
		if form.Has("client_id") && form.Get("client_id") != id {
			return "", &oauthError{"invalid_request", "client_id differs from the Basic credentials"}, http.StatusBadRequest
		}
	case form.Has("client_secret"):
		id, secret = form.Get("client_id"), form.Get("client_secret")
	default:
		id = form.Get("client_id")
		if id == p.clientID && p.publicClient {
			return id, nil, 0
		}
		if id == p.clientID {
			return "", &oauthError{"invalid_client", "client authentication required"}, http.StatusUnauthorized
		}
		return "", &oauthError{"invalid_client", "unknown client"}, http.StatusUnauthorized
	}
	idOK := subtle.ConstantTimeCompare([]byte(id), []byte(p.clientID)) == 1
	secretOK := subtle.ConstantTimeCompare([]byte(secret), []byte(p.clientSecret)) == 1
	if !idOK || !secretOK {
		if basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="authtest"`)
		}
		return "", &oauthError{"invalid_client", "client authentication failed"}, http.StatusUnauthorized
	}
	return id, nil, 0
}

// exchangeCode answers the authorization_code grant. A code is spent by
// its first presentation, right or wrong; presenting it again revokes the
// tokens it gave (RFC 6749 §4.1.2).
func (p *Provider) exchangeCode(form url.Values, clientID, jkt string, f Faults) (tokenResponse, *oauthError) {
	code := form.Get("code")
	if code == "" {
		return tokenResponse{}, &oauthError{"invalid_request", "code is missing"}
	}
	p.mu.Lock()
	c, ok := p.codes[code]
	replay := ok && c.used
	if ok {
		c.used = true
	}
	if replay {
		c.revoked = true
		p.revokeLocked(c.issued)
		c.issued = nil
	}
	p.mu.Unlock()
	switch {
	case !ok || time.Now().After(c.expires):
		return tokenResponse{}, &oauthError{"invalid_grant", "unknown or expired code"}
	case replay:
		return tokenResponse{}, &oauthError{"invalid_grant", "code already used"}
	case c.clientID != clientID:
		return tokenResponse{}, &oauthError{"invalid_grant", "code was issued to another client"}
	case form.Get("redirect_uri") != c.redirectURI:
		return tokenResponse{}, &oauthError{"invalid_grant", "redirect_uri differs from the authorization request's"}
	case c.dpopJKT != "" && c.dpopJKT != jkt:
		return tokenResponse{}, &oauthError{"invalid_grant", "the code is bound to another DPoP key (dpop_jkt)"}
	}
	verifier := form.Get("code_verifier")
	if !validVerifier(verifier) {
		return tokenResponse{}, &oauthError{"invalid_grant", "code_verifier is missing or malformed"}
	}
	sum := sha256.Sum256([]byte(verifier))
	if subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(c.challenge)) != 1 {
		return tokenResponse{}, &oauthError{"invalid_grant", "code_verifier does not match code_challenge"}
	}
	resp, err := p.issue(c.grant, true, jkt, f)
	if err != nil {
		return tokenResponse{}, &oauthError{"server_error", err.Error()}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.revoked {
		// Replayed while these were being made.
		p.revokeLocked([]string{resp.AccessToken, resp.RefreshToken})
		return tokenResponse{}, &oauthError{"invalid_grant", "code already used"}
	}
	c.issued = append(c.issued, resp.AccessToken, resp.RefreshToken)
	return resp, nil
}

// revokeLocked forgets the access and refresh tokens toks. p.mu must be
// held.
func (p *Provider) revokeLocked(toks []string) {
	for _, t := range toks {
		delete(p.access, t)
		delete(p.refresh, t)
	}
}

// validVerifier reports whether v is a PKCE code_verifier: 43 to 128
// unreserved characters (RFC 7636 §4.1).
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, c := range []byte(v) {
		if !isUnreserved(c) {
			return false
		}
	}
	return true
}

func isUnreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// exchangeRefresh answers the refresh_token grant, rotating the refresh
// token.
func (p *Provider) exchangeRefresh(form url.Values, clientID, jkt string, f Faults) (tokenResponse, *oauthError) {
	rt := form.Get("refresh_token")
	if rt == "" {
		return tokenResponse{}, &oauthError{"invalid_request", "refresh_token is missing"}
	}
	p.mu.Lock()
	g, ok := p.refresh[rt]
	if ok && g.clientID == clientID {
		delete(p.refresh, rt)
		p.usedRefresh[rt] = g.family
	}
	if !ok && p.revokeOnReuse {
		// A used refresh token again: someone holds a copy. Revoke the
		// whole grant (RFC 9700 §4.14.2).
		if family, used := p.usedRefresh[rt]; used && !p.revokedFamilies[family] {
			p.revokedFamilies[family] = true
			for k, t := range p.refresh {
				if t.family == family {
					delete(p.refresh, k)
				}
			}
			for k, t := range p.access {
				if t.family == family {
					delete(p.access, k)
				}
			}
		}
	}
	p.mu.Unlock()
	if !ok || time.Now().After(g.expires) {
		return tokenResponse{}, &oauthError{"invalid_grant", "unknown, used or expired refresh token"}
	}
	if g.clientID != clientID {
		return tokenResponse{}, &oauthError{"invalid_grant", "refresh token was issued to another client"}
	}
	if g.jkt != "" && g.jkt != jkt {
		return tokenResponse{}, &oauthError{"invalid_grant", "the refresh token is bound to another DPoP key"}
	}
	gr := g.grant
	if s := form.Get("scope"); s != "" {
		granted := strings.Fields(gr.scope)
		for _, sc := range strings.Fields(s) {
			if !slices.Contains(granted, sc) {
				return tokenResponse{}, &oauthError{"invalid_scope", "scope " + sc + " was not granted"}
			}
		}
		gr.scope = strings.Join(strings.Fields(s), " ")
	}
	resp, err := p.issue(gr, p.repeatNonce, jkt, f)
	if err != nil {
		return tokenResponse{}, &oauthError{"server_error", err.Error()}
	}
	return resp, nil
}

// issue makes the tokens for g. withNonce is false on refresh, whose ID
// token carries no nonce. With jkt, the thumbprint of a DPoP key, the
// access token is of type DPoP and bound to the key (RFC 9449 §6), and
// so is the refresh token of a public client (§5).
func (p *Provider) issue(g grant, withNonce bool, jkt string, f Faults) (tokenResponse, error) {
	now := time.Now()
	resp := tokenResponse{
		AccessToken:  randomToken(),
		TokenType:    "Bearer",
		ExpiresIn:    int(accessTokenLifetime / time.Second),
		RefreshToken: randomToken(),
		Scope:        g.scope,
	}
	if jkt != "" {
		resp.TokenType = "DPoP"
	}
	if hasScope(g.scope, "openid") {
		claims := p.idTokenClaims(g, resp.AccessToken, withNonce, now, f)
		tok, err := p.signIDToken(claims, f)
		if err != nil {
			return tokenResponse{}, err
		}
		resp.IDToken = tok
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked(now)
	p.access[resp.AccessToken] = &tokenGrant{grant: g, expires: now.Add(accessTokenLifetime), jkt: jkt}
	rt := &tokenGrant{grant: g, expires: now.Add(refreshTokenLifetime)}
	if p.publicClient {
		rt.jkt = jkt
	}
	p.refresh[resp.RefreshToken] = rt
	return resp, nil
}

// idTokenClaims returns the ID token claims for g, with the claim faults
// of f.
func (p *Provider) idTokenClaims(g grant, accessToken string, withNonce bool, now time.Time, f Faults) map[string]any {
	claims := map[string]any{}
	for k, v := range g.user.Extra {
		claims[k] = v
	}
	for k, v := range userClaims(g.user, g.scope) {
		claims[k] = v
	}
	iat, exp := now, now.Add(idTokenLifetime)
	claims["iss"] = p.issuer
	claims["sub"] = g.user.Subject
	claims["aud"] = g.clientID
	claims["iat"] = iat.Unix()
	claims["exp"] = exp.Unix()
	claims["auth_time"] = g.authTime.Unix()
	if p.sessionIDs && len(g.family) >= 16 {
		claims["sid"] = g.family[:16] // one per authorization
		p.mu.Lock()
		if p.sids == nil {
			p.sids = map[string][]string{}
		}
		if l := p.sids[g.user.Subject]; !slices.Contains(l, g.family[:16]) {
			p.sids[g.user.Subject] = append(l, g.family[:16])
		}
		p.mu.Unlock()
	}
	claims["at_hash"] = atHash(accessToken)
	delete(claims, "nonce")
	delete(claims, "azp")
	if withNonce && g.nonce != "" {
		claims["nonce"] = g.nonce
	}

	if f.IDTokenWrongIssuer {
		claims["iss"] = p.base + evilPath
	}
	if f.IDTokenWrongAudience {
		claims["aud"] = g.clientID + evilSuffix
	}
	if f.IDTokenExtraAudience {
		claims["aud"] = []string{claims["aud"].(string), otherClientID}
		claims["azp"] = g.clientID
	}
	if f.IDTokenWrongAZP {
		claims["azp"] = otherClientID
	}
	if f.IDTokenOmitAZP {
		delete(claims, "azp")
	}
	if f.IDTokenExpired {
		claims["iat"] = now.Add(-2 * time.Hour).Unix()
		claims["exp"] = now.Add(-time.Hour).Unix()
	}
	if f.IDTokenIatInFuture {
		claims["iat"] = now.Add(time.Hour).Unix()
		claims["exp"] = now.Add(2 * time.Hour).Unix()
	}
	if f.IDTokenOmitExp {
		delete(claims, "exp")
	}
	if f.IDTokenOmitIat {
		delete(claims, "iat")
	}
	if f.IDTokenOmitSub {
		delete(claims, "sub")
	}
	if f.IDTokenWrongSubject {
		claims["sub"] = g.user.Subject + evilSuffix
	}
	if f.IDTokenWrongAuthTime {
		claims["auth_time"] = g.authTime.Add(-time.Hour).Unix()
	}
	if f.IDTokenWrongNonce {
		claims["nonce"] = g.nonce + evilSuffix
	}
	if f.IDTokenOmitNonce {
		delete(claims, "nonce")
	}
	if f.IDTokenWrongAtHash {
		claims["at_hash"] = atHash(accessToken + evilSuffix)
	}
	return claims
}

// userClaims returns the standard claims of u that scope grants.
func userClaims(u User, scope string) map[string]any {
	c := map[string]any{}
	if hasScope(scope, "profile") {
		if u.Name != "" {
			c["name"] = u.Name
		}
		if u.Picture != "" {
			c["picture"] = u.Picture
		}
	}
	if hasScope(scope, "email") && u.Email != "" {
		c["email"] = u.Email
		c["email_verified"] = u.EmailVerified
	}
	return c
}

func hasScope(scope, s string) bool { return slices.Contains(strings.Fields(scope), s) }

// pruneLocked forgets expired codes and tokens. p.mu must be held.
func (p *Provider) pruneLocked(now time.Time) {
	if len(p.usedRefresh) > 1<<16 {
		clear(p.usedRefresh) // bounded: reuse detection forgets the oldest rounds
	}
	for k, c := range p.codes {
		if now.After(c.expires) {
			delete(p.codes, k)
		}
	}
	for k, t := range p.access {
		if now.After(t.expires) {
			delete(p.access, k)
		}
	}
	for k, t := range p.refresh {
		if now.After(t.expires) {
			delete(p.refresh, k)
		}
	}
}

func (p *Provider) serveUserinfo(w http.ResponseWriter, r *http.Request, f Faults) {
	if f.UserinfoFail {
		http.Error(w, "internal server error (authtest fault UserinfoFail)", http.StatusInternalServerError)
		return
	}
	if r.URL.Query().Has("access_token") || r.PostForm.Has("access_token") {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_request", error_description="send the access token in the Authorization header"`)
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "send the access token in the Authorization header"})
		return
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	dpop := strings.EqualFold(scheme, "DPoP")
	if (!dpop && !strings.EqualFold(scheme, "Bearer")) || tok == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="authtest"`)
		writeJSON(w, http.StatusUnauthorized, oauthError{"invalid_request", "Bearer or DPoP token required"})
		return
	}
	// DPoP (RFC 9449 §7): the proof must be for this request and this
	// token, and signed by the key the token is bound to.
	var jkt string
	if dpop {
		var e *oauthError
		if jkt, e = p.checkProof(r, p.endpointURL("/userinfo"), tok); e != nil {
			dpopChallenge(w, e, p.dpopNonce)
			return
		}
	}
	p.mu.Lock()
	g, ok := p.access[tok]
	p.mu.Unlock()
	if !ok || time.Now().After(g.expires) {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		writeJSON(w, http.StatusUnauthorized, oauthError{"invalid_token", "unknown or expired access token"})
		return
	}
	if g.jkt != jkt {
		dpopChallenge(w, &oauthError{"invalid_token", "the token is bound to another DPoP key, or to none"}, "")
		return
	}
	claims := map[string]any{}
	for k, v := range g.user.Extra {
		claims[k] = v
	}
	for k, v := range userClaims(g.user, g.scope) {
		claims[k] = v
	}
	claims["sub"] = g.user.Subject
	if f.UserinfoWrongSub {
		claims["sub"] = g.user.Subject + evilSuffix
	}
	writeJSON(w, http.StatusOK, claims)
}

func (p *Provider) serveEndSession(w http.ResponseWriter, r *http.Request, f Faults) {
	form := r.Form
	hint := form.Get("id_token_hint")
	target := form.Get("post_logout_redirect_uri")
	hintOK := false
	if hint != "" {
		claims, err := p.verifyIDToken(hint)
		if err != nil || !audienceHas(claims["aud"], p.clientID) {
			p.errorPage(w, http.StatusBadRequest, "The id_token_hint is not an ID token this provider issued to the client.")
			return
		}
		hintOK = true
	}
	if target == "" {
		p.signedOutPage(w)
		return
	}
	if !hintOK && form.Get("client_id") != p.clientID {
		p.errorPage(w, http.StatusBadRequest, "A post_logout_redirect_uri needs a valid id_token_hint or client_id.")
		return
	}
	if !p.postLogoutURIAllowed(target) {
		p.errorPage(w, http.StatusBadRequest, "The post_logout_redirect_uri is not registered.")
		return
	}
	params := url.Values{}
	if s := form.Get("state"); s != "" {
		params.Set("state", s)
	}
	redirect(w, r, addParams(target, params))
}

// audienceHas reports whether the aud claim aud contains clientID.
func audienceHas(aud any, clientID string) bool {
	switch a := aud.(type) {
	case string:
		return a == clientID
	case []any:
		for _, v := range a {
			if v == clientID {
				return true
			}
		}
	}
	return false
}

// writeJSON writes v as a JSON answer that no cache keeps.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	w.Write(body)
}
