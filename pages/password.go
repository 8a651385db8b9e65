package pages

import (
	"strconv"

	"github.com/a-h/templ"
)

// PasswordForm is a password-accounts provider's sign-in form, with its
// links to the sign-up and "forgot your password" pages.
type PasswordForm struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name, for "Sign in with <Name>".
	Name string
	// CallbackURL is where the form POSTs: {base}/callback/{id}.
	CallbackURL string
	// SignUpURL is linked as "Create an account": {base}/{id}/sign-up.
	SignUpURL string
	// ForgotURL is linked as "Forgot your password?": {base}/{id}/forgot.
	ForgotURL string
}

func (PasswordForm) kind() formKind { return passwordKind }

func (f PasswordForm) section(b *signInBuild, i int) templ.Component {
	if i == 0 {
		b.rules = append(b.rules, passwordLinksRule)
	}
	pv := &passwordFormView{
		Name: displayName(f.Name, f.ID), CallbackURL: f.CallbackURL, SignUpURL: f.SignUpURL, ForgotURL: f.ForgotURL,
		InputPrefix: "password-" + strconv.Itoa(i),
	}
	if pv.ErrorID = b.failed(f.ID, pv.InputPrefix); pv.ErrorID != "" {
		pv.Email = b.page.Values["email"]
	}
	return signInPassword(b.tag, b.view, pv)
}

// PasswordKind is which password page to show.
type PasswordKind string

// The password pages.
const (
	// PasswordSignUp asks for an e-mail address, an optional name and a
	// new password.
	PasswordSignUp PasswordKind = "sign-up"
	// PasswordForgot asks for the e-mail address to send a reset link to.
	PasswordForgot PasswordKind = "forgot"
	// PasswordReset asks for the new password of a reset link.
	PasswordReset PasswordKind = "reset"
	// PasswordChange asks a signed-in user for the current password and
	// a new one.
	PasswordChange PasswordKind = "change"
)

// Password is one of the password-accounts provider's form pages.
type Password struct {
	// Theme is the page's look.
	Theme Theme
	// Kind is which form to show.
	Kind PasswordKind
	// CSRFToken goes into the form as the hidden csrfToken field.
	CSRFToken string
	// CallbackURL, when set, goes into the form as the hidden callbackUrl
	// field.
	CallbackURL string
	// ActionURL is where the form POSTs.
	ActionURL string
	// Email fills the e-mail field (sign-up, forgot) or, as a hidden
	// field, names the account of a reset link.
	Email string
	// Token is a reset link's token, kept in a hidden field until the
	// form is sent: showing the page does not use the link up.
	Token string
	// MinLength and MaxLength are the password policy's lengths, for the
	// hint and the inputs' minlength and maxlength.
	MinLength, MaxLength int
	// Error, when set, is shown in a banner: what was wrong with what
	// was sent (never whether an account exists).
	Error string
	// SignInURL, when set, is linked as "Back to sign-in".
	SignInURL string
	// HomeURL, when set, is linked as "Back" (the change page).
	HomeURL string
}

// Notice is a page with a heading, a sentence and up to one link: "Check
// your email", "Password changed".
type Notice struct {
	// Theme is the page's look.
	Theme Theme
	// Title is the heading and the document title.
	Title string
	// Message is the sentence under it.
	Message string
	// LinkURL and LinkText, when set, are the one link (a button).
	LinkURL, LinkText string
}

// passwordLinksRule lays out the sign-in form's two links.
// fieldErrorRule styles the error shown inside a refused form.
const fieldErrorRule = ".field-error { margin: -.25rem 0 1rem; color: var(--err-text); font-size: .875rem; }\n" +
	"input[aria-invalid=\"true\"] { border-color: var(--err-text); }"

const passwordLinksRule = ".links { display: flex; justify-content: space-between; gap: 1rem; margin: .75rem 0 0; font-size: .875rem; }"

type (
	passwordFormView struct {
		Name, CallbackURL, SignUpURL, ForgotURL, InputPrefix string
		Email, ErrorID                                       string // after a refusal (SignIn.Failed)
	}
	passwordView struct {
		Password
		Title, Hint string
		// The new password input's label and name, and the submit
		// button's text, which depend on Kind.
		NewLabel, NewName, Submit string
	}
)

func (value Password) document(lang Language) *document {
	p := &value
	v := &passwordView{Password: *p} // a copy: the caller's page stays as it was
	v.NewLabel, v.NewName = Text(lang.Tag, "password.new"), "password"
	switch v.Kind {
	case PasswordForgot:
		v.Title, v.Submit = Text(lang.Tag, "signin.forgot"), Text(lang.Tag, "password.send")
	case PasswordReset:
		v.Title, v.Submit = Text(lang.Tag, "password.resetTitle"), Text(lang.Tag, "password.set")
	case PasswordChange:
		v.Title, v.Submit = Text(lang.Tag, "password.changeTitle"), Text(lang.Tag, "password.change")
		v.NewName = "newPassword"
	default: // PasswordSignUp, and a kind this version does not know
		v.Kind, v.Title = PasswordSignUp, Text(lang.Tag, "signin.createAccount")
		v.Submit, v.NewLabel = Text(lang.Tag, "password.create"), Text(lang.Tag, "field.password")
	}
	if v.MinLength > 0 && v.MaxLength > 0 {
		v.Hint = Text(lang.Tag, "password.hint", v.MinLength, v.MaxLength)
	}
	return newDocument(lang, p.Theme, v.Title, nil, passwordContent(lang.Tag, v))
}

func (value Notice) document(lang Language) *document {
	p := &value
	title := p.Title
	if title == "" {
		title = Text(lang.Tag, "verify.title")
	}
	return newDocument(lang, p.Theme, title, nil, noticeContent(lang.Tag, &Notice{Title: title, Message: p.Message, LinkURL: p.LinkURL, LinkText: p.LinkText}))
}
