package gatehouse

import (
	"cmp"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/gatehouse-auth/gatehouse/checks"
)

// publicCode is the shape of an error code the error page will show.
var publicCode = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// redirect sends the browser to target: 302 after a GET, 303 after a
// POST (RFC 9700 §4.12: never 307, which would re-post the form), or
// 200 {"url"} when the client asked with X-Auth-Return-Redirect (the
// Auth.js client does).
func (h *Handler) redirect(w http.ResponseWriter, r *http.Request, target string) {
	if r.Header.Get("X-Auth-Return-Redirect") != "" {
		writeJSON(w, http.StatusOK, map[string]string{"url": target})
		return
	}
	status := http.StatusFound
	if r.Method == http.MethodPost {
		status = http.StatusSeeOther
	}
	http.Redirect(w, r, target, status)
}

// fail logs e with everything a developer needs, and sends the browser to
// the sign-in page (errors the user can fix by trying again) or the error
// page with ?error=<Type>&code=<Code>. Nothing of e.Err reaches the URL.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, b *base, e *Error) {
	h.cfg.Logger.Error("gatehouse: "+string(e.Type), "code", e.Code, "provider", e.Provider, "step", e.Step, "err", e.Err)
	switch e.Type {
	case MissingCSRF, InvalidCheck, AccountLinkMismatch, WebAuthnVerificationError:
		// A cookie that was there but read as missing may be a planted
		// duplicate: say so.
		h.warnDuplicate(r, b)
	}
	q := url.Values{"error": {string(e.Type)}}
	if e.Code != "" {
		q.Set("code", e.Code)
	}
	target := b.path + "/error?" + q.Encode()
	if h.cfg.Pages.Error != "" {
		target = h.cfg.Pages.Error + "?" + q.Encode()
	}
	if shownOnSignIn(e.Type) {
		// Keep where the visitor was going, so that trying again from the
		// sign-in page lands there: the form's callbackUrl (credentials,
		// e-mail) or the one saved when an OAuth sign-in began. Auth.js
		// reads its callback-url cookie on the sign-in page to the same
		// end. callbackURL keeps it same-origin; the home page, the
		// default, is left out, and the origin is dropped.
		if cb := cmp.Or(r.PostForm.Get("callbackUrl"), cookieValue(r, b.cookies.callbackURL)); cb != "" {
			if path := strings.TrimPrefix(h.callbackURL(b, cb, r), b.origin); path != "/" {
				q.Set("callbackUrl", path)
			}
		}
		target = b.path + "/signin?" + q.Encode()
		if h.cfg.Pages.SignIn != "" {
			target = h.cfg.Pages.SignIn + "?" + q.Encode()
		}
	}
	h.redirect(w, r, target)
}

// callbackURL resolves where to send the browser after sign-in or
// sign-out: raw when it is same-origin (Redirect callback or the default
// policy), else the origin's root. It never returns another origin's URL:
// a Redirect callback's answer is checked too.
func (h *Handler) callbackURL(b *base, raw string, r *http.Request) string {
	home := b.origin + "/"
	if raw == "" {
		return home
	}
	if cb := h.cfg.Callbacks.Redirect; cb != nil {
		raw = cb(raw, b.origin)
	}
	if safe := checks.SafeRedirect(raw, b.origin); safe != "" {
		return safe
	}
	return home
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// httpDiscard is a ResponseWriter that drops everything, for reading a
// session without refreshing its cookie.
type httpDiscard struct{}

func (httpDiscard) Header() http.Header         { return http.Header{} }
func (httpDiscard) Write(b []byte) (int, error) { return len(b), nil }
func (httpDiscard) WriteHeader(int)             {}
