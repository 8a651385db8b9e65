package pages

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"strconv"

	"github.com/a-h/templ"
)

// WebAuthnForm is a WebAuthn (passkey) provider's part of the sign-in
// page: a "Sign in with <Name>" button, an input that offers the browser's
// passkeys as autofill (conditional UI), and, with SignUp, a button that
// registers a new passkey for the address typed in. A small script runs
// the ceremonies; the page's Content-Security-Policy allows exactly that
// script (by its hash) and requests to the page's own origin.
type WebAuthnForm struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name, for "Sign in with <Name>".
	Name string
	// OptionsURL is {base}/webauthn-options/{id}.
	OptionsURL string
	// CallbackURL is {base}/callback/{id}.
	CallbackURL string
	// Conditional offers passkeys in the input's autofill.
	Conditional bool
	// SignUp adds "Create a passkey", which registers a new user with the
	// e-mail address typed in.
	SignUp bool
}

// webauthnScript runs the WebAuthn ceremonies of the forms marked
// data-webauthn. It has no inline handlers and does not eval.
//
// A string, not a file of an embed.FS: a program links it only when it
// renders a passkey form or serves the script.
//
//go:embed templates/webauthn.js
var webauthnScript string

// WebAuthnScript returns the passkey script, for pages of the
// application's own: serve it from the site's origin (the Handler serves
// it at {base}/webauthn.js) and mark a form as the sign-in page does,
// with data-webauthn, data-options and data-callback attributes, hidden
// csrfToken and callbackUrl inputs, and buttons with
// data-action="register" or "authenticate".
func WebAuthnScript() string { return webauthnScript }

// webauthnView is the view of one WebAuthnForm.
type webauthnView struct {
	Name, OptionsURL, CallbackURL, InputID string
	Conditional, SignUp                    bool
}

func (WebAuthnForm) kind() formKind { return webauthnKind }

func (f WebAuthnForm) section(b *signInBuild, i int) templ.Component {
	b.script = webauthnScript
	return signInWebAuthn(b.tag, b.view, &webauthnView{
		Name:        displayName(f.Name, f.ID),
		OptionsURL:  f.OptionsURL,
		CallbackURL: f.CallbackURL,
		InputID:     "webauthn-" + strconv.Itoa(i),
		Conditional: f.Conditional,
		SignUp:      f.SignUp,
	})
}

// scriptSource returns the CSP source of the page's script: its SHA-256
// hash, so that no other inline script can run.
func scriptSource(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
