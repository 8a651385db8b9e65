package pages_test

import (
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// TestSignInFormsOrder: whatever the order of SignIn.Forms, the page
// shows the e-mail forms first, then the credentials, password and
// passkey forms, each kind in the order of Forms and numbered among its
// own kind, with "or" between them; nil entries are skipped and
// pointers are shown like values.
func TestSignInFormsOrder(t *testing.T) {
	var (
		e1 = pages.EmailForm{ID: "e1", SigninURL: "/signin/e1"}
		e2 = pages.EmailForm{ID: "e2", SigninURL: "/signin/e2"}
		e3 = pages.EmailForm{ID: "e3", SigninURL: "/signin/e3"}
		c1 = pages.CredentialsForm{ID: "c1", CallbackURL: "/callback/c1", Fields: []pages.Field{{Name: "u"}}}
		c2 = pages.CredentialsForm{ID: "c2", CallbackURL: "/callback/c2", Fields: []pages.Field{{Name: "u"}}}
		p  = pages.PasswordForm{ID: "p", CallbackURL: "/callback/p", SignUpURL: "/up", ForgotURL: "/forgot"}
		w  = pages.WebAuthnForm{ID: "w", OptionsURL: "/options/w", CallbackURL: "/callback/w", Conditional: true}
	)
	mixed := render(t, pages.SignIn{CSRFToken: "t", Forms: []pages.Form{
		w, p, c1, e1, nil, c2, e2, (*pages.PasswordForm)(nil), &e3,
	}})
	sorted := render(t, pages.SignIn{CSRFToken: "t", Forms: []pages.Form{e1, e2, e3, c1, c2, p, w}})
	if mixed != sorted {
		t.Errorf("the page depends on the order of the kinds in Forms:\n%s\n\nwant\n%s", mixed, sorted)
	}
	last := -1
	for _, want := range []string{
		`action="/signin/e1"`, `id="email-0"`,
		`action="/signin/e2"`, `id="email-1"`,
		`action="/signin/e3"`, `id="email-2"`,
		`action="/callback/c1"`, `id="credentials-0-0"`,
		`action="/callback/c2"`, `id="credentials-1-0"`,
		`action="/callback/p"`, `id="password-0-email"`,
		`action="/callback/w"`, `id="webauthn-0"`,
	} {
		i := strings.Index(mixed, want)
		if i < 0 {
			t.Fatalf("the page lacks %s:\n%s", want, mixed)
		}
		if i < last {
			t.Errorf("%s is out of order:\n%s", want, mixed)
		}
		last = i
	}
	if n := strings.Count(mixed, `<div class="sep">or</div>`); n != 6 {
		t.Errorf("%d separators, want 6 between 7 forms", n)
	}
	if n := strings.Count(mixed, ".links {"); n != 1 {
		t.Errorf("the password form's links rule is there %d times, want once", n)
	}
	if !strings.Contains(mixed, "<script>") {
		t.Error("a page with a passkey form has no script")
	}
	if empty := render(t, pages.SignIn{Forms: []pages.Form{nil, (*pages.EmailForm)(nil)}}); strings.Contains(empty, "<form") {
		t.Errorf("nil forms are shown:\n%s", empty)
	}
}
