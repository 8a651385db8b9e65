package pages_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

func render(t *testing.T, page any) string {
	t.Helper()
	w := httptest.NewRecorder()
	if err := pages.Render(w, 0, page); err != nil {
		t.Fatal(err)
	}
	if w.Header().Get("Content-Security-Policy") == "" || w.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("headers %v", w.Header())
	}
	return w.Body.String()
}

func TestPasswordPages(t *testing.T) {
	for _, c := range []struct {
		kind      pages.PasswordKind
		want, not []string
	}{
		{pages.PasswordSignUp, []string{"<h1>Create an account</h1>", `name="email" value="a@example.com"`, `name="name"`, `name="password" autocomplete="new-password" minlength="8" maxlength="128"`, "At least 8 characters"}, []string{`name="token"`, "currentPassword"}},
		{pages.PasswordForgot, []string{"<h1>Forgot your password?</h1>", `name="email" value="a@example.com"`, "Send the link"}, []string{`type="password"`}},
		{pages.PasswordReset, []string{"<h1>Choose a new password</h1>", `name="token" value="tok+en"`, `type="hidden" name="email" value="a@example.com"`, `name="password" autocomplete="new-password"`}, []string{`name="name"`}},
		{pages.PasswordChange, []string{"<h1>Change your password</h1>", `name="currentPassword" autocomplete="current-password"`, `name="newPassword"`, `href="/home">Back`}, []string{`name="email"`, "Back to sign-in"}},
	} {
		p := pages.Password{Kind: c.kind, CSRFToken: "csrf", ActionURL: "/auth/password/" + string(c.kind), Email: "a@example.com", Token: "tok+en",
			MinLength: 8, MaxLength: 128, Error: "The password is too short.", SignInURL: "/auth/signin"}
		if c.kind == pages.PasswordChange {
			p.SignInURL, p.HomeURL = "", "/home"
		}
		body := render(t, p)
		for _, w := range append(c.want, `action="/auth/password/`+string(c.kind)+`"`, `name="csrfToken" value="csrf"`, `role="alert">The password is too short.`) {
			if !strings.Contains(body, w) {
				t.Errorf("%s page lacks %s:\n%s", c.kind, w, body)
			}
		}
		for _, n := range c.not {
			if strings.Contains(body, n) {
				t.Errorf("%s page has %s", c.kind, n)
			}
		}
	}
}

func TestSignInPasswordForm(t *testing.T) {
	body := render(t, pages.SignIn{CSRFToken: "csrf", Forms: []pages.Form{pages.PasswordForm{ID: "password", Name: "Email and password",
		CallbackURL: "/auth/callback/password", SignUpURL: "/auth/password/sign-up", ForgotURL: "/auth/password/forgot"}}})
	for _, w := range []string{`action="/auth/callback/password"`, `id="password-0-email" type="email" name="email" autocomplete="username"`,
		`id="password-0-password" type="password" name="password" autocomplete="current-password"`, "Sign in with Email and password",
		`href="/auth/password/sign-up">Create an account`, `href="/auth/password/forgot">Forgot your password?`, ".links {"} {
		if !strings.Contains(body, w) {
			t.Errorf("sign-in page lacks %s:\n%s", w, body)
		}
	}
}

func TestNotice(t *testing.T) {
	body := render(t, pages.Notice{Title: "Password changed", Message: "Sign in again.", LinkURL: "/auth/signin", LinkText: "Sign in"})
	for _, w := range []string{"<title>Password changed</title>", "<h1>Password changed</h1>", "Sign in again.", `href="/auth/signin">Sign in</a>`} {
		if !strings.Contains(body, w) {
			t.Errorf("notice lacks %s:\n%s", w, body)
		}
	}
}

// A page of a kind this version does not know is the sign-up page; a page
// passed by pointer is rendered as it is, not changed.
func TestPasswordPageUnknownKind(t *testing.T) {
	p := &pages.Password{Kind: "other", CSRFToken: "csrf", ActionURL: "/auth/password/sign-up"}
	if body := render(t, p); !strings.Contains(body, "<h1>Create an account</h1>") {
		t.Errorf("unknown kind renders:\n%s", body)
	}
	if p.Kind != "other" {
		t.Errorf("the caller's page was changed: Kind %q", p.Kind)
	}
}
