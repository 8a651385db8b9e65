package site

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// TestReplaced: the answers of form POSTs for a page the application
// replaced go to its route with what the page would have shown; other
// pages, and pages not replaced, are rendered.
func TestReplaced(t *testing.T) {
	p := Pages{TwoFactor: "/code", ResetPassword: "/reset", SignUp: "/join", CheckEmail: "/inbox"}
	post := httptest.NewRequest(http.MethodPost, "/auth/password/forgot", nil)
	for _, tc := range []struct {
		name string
		r    *http.Request
		page any
		want string
	}{
		{"wrong code", post, pages.TwoFactorChallenge{Error: "Dieser Code stimmt nicht."}, "/code?error=invalid_code"},
		{"reset refused", post, pages.Password{Kind: pages.PasswordReset, Error: "too short", Token: "t0k", Email: "a@example.com"},
			"/reset?email=a%40example.com&error=PasswordForm&token=t0k"},
		{"sign-up form", post, pages.Password{Kind: pages.PasswordSignUp}, "/join"},
		{"forgot form, not replaced", post, pages.Password{Kind: pages.PasswordForgot, Error: "x"}, ""},
		{"check your e-mail", post, pages.Notice{Title: "Check your email"}, "/inbox?type=forgot"},
		{"a notice on a GET", httptest.NewRequest(http.MethodGet, "/auth/password/forgot", nil), pages.Notice{}, ""},
		{"password changed", httptest.NewRequest(http.MethodPost, "/auth/password/reset", nil), pages.Notice{}, ""},
		{"accounts", post, pages.Accounts{}, ""},
	} {
		if got := p.replaced(tc.r, tc.page); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestForRoute: every page field that replaces one of the handler's GET routes
// names one route, and a route is replaced only when its field is set.
func TestForRoute(t *testing.T) {
	routes := []string{"/accounts", "/sessions", "/two-factor/setup", "/two-factor", "/{provider}/sign-up", "/{provider}/forgot",
		"/{provider}/reset", "/{provider}/change", "/verify-request"}
	full := Pages{Accounts: "/1", Sessions: "/2", TwoFactorSetup: "/3", TwoFactor: "/4", SignUp: "/5", ForgotPassword: "/6", ResetPassword: "/7",
		ChangePassword: "/8", VerifyRequest: "/9"}
	seen := map[string]bool{}
	for _, r := range routes {
		if got := full.ForRoute(r); got == "" || seen[got] {
			t.Errorf("ForRoute(%q) = %q", r, got)
		} else {
			seen[got] = true
		}
		if got := (Pages{}).ForRoute(r); got != "" {
			t.Errorf("no pages: ForRoute(%q) = %q", r, got)
		}
	}
	for _, r := range []string{"/signin", "/signout", "/error", "/{provider}/verify", "/session"} {
		if got := full.ForRoute(r); got != "" {
			t.Errorf("ForRoute(%q) = %q, want none", r, got)
		}
	}
	if n := len(full.Fields()); n != 14 {
		t.Errorf("Fields() has %d fields", n)
	}
	w := httptest.NewRecorder()
	RedirectTo("/me")(w, httptest.NewRequest(http.MethodGet, "/auth/accounts?callbackUrl=%2Fx&error=E", nil))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/me?callbackUrl=%2Fx&error=E" {
		t.Errorf("RedirectTo: %d %q", w.Code, w.Header().Get("Location"))
	}
}
