package authtest

// The OAuth client extensions a Provider supports: pushed authorization
// requests (RFC 9126), client authentication with a signed JWT
// (client_secret_jwt and private_key_jwt, RFC 7523) and DPoP (RFC 9449).
// Every JOSE check is go-jose's.

import (
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// parLifetime is how long a pushed request can be used (RFC 9126 §2.2
// suggests 5 to 600 seconds).
const parLifetime = time.Minute

// pushedRequest is an authorization request received at /par.
type pushedRequest struct {
	form     url.Values
	clientID string
	expires  time.Time
}

// requestURIPrefix starts every request_uri (RFC 9126 §2.2).
const requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

// servePAR answers the pushed authorization request endpoint (RFC 9126
// §2): the client authenticates as at the token endpoint, the parameters
// are those of an authorization request, and the answer is a request_uri
// valid for a minute. A DPoP proof, when sent, binds the code to its key
// (RFC 9449 §10.1).
func (p *Provider) servePAR(w http.ResponseWriter, r *http.Request, f Faults) {
	if f.PARServerError {
		http.Error(w, "internal server error (authtest fault PARServerError)", http.StatusInternalServerError)
		return
	}
	clientID, e, status := p.authenticateClient(w, r)
	if e != nil {
		writeJSON(w, status, e)
		return
	}
	form := cloneValues(r.PostForm)
	for _, k := range []string{"client_secret", "client_assertion", "client_assertion_type"} {
		form.Del(k)
	}
	for k, vs := range form {
		if len(vs) > 1 {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "parameter " + k + " repeated"})
			return
		}
	}
	switch {
	case form.Has("request_uri"):
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "request_uri is not allowed in a pushed request"})
		return
	case form.Has("client_id") && form.Get("client_id") != clientID:
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "client_id differs from the authenticated client"})
		return
	case !p.redirectURIAllowed(form.Get("redirect_uri")):
		writeJSON(w, http.StatusBadRequest, oauthError{"invalid_request", "redirect_uri is missing or not registered"})
		return
	}
	if r.Header.Get("DPoP") != "" {
		jkt, e := p.checkProof(r, p.endpointURL("/par"), "")
		if e != nil {
			writeDPoPError(w, http.StatusBadRequest, e, p.dpopNonce)
			return
		}
		if form.Has("dpop_jkt") && form.Get("dpop_jkt") != jkt {
			writeJSON(w, http.StatusBadRequest, oauthError{"invalid_dpop_proof", "dpop_jkt differs from the proof's key"})
			return
		}
		form.Set("dpop_jkt", jkt)
	}
	form.Set("client_id", clientID)
	uri := requestURIPrefix + randomToken()
	now := time.Now()
	p.mu.Lock()
	for k, pr := range p.pushed {
		if now.After(pr.expires) {
			delete(p.pushed, k)
		}
	}
	p.pushed[uri] = &pushedRequest{form: form, clientID: clientID, expires: now.Add(parLifetime)}
	p.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"request_uri": uri, "expires_in": int(parLifetime / time.Second)})
}

// pushedForm returns the parameters pushed under requestURI by clientID.
// A request_uri stays usable until it expires, so that the sign-in page
// can post it back (RFC 9126 §4 allows reuse on reload).
func (p *Provider) pushedForm(requestURI, clientID string) (url.Values, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pr, ok := p.pushed[requestURI]
	if !ok || time.Now().After(pr.expires) || pr.clientID != clientID {
		return nil, false
	}
	return pr.form, true
}

// The algorithms accepted on client assertions and DPoP proofs.
var (
	assertionAlgs = []jose.SignatureAlgorithm{jose.HS256, jose.RS256, jose.PS256, jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}
	dpopAlgs      = []jose.SignatureAlgorithm{jose.RS256, jose.PS256, jose.ES256, jose.ES384, jose.ES512, jose.EdDSA}
)

func algNames(algs []jose.SignatureAlgorithm) []string {
	out := make([]string, len(algs))
	for i, a := range algs {
		out[i] = string(a)
	}
	return out
}

// assertionType is the client_assertion_type of RFC 7523 §2.2.
const assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// assertionMethod names the method of a client assertion by its
// algorithm: HS256 is client_secret_jwt, others private_key_jwt.
func assertionMethod(assertion string) string {
	tok, err := jwt.ParseSigned(assertion, assertionAlgs)
	if err != nil {
		return ""
	}
	if tok.Headers[0].Algorithm == string(jose.HS256) {
		return "client_secret_jwt"
	}
	return "private_key_jwt"
}

// verifyAssertion authenticates a client by its client assertion (RFC
// 7523 §3): HS256 with the client secret, or a key of Options.ClientJWKS
// picked by kid; iss and sub the client_id; aud the issuer, as a single
// string (FAPI 2.0 against audience injection); exp set and at most ten
// minutes ahead; jti never seen before.
func (p *Provider) verifyAssertion(form url.Values) (string, *oauthError, int) {
	bad := func(desc string) (string, *oauthError, int) {
		return "", &oauthError{"invalid_client", desc}, http.StatusUnauthorized
	}
	if form.Get("client_assertion_type") != assertionType {
		return bad("client_assertion_type must be " + assertionType)
	}
	tok, err := jwt.ParseSigned(form.Get("client_assertion"), assertionAlgs)
	if err != nil {
		return bad("client_assertion is not a signed JWT: " + err.Error())
	}
	h := tok.Headers[0]
	var key any
	if h.Algorithm == string(jose.HS256) {
		key = []byte(p.clientSecret)
	} else {
		keys := p.clientJWKS.Key(h.KeyID)
		if h.KeyID == "" || len(keys) == 0 {
			return bad("no registered client key has kid " + h.KeyID)
		}
		key = keys[0]
	}
	var c jwt.Claims
	var aud struct {
		Aud any `json:"aud"`
	}
	if err := tok.Claims(key, &c, &aud); err != nil {
		return bad("client_assertion signature: " + err.Error())
	}
	if aud.Aud != p.issuer {
		return bad("client_assertion aud must be the issuer, as a string")
	}
	now := time.Now()
	switch {
	case c.Expiry == nil || c.ID == "":
		return bad("client_assertion needs exp and jti")
	case c.Expiry.Time().After(now.Add(10 * time.Minute)):
		return bad("client_assertion expires too late")
	case form.Has("client_id") && form.Get("client_id") != p.clientID:
		return bad("client_id differs from the assertion's")
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: p.clientID, Subject: p.clientID, AnyAudience: jwt.Audience{p.issuer}, Time: now}, 5*time.Second); err != nil {
		return bad("client_assertion claims: " + err.Error())
	}
	if !p.useJTI("assertion:"+c.ID, c.Expiry.Time()) {
		return bad("client_assertion jti was used before")
	}
	return p.clientID, nil, 0
}

// useJTI records jti until expires and reports whether it was new.
func (p *Provider) useJTI(jti string, expires time.Time) bool {
	now := time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.jtis) > 10000 {
		for k, exp := range p.jtis {
			if now.After(exp) {
				delete(p.jtis, k)
			}
		}
	}
	if _, seen := p.jtis[jti]; seen {
		return false
	}
	p.jtis[jti] = expires
	return true
}

// proofWindow is how far a DPoP proof's iat may lie from now (RFC 9449
// §11.1 leaves it to the server).
const proofWindow = time.Minute

// dpopClaims are the claims of a DPoP proof (RFC 9449 §4.2).
type dpopClaims struct {
	ID    string           `json:"jti"`
	HTM   string           `json:"htm"`
	HTU   string           `json:"htu"`
	IAT   *jwt.NumericDate `json:"iat"`
	ATH   string           `json:"ath"`
	Nonce string           `json:"nonce"`
}

// checkProof verifies the one DPoP proof of r (RFC 9449 §4.3) for a
// request to htu, bound to accessToken when it is not empty, and returns
// the RFC 7638 thumbprint of its key. The error is invalid_dpop_proof, or
// use_dpop_nonce when the provider wants its nonce.
func (p *Provider) checkProof(r *http.Request, htu, accessToken string) (string, *oauthError) {
	bad := func(desc string) (string, *oauthError) { return "", &oauthError{"invalid_dpop_proof", desc} }
	proofs := r.Header.Values("DPoP")
	if len(proofs) != 1 {
		return bad("exactly one DPoP header is required")
	}
	tok, err := jwt.ParseSigned(proofs[0], dpopAlgs)
	if err != nil {
		return bad("the proof is not a JWT signed with an asymmetric algorithm")
	}
	hdr := tok.Headers[0]
	if typ, _ := hdr.ExtraHeaders[jose.HeaderType].(string); typ != "dpop+jwt" {
		return bad("typ must be dpop+jwt")
	}
	if hdr.JSONWebKey == nil || !hdr.JSONWebKey.IsPublic() || !hdr.JSONWebKey.Valid() {
		return bad("the header needs the public key as jwk")
	}
	var c dpopClaims
	if err := tok.Claims(hdr.JSONWebKey, &c); err != nil {
		return bad("signature: " + err.Error())
	}
	now := time.Now()
	switch {
	case c.ID == "" || c.IAT == nil:
		return bad("jti and iat are required")
	case c.HTM != r.Method:
		return bad("htm differs from the request's method")
	case c.HTU != htu:
		return bad("htu differs from the request's URI")
	case c.IAT.Time().Before(now.Add(-proofWindow)) || c.IAT.Time().After(now.Add(proofWindow)):
		return bad("iat is not recent")
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if c.ATH != base64.RawURLEncoding.EncodeToString(sum[:]) {
			return bad("ath does not match the access token")
		}
	}
	if p.dpopNonce != "" && c.Nonce != p.dpopNonce {
		return "", &oauthError{"use_dpop_nonce", "a DPoP proof with the provider's nonce is required"}
	}
	if !p.useJTI("dpop:"+c.ID, now.Add(2*proofWindow)) {
		return bad("jti was used before")
	}
	tp, err := hdr.JSONWebKey.Thumbprint(crypto.SHA256)
	if err != nil {
		return bad(err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// writeDPoPError answers a DPoP failure at the token or PAR endpoint,
// with the nonce to use when there is one (RFC 9449 §8).
func writeDPoPError(w http.ResponseWriter, status int, e *oauthError, nonce string) {
	if nonce != "" {
		w.Header().Set("DPoP-Nonce", nonce)
	}
	writeJSON(w, status, e)
}

// dpopChallenge answers a resource request whose DPoP proof or token is
// refused (RFC 9449 §7.1, §9).
func dpopChallenge(w http.ResponseWriter, e *oauthError, nonce string) {
	if nonce != "" {
		w.Header().Set("DPoP-Nonce", nonce)
	}
	w.Header().Set("WWW-Authenticate", `DPoP algs="`+strings.Join(algNames(dpopAlgs), " ")+`", error="`+e.Error+`"`)
	writeJSON(w, http.StatusUnauthorized, e)
}
