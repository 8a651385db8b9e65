package pages

import "html/template"

// TwoFactorChallenge is the second step of a sign-in for a user with
// two-factor sign-in on: a form for the code from the authenticator app
// or a backup code.
type TwoFactorChallenge struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into the form as the hidden csrfToken field.
	CSRFToken string
	// ActionURL is where the form POSTs the code: {base}/two-factor.
	ActionURL string
	// Error, when set, is shown above the form (a wrong code).
	Error string
	// SignInURL, when set, is linked as "Back to sign-in", a button as on
	// the other pages.
	SignInURL string
}

// TwoFactorSetup is the signed-in user's two-factor settings page. What
// it shows depends on the fields set:
//
//   - Enrolling (QRCode and Secret set): the QR code to scan, the secret
//     to type in by hand, and a form to confirm with a first code;
//   - BackupCodes set: the new backup codes, shown once;
//   - Enabled: how many backup codes are left, and forms (each needing a
//     current code) to make new backup codes or to turn two-factor
//     sign-in off;
//   - otherwise: a form to turn it on.
type TwoFactorSetup struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Enabled is whether two-factor sign-in is on; BackupCodesLeft how
	// many unused backup codes the user has.
	Enabled         bool
	BackupCodesLeft int
	// QRCode is the otpauth:// URI as a PNG data: URL; Secret the same key
	// in base32 for typing in. As a template.URL it is trusted: the page
	// writes it into the image's src unchecked (escaped for the
	// attribute), so it must be a URL the application made.
	QRCode template.URL
	Secret string
	// BackupCodes are new backup codes to show once.
	BackupCodes []string
	// Message and Error, when set, are shown at the top: a success, or a
	// refusal (a wrong code).
	Message, Error string
	// The forms' targets: {base}/two-factor/enroll, /confirm,
	// /backup-codes and /disable.
	EnrollURL, ConfirmURL, BackupCodesURL, DisableURL string
	// SignInURL, when set, is linked as "Sign in again" (a change that
	// needs a recent sign-in).
	SignInURL string
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

func (value TwoFactorChallenge) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "twofactor.title"), nil, twoFactorContent(lang.Tag, p))
}

func (value TwoFactorSetup) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "twofactor.title"), []string{
		".qr { display: block; margin: 0 auto 1rem; width: 200px; height: 200px; image-rendering: pixelated; }",
		".secret, .codes { font-family: ui-monospace, monospace; letter-spacing: .05em; word-break: break-all; }",
		".codes { columns: 2; list-style: none; padding: 0; }",
	}, twoFactorSetupContent(lang.Tag, p))
}

// backupCodesLeft is the sentence saying how many backup codes are left.
func backupCodesLeft(tag string, n int) string {
	if n == 1 {
		return Text(tag, "tfsetup.left1")
	}
	return Text(tag, "tfsetup.leftN", n)
}
