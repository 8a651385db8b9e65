package pages_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// TestHiddenStaysHidden checks that the stylesheet's display rules do not
// draw an element with the hidden attribute: the reset form's username
// for password managers is hidden, and must stay so (the e2e test
// TestPasswordAccount checks it in a browser).
func TestHiddenStaysHidden(t *testing.T) {
	body := render(t, pages.Password{Kind: pages.PasswordReset, CSRFToken: "csrf", ActionURL: "/auth/password/reset",
		Email: "a@example.com", Token: "tok"})
	if !strings.Contains(body, `autocomplete="username" aria-label="Email" hidden>`) {
		t.Fatalf("the reset page has no hidden username input:\n%s", body)
	}
	if !strings.Contains(body, "[hidden] { display: none !important; }") {
		t.Errorf("the stylesheet does not keep [hidden] elements hidden:\n%s", body)
	}
}

// TestBackIsAButton checks that "Back" and "Back to sign-in" are the
// secondary button on every page that has one, the two-factor pages
// included.
func TestBackIsAButton(t *testing.T) {
	link := regexp.MustCompile(`<a [^>]*>Back( to [^<]*)?</a>`)
	for name, page := range map[string]any{
		"two-factor":       pages.TwoFactorChallenge{CSRFToken: "t", ActionURL: "/auth/two-factor", SignInURL: "/auth/signin"},
		"two-factor-setup": pages.TwoFactorSetup{CSRFToken: "t", EnrollURL: "/auth/two-factor/enroll", HomeURL: "/"},
		"sessions":         pages.Sessions{CSRFToken: "t", HomeURL: "/"},
		"password-reset":   pages.Password{Kind: pages.PasswordReset, ActionURL: "/a", SignInURL: "/auth/signin"},
		"password-change":  pages.Password{Kind: pages.PasswordChange, ActionURL: "/a", HomeURL: "/"},
	} {
		body := render(t, page)
		links := link.FindAllString(body, -1)
		if len(links) == 0 {
			t.Errorf("%s: no Back link:\n%s", name, body)
		}
		for _, l := range links {
			if !strings.HasPrefix(l, `<a class="btn secondary" href=`) {
				t.Errorf("%s: %s is not the secondary button", name, l)
			}
		}
	}
}

// TestSignInNoun checks the wording: "sign-in" as a noun, in every error
// message and on the pages that name it.
func TestSignInNoun(t *testing.T) {
	noun := regexp.MustCompile(`(?i)\bsign in (link|form|attempt|page|provider|method|failed|could|was)\b|the sign in\b|a sign in\b`)
	for _, typ := range []string{"AccountLinkMismatch", "CredentialsSignin", "EmailSignInError", "CallbackRouteError", "Verification",
		"MissingCSRF", "InvalidCheck", "OAuthProfileParseError", "InvalidIDToken", "TokenExchangeFailed", "UserinfoFailed",
		"ProviderUnavailable", "UnknownProvider", "SessionRequired", "TwoFactorFailed", "EmailUnverified", "Configuration"} {
		if m := pages.ErrorMessage(typ); noun.MatchString(m) {
			t.Errorf("%s: %q uses \"sign in\" as a noun", typ, m)
		}
	}
	for name, page := range map[string]any{
		"verify-request": pages.VerifyRequest{},
		"password-reset": pages.Password{Kind: pages.PasswordReset, ActionURL: "/a", SignInURL: "/auth/signin"},
		"two-factor":     pages.TwoFactorChallenge{CSRFToken: "t", ActionURL: "/auth/two-factor", SignInURL: "/auth/signin"},
	} {
		if body := render(t, page); noun.MatchString(body) || !strings.Contains(body, "sign-in") {
			t.Errorf("%s: \"sign in\" as a noun, or no \"sign-in\":\n%s", name, body)
		}
	}
}

// TestSignInRefusedForm checks the sign-in page after a refused password
// form: the address typed is kept, the password is not, and both inputs
// are marked invalid and described by the message shown in the form, as
// well as in the announced banner.
func TestSignInRefusedForm(t *testing.T) {
	page := pages.SignIn{CSRFToken: "csrf", Error: "CredentialsSignin", Failed: "password",
		Values: map[string]string{"email": `jane@example.com"><b>`, "password": "secret"},
		Forms: []pages.Form{
			pages.PasswordForm{ID: "password", Name: "Email and password", CallbackURL: "/auth/callback/password",
				SignUpURL: "/auth/password/sign-up", ForgotURL: "/auth/password/forgot"},
			pages.CredentialsForm{ID: "other", Name: "Other", CallbackURL: "/auth/callback/other",
				Fields: []pages.Field{{Name: "email", Type: "text"}}},
		},
	}
	body := render(t, page)
	for _, want := range []string{
		`<div class="alert" role="alert">Sign-in failed.`,
		`id="password-0-email" type="email" name="email" value="jane@example.com&#34;&gt;&lt;b&gt;" autocomplete="username" placeholder="email@example.com" aria-invalid="true" aria-describedby="password-0-error" required>`,
		`id="password-0-password" type="password" name="password" autocomplete="current-password" aria-invalid="true" aria-describedby="password-0-error" autofocus required>`,
		`<p id="password-0-error" class="field-error">Sign-in failed. Check the details you provided are correct.</p>`,
		".field-error {",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "secret") {
		t.Errorf("the page shows the password")
	}
	if n := strings.Count(body, `aria-invalid="true" aria-describedby`); n != 2 {
		t.Errorf("%d inputs marked invalid, want the refused form's 2 (not the other provider's)", n)
	}

	// A credentials provider's form: its non-password fields keep what
	// was typed.
	page = pages.SignIn{CSRFToken: "csrf", Error: "CredentialsSignin", Failed: "credentials",
		Values: map[string]string{"username": "demo", "password": "secret"},
		Forms: []pages.Form{pages.CredentialsForm{ID: "credentials", Name: "Demo", CallbackURL: "/auth/callback/credentials",
			Fields: []pages.Field{{Name: "username", Label: "Username"}, {Name: "password", Label: "Password", Type: "password"}}}},
	}
	body = render(t, page)
	for _, want := range []string{
		`name="username" value="demo" aria-invalid="true" aria-describedby="credentials-0-error">`,
		`name="password" aria-invalid="true" aria-describedby="credentials-0-error" autofocus>`,
		`<p id="credentials-0-error" class="field-error">Sign-in failed.`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "secret") {
		t.Errorf("the page shows the password")
	}

	// Without an error, nothing is marked.
	page.Error = ""
	if body = render(t, page); strings.Contains(body, "aria-invalid") || strings.Contains(body, `value="demo"`) {
		t.Errorf("a page without an error marks a form:\n%s", body)
	}
}
