package authtest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Form fields of the sign-in page, which posts back to the authorization
// endpoint with the request's own parameters.
const (
	fieldUser   = "authtest_user"
	fieldCancel = "authtest_cancel"
)

// authzRequest is a validated authorization request: where and how
// answers go.
type authzRequest struct {
	form        url.Values
	redirectURI string
	formPost    bool
	state       string
}

func (p *Provider) serveAuthorize(w http.ResponseWriter, r *http.Request, f Faults) {
	form := r.Form
	// PAR (RFC 9126 §4): a request_uri stands for the pushed parameters,
	// and the request's others are ignored. The sign-in page posts back
	// the request as it came (client_id and request_uri).
	page := form
	if form.Has("request_uri") {
		pushed, ok := p.pushedForm(form.Get("request_uri"), form.Get("client_id"))
		if !ok || len(form["request_uri"]) != 1 {
			p.errorPage(w, http.StatusBadRequest, "The request_uri is unknown, expired, repeated or for another client.")
			return
		}
		form = pushed
	} else if p.requirePAR {
		p.errorPage(w, http.StatusBadRequest, "This provider requires pushed authorization requests (RFC 9126): send a request_uri.")
		return
	}
	// Until client_id and redirect_uri are known good, errors go to the
	// person, never to the redirect_uri (RFC 6749 §4.1.2.1).
	if len(form["client_id"]) != 1 || form.Get("client_id") != p.clientID {
		p.errorPage(w, http.StatusBadRequest, "The client_id is missing, repeated or unknown.")
		return
	}
	if len(form["redirect_uri"]) != 1 || !p.redirectURIAllowed(form.Get("redirect_uri")) {
		p.errorPage(w, http.StatusBadRequest, "The redirect_uri is missing, repeated or not registered for this client.")
		return
	}
	req := authzRequest{
		form:        page,
		redirectURI: form.Get("redirect_uri"),
		formPost:    form.Get("response_mode") == "form_post" || f.AuthorizeFormPost,
		state:       form.Get("state"),
	}
	fail := func(code, desc string) {
		p.respond(w, r, req, url.Values{"error": {code}, "error_description": {desc}}, f)
	}

	for k, vs := range form {
		if len(vs) > 1 {
			fail("invalid_request", "parameter "+k+" is repeated")
			return
		}
	}
	switch form.Get("response_mode") {
	case "", "query", "form_post":
	default:
		fail("invalid_request", "response_mode must be query or form_post")
		return
	}
	switch {
	case form.Get("response_type") != "code":
		fail("unsupported_response_type", "response_type must be code")
		return
	case form.Has("request"):
		fail("request_not_supported", "request objects are not supported")
		return
	case form.Has("request_uri"):
		fail("request_uri_not_supported", "request_uri is not supported")
		return
	case form.Get("code_challenge") == "":
		fail("invalid_request", "code_challenge is required (PKCE)")
		return
	case form.Get("code_challenge_method") != "S256":
		fail("invalid_request", "code_challenge_method must be S256")
		return
	case !validChallenge(form.Get("code_challenge")):
		fail("invalid_request", "code_challenge is not a base64url SHA-256 hash")
		return
	case f.AuthorizeAccessDenied:
		fail("access_denied", "authtest fault AuthorizeAccessDenied")
		return
	}

	var user User
	switch {
	case r.Method == http.MethodPost && (r.Form.Has(fieldUser) || r.Form.Has(fieldCancel)):
		// The sign-in page's answer.
		if err := p.csrf.Check(r); err != nil {
			p.errorPage(w, http.StatusForbidden, "The sign-in form was posted from another site.")
			return
		}
		if r.Form.Has(fieldCancel) {
			fail("access_denied", "the user cancelled the sign-in")
			return
		}
		u, ok := p.findUser(r.Form.Get(fieldUser))
		if !ok || u.Subject != r.Form.Get(fieldUser) {
			fail("invalid_request", "unknown user")
			return
		}
		user = u
	case p.autoApprove:
		u, ok := p.findUser(form.Get("login_hint"))
		if !ok {
			u = p.users[0]
		}
		user = u
	case slices.Contains(strings.Fields(form.Get("prompt")), "none"):
		fail("login_required", "the user must sign in")
		return
	default:
		p.signInPage(w, r, req)
		return
	}

	now := time.Now()
	code := randomToken()
	c := &codeGrant{
		grant: grant{
			user:     user,
			clientID: p.clientID,
			scope:    strings.Join(strings.Fields(form.Get("scope")), " "),
			nonce:    form.Get("nonce"),
			authTime: now,
			family:   randomToken(),
		},
		redirectURI: req.redirectURI,
		challenge:   form.Get("code_challenge"),
		dpopJKT:     form.Get("dpop_jkt"),
		expires:     now.Add(codeLifetime),
	}
	p.mu.Lock()
	p.pruneLocked(now)
	p.codes[code] = c
	p.mu.Unlock()
	p.respond(w, r, req, url.Values{"code": {code}}, f)
}

// respond sends an authorization response carrying params, and state and
// iss, to the client's redirect_uri, by redirect or form_post.
func (p *Provider) respond(w http.ResponseWriter, r *http.Request, req authzRequest, params url.Values, f Faults) {
	if req.state != "" {
		params.Set("state", req.state)
	}
	switch {
	case f.AuthorizeOmitIss:
	case f.AuthorizeWrongIss:
		params.Set("iss", p.base+evilPath)
	default:
		params.Set("iss", p.issuer)
	}
	if req.formPost {
		p.formPostPage(w, req.redirectURI, params)
		return
	}
	redirect(w, r, addParams(req.redirectURI, params))
}

// redirect redirects to target: 302 after GET, 303 after POST, so that
// the browser does not post the form again (RFC 9700 §4.12).
func redirect(w http.ResponseWriter, r *http.Request, target string) {
	status := http.StatusFound
	if r.Method == http.MethodPost {
		status = http.StatusSeeOther
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, target, status)
}

// addParams returns uri with params added to its query.
func addParams(uri string, params url.Values) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// validChallenge reports whether c is an S256 code_challenge: the 43
// base64url characters of a SHA-256 hash.
func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	for _, b := range []byte(c) {
		if !('A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-' || b == '_') {
			return false
		}
	}
	return true
}
