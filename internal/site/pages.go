package site

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// Field is one of the application's page routes, by its Config.Pages
// field name.
type Field struct{ Name, Route string }

// Fields returns every page route by its field name, in declaration
// order, "" ones included.
func (p Pages) Fields() []Field {
	return []Field{
		{"SignIn", p.SignIn}, {"SignOut", p.SignOut}, {"Error", p.Error}, {"VerifyRequest", p.VerifyRequest}, {"NewUser", p.NewUser},
		{"Accounts", p.Accounts}, {"Sessions", p.Sessions}, {"TwoFactorSetup", p.TwoFactorSetup}, {"TwoFactor", p.TwoFactor},
		{"SignUp", p.SignUp}, {"ForgotPassword", p.ForgotPassword}, {"ResetPassword", p.ResetPassword},
		{"ChangePassword", p.ChangePassword}, {"CheckEmail", p.CheckEmail},
	}
}

// ForRoute returns the application's route that replaces the page a GET
// of pattern (a route of the handler, relative to the base path) shows,
// "" when the built-in page stays. Sign-in, sign-out and error answer
// their GETs themselves (with 302, as Auth.js does).
func (p Pages) ForRoute(pattern string) string {
	switch pattern {
	case "/verify-request":
		return p.VerifyRequest
	case "/accounts":
		return p.Accounts
	case "/sessions":
		return p.Sessions
	case "/two-factor/setup":
		return p.TwoFactorSetup
	case "/two-factor":
		return p.TwoFactor
	case "/{provider}/sign-up":
		return p.SignUp
	case "/{provider}/forgot":
		return p.ForgotPassword
	case "/{provider}/reset":
		return p.ResetPassword
	case "/{provider}/change":
		return p.ChangePassword
	}
	return ""
}

// RedirectTo answers every request with 303 to route, with the
// request's query (callbackUrl, token, error, …): the GET of a page the
// application replaced.
func RedirectTo(route string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		to := route
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	}
}

// replaced returns where to send the browser instead of rendering page
// in answer to r: the application's route for it, with the query that
// page would have shown, or "" to render the built-in page. It covers
// the answers of the form POSTs an application's own page may send: a
// password form refused (error=PasswordForm), the "check your e-mail"
// answer of a sign-up or reset request, and a refused two-factor code
// (error=invalid_code). A JSON client gets JSON as before.
func (p Pages) replaced(r *http.Request, page any) string {
	q := url.Values{}
	route := ""
	switch pg := page.(type) {
	case pages.Password:
		route = map[pages.PasswordKind]string{pages.PasswordSignUp: p.SignUp, pages.PasswordForgot: p.ForgotPassword,
			pages.PasswordReset: p.ResetPassword, pages.PasswordChange: p.ChangePassword}[pg.Kind]
		if pg.Error != "" {
			q.Set("error", "PasswordForm")
		}
		if pg.CallbackURL != "" {
			q.Set("callbackUrl", pg.CallbackURL)
		}
		if pg.Kind == pages.PasswordReset && pg.Token != "" {
			// The reset link's own query: the form needs it again.
			q.Set("token", pg.Token)
			q.Set("email", pg.Email)
		}
	case pages.Notice:
		// The answer of a sign-up or "forgot your password" POST, the
		// only notices that say to check one's e-mail; the kind of
		// request is in the query.
		for _, kind := range []string{"sign-up", "forgot"} {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/"+kind) {
				route = p.CheckEmail
				q.Set("type", kind)
			}
		}
	case pages.TwoFactorChallenge:
		route = p.TwoFactor
		if pg.Error != "" {
			q.Set("error", "invalid_code")
		}
	}
	if route == "" {
		return ""
	}
	if len(q) == 0 {
		return route
	}
	return route + "?" + q.Encode()
}
