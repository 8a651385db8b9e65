package keyflow

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// The built-in keys page. A browser's navigation (Accept: text/html) to
// GET {base}/api-keys gets the page; a program gets the JSON on the same
// URL. The page's forms POST to the JSON routes, which form wraps: the
// route runs as it is, and its answer becomes a redirect (303) back to
// the page (POST-redirect-GET), so that reloading the page, or going back
// and forth, never posts the form again and makes a second key. The page
// says what happened; a new key (made or rotated) is carried to it sealed
// in a cookie that lives a minute, and shown once: the GET that shows it
// clears the cookie. The key is never put in a URL, and no page is
// cached. A form refused for want of a fresh sign-in (making or rotating
// a key with an old session) is redirected to ?failed=fresh_sign_in,
// which shows a notice with a link to sign in again and come back.

// alertKey returns the message key of the page's alert for the
// ?failed= value: the code of the route's refusal. A code not listed is
// shown as org.errOther. (A switch, not a package map: a program without
// machine access links none of this.)
func alertKey(code string) string {
	switch code {
	case "invalid_name":
		return "keys.errName"
	case "invalid_permissions", "insufficient_permissions":
		return "keys.errPerms"
	case "invalid_expiry":
		return "keys.errExpiry"
	case "too_many_keys":
		return "keys.errTooMany"
	case "no_such_key":
		return "keys.errNotFound"
	case "csrf", "cross_site":
		return "org.errForm"
	case string(autherr.TooManyRequests):
		return "org.errTooMany"
	}
	return "org.errOther"
}

// shown is how the page shows a time.
const shown = "2006-01-02 15:04 UTC"

// pageURL is the keys page's URL.
func (f *Flow) pageURL(r *http.Request) string { return f.cfg.Site.URL(r, "api-keys") }

// signInURL is the sign-in page, coming back to the keys page.
func (f *Flow) signInURL(r *http.Request) string {
	return f.cfg.Site.SignInPage(r, url.Values{"callbackUrl": {f.pageURL(r)}})
}

// signIn sends the browser to sign in and come back to the keys page.
func (f *Flow) signIn(w http.ResponseWriter, r *http.Request) {
	httpx.Redirect(w, r, f.signInURL(r))
}

// signInAgain answers a browser whose form was refused for want of a
// fresh sign-in: a notice that says so, with a button to sign in again
// and come back to the keys page.
func (f *Flow) signInAgain(w http.ResponseWriter, r *http.Request) {
	f.cfg.Site.Render(w, r, http.StatusOK, pages.Notice{Theme: f.cfg.Site.Theme,
		Title: f.cfg.Site.Text(r, "keys.freshTitle"), Message: f.cfg.Site.Text(r, "keys.freshText"),
		LinkURL: f.signInURL(r), LinkText: f.cfg.Site.Text(r, "keys.signInAgain")})
}

// storeDownPage answers a store that could not be read with the error
// page.
func (f *Flow) storeDownPage(w http.ResponseWriter, r *http.Request, err error) {
	f.cfg.Site.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "api-keys", err))
}

// page renders GET {base}/api-keys for a browser: nobody is sent to sign
// in and back, as the JSON route answers them 401.
func (f *Flow) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	userID, at, ok := f.pageUser(w, r)
	if !ok {
		return
	}
	// Only these notices are shown: the query is the browser's.
	var notice, alert string
	q := r.URL.Query()
	if q.Get("done") == "revoked" {
		notice = f.cfg.Site.Text(r, "keys.doneRevoked")
	}
	switch c := q.Get("failed"); {
	case c == "fresh_sign_in" && !f.fresh(at):
		f.signInAgain(w, r)
		return
	case c == "fresh_sign_in":
		// Signed in again since (in another tab): nothing to say.
	case c != "":
		alert = f.cfg.Site.Text(r, alertKey(c))
	}
	key, name := f.takeKey(w, r, userID)
	f.render(w, r, userID, pages.APIKeys{Notice: notice, Error: alert, Secret: key, SecretName: name})
}

// newKeyFor is how long a new key waits, sealed in its cookie, for the
// GET of the page that the form's POST is redirected to.
const newKeyFor = time.Minute

// keepKey keeps key, named name, for userID's next GET of the page
// (takeKey), in the NewKey cookie: HttpOnly, for newKeyFor, and sealed
// (encrypted and authenticated with the app's secret, bound to the
// cookie's name and to userID), so that the key is readable neither in
// the browser's cookie store nor in a log of the request's headers.
func (f *Flow) keepKey(w http.ResponseWriter, r *http.Request, userID, key, name string) error {
	c := f.cfg.Site.For(r).Cookies
	until := time.Now().Add(newKeyFor)
	v := url.Values{"k": {key}, "n": {name}, "e": {strconv.FormatInt(until.Unix(), 10)}}
	sealed, err := f.cfg.Site.Sealer.Seal(c.NewKey, userID, v.Encode())
	if err != nil {
		return err
	}
	c.Set(w, c.NewKey, sealed, until)
	return nil
}

// takeKey returns the key keepKey kept for userID, and its name, and
// clears the cookie: a key is shown once. It returns "" for none, and for
// a cookie that is another user's (a shared browser), expired or forged.
func (f *Flow) takeKey(w http.ResponseWriter, r *http.Request, userID string) (key, name string) {
	c := f.cfg.Site.For(r).Cookies
	if cookies.Count(r, c.NewKey) == 0 {
		return "", ""
	}
	c.Clear(w, c.NewKey)
	opened, err := f.cfg.Site.Sealer.Open(checks.State, c.NewKey, userID, cookies.Value(r, c.NewKey))
	if err != nil {
		return "", ""
	}
	v, err := url.ParseQuery(opened)
	if err != nil {
		return "", ""
	}
	// The sealed expiry bounds a cookie kept past its Max-Age.
	if until, err := strconv.ParseInt(v.Get("e"), 10, 64); err != nil || time.Now().Unix() > until {
		return "", ""
	}
	return v.Get("k"), v.Get("n")
}

// pageUser returns the signed-in user for a page and when they signed
// in, or sends nobody to sign in, or answers the error page when the
// store is down.
func (f *Flow) pageUser(w http.ResponseWriter, r *http.Request) (string, time.Time, bool) {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, at, err := f.cfg.CurrentUser(ctx, r)
	switch {
	case err != nil:
		f.storeDownPage(w, r, err)
		return "", time.Time{}, false
	case id == "":
		f.signIn(w, r)
		return "", time.Time{}, false
	}
	return id, at, true
}

// render writes the keys page of userID: p (its notice, alert and new
// key) with the user's keys and the create form.
func (f *Flow) render(w http.ResponseWriter, r *http.Request, userID string, p pages.APIKeys) {
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	keys, err := f.store.ListAPIKeys(ctx, userID)
	if err != nil {
		f.storeDownPage(w, r, err)
		return
	}
	// The create form offers what the user holds outside any
	// organization: the route refuses more (permission.Grant).
	held, err := f.holds(ctx, userID, "")
	if err != nil {
		f.storeDownPage(w, r, err)
		return
	}
	p.Theme, p.CSRFToken, p.CreateURL = f.cfg.Site.Theme, f.cfg.Site.CSRFToken(w, r), f.pageURL(r)
	p.HomeURL, p.Permissions = f.cfg.Site.Origin(r)+"/", held.Strings()
	p.MaxDays = int(f.cfg.Keys.MaxLifetime / (24 * time.Hour))
	for _, k := range keys {
		p.Keys = append(p.Keys, f.row(r, k))
	}
	f.cfg.Site.Render(w, r, http.StatusOK, p)
}

// row is k as the page shows it: its start, never its secret.
func (f *Flow) row(r *http.Request, k apikey.Key) pages.APIKeyRow {
	when := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(shown)
	}
	l := f.listed(k)
	row := pages.APIKeyRow{Name: l.Name, Start: l.Start, Organization: l.OrganizationID, Permissions: l.Permissions,
		Created: when(k.CreatedAt), LastUsed: when(k.LastUsedAt), Expires: when(k.Expires), Revoked: when(k.RevokedAt)}
	if k.RevokedAt.IsZero() {
		esc := url.PathEscape(k.ID)
		row.RotateURL, row.RevokeURL = f.cfg.Site.URL(r, "api-keys", esc, "rotate"), f.cfg.Site.URL(r, "api-keys", esc, "revoke")
	}
	return row
}

// form wraps next, one of the POST routes, for the page's forms: a
// browser's form (Accept: text/html) runs the route as it is and gets,
// instead of the JSON, a redirect (303) back to the page: with the new
// key kept for it (a creation or a rotation, keepKey), or with ?done= or
// ?failed= (a revocation, a refusal: fresh_sign_in among them). A program's request is served by
// next alone, and gets a new key in its JSON answer.
func (f *Flow) form(next http.HandlerFunc) http.HandlerFunc {
	return httpx.FormAnswer(next, func(w http.ResponseWriter, r *http.Request, st int, body struct{ Error, Code, Key, Name string }) {
		switch {
		case st/100 == 2 && body.Key != "":
			userID, _, ok := f.pageUser(w, r)
			if !ok {
				return
			}
			if err := f.keepKey(w, r, userID, body.Key, body.Name); err != nil {
				// Not kept: shown on this answer, rather than lost.
				f.render(w, r, userID, pages.APIKeys{Secret: body.Key, SecretName: body.Name})
				return
			}
			httpx.Redirect(w, r, f.pageURL(r))
		case st/100 == 2:
			httpx.Redirect(w, r, f.pageURL(r)+"?done=revoked")
		case st == http.StatusUnauthorized:
			f.signIn(w, r)
		case st >= 500:
			f.storeDownPage(w, r, nil)
		default:
			code := body.Code
			if code == "" {
				code = body.Error
			}
			httpx.Redirect(w, r, f.pageURL(r)+"?"+url.Values{"failed": {code}}.Encode())
		}
	})
}
