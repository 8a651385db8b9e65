package pages

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// Form is a provider's form on the sign-in page (SignIn.Forms): an
// EmailForm, CredentialsForm, PasswordForm or WebAuthnForm, as a value
// or a pointer. Only this package's form types implement it. Each kind's
// markup is reached only through the interface, so a program links a
// kind's markup only when it puts a form of that kind into SignIn.Forms.
type Form interface {
	// kind is the form's kind: its place in the page's order.
	kind() formKind
	// section returns the form's part of the page b builds, the form
	// being the i-th (from 0) of its kind there.
	section(b *signInBuild, i int) templ.Component
}

// formKind orders the sign-in page's forms: e-mail first, then
// credentials, password and passkey forms.
type formKind int

const (
	emailKind formKind = iota
	credentialsKind
	passwordKind
	webauthnKind
	formKinds // the number of kinds
)

// signInBuild is a sign-in page being built: what its forms read and
// what they add to the document.
type signInBuild struct {
	page   *SignIn
	view   *signInView
	tag    string   // the language tag the page is written in
	rules  []string // the style sheet's extra rules
	script string   // the page's script, "" for none (webauthn.go)
}

// addForms adds a section per form: the kinds in their order, each
// kind's forms in the order of forms.
func (b *signInBuild) addForms(forms []Form) {
	for k := range formKinds {
		i := 0 // the form's place among its kind's
		for _, f := range forms {
			// A nil pointer to a form type has the methods too, but
			// calling them would dereference nil.
			if v := reflect.ValueOf(f); f == nil || v.Kind() == reflect.Pointer && v.IsNil() || f.kind() != k {
				continue
			}
			b.view.Sections = append(b.view.Sections, f.section(b, i))
			i++
		}
	}
}

// failed returns the id of the form's error message when the form with
// id was refused (SignIn.Failed), adding the rule that styles it; else
// "".
func (b *signInBuild) failed(id, prefix string) string {
	if b.page.Failed == "" || b.page.Failed != id || b.view.Error == "" {
		return ""
	}
	b.rules = append(b.rules, fieldErrorRule)
	return prefix + "-error"
}

func (EmailForm) kind() formKind { return emailKind }

func (f EmailForm) section(b *signInBuild, i int) templ.Component {
	return signInEmail(b.tag, b.view, &emailView{
		Name:      displayName(f.Name, f.ID),
		SigninURL: f.SigninURL,
		InputID:   "email-" + strconv.Itoa(i),
	})
}

func (CredentialsForm) kind() formKind { return credentialsKind }

func (c CredentialsForm) section(b *signInBuild, i int) templ.Component {
	cv := &credentialsView{Name: displayName(c.Name, c.ID), CallbackURL: c.CallbackURL}
	cv.ErrorID = b.failed(c.ID, "credentials-"+strconv.Itoa(i))
	for j, f := range c.Fields {
		label := f.Label
		if strings.TrimSpace(label) == "" {
			label = f.Name
		}
		cv.Fields = append(cv.Fields, fieldView{
			ID:           "credentials-" + strconv.Itoa(i) + "-" + strconv.Itoa(j),
			Name:         f.Name,
			Label:        label,
			Type:         inputType(f.Type),
			Placeholder:  f.Placeholder,
			Autocomplete: f.Autocomplete,
			Required:     f.Required,
		})
		if fv := &cv.Fields[len(cv.Fields)-1]; cv.ErrorID != "" {
			fv.ErrorID = cv.ErrorID
			if fv.Type != "password" {
				fv.Value = b.page.Values[f.Name]
			} else if !slices.ContainsFunc(cv.Fields, func(x fieldView) bool { return x.Autofocus }) {
				fv.Autofocus = true // the first password input: what is typed next
			}
		}
	}
	return signInCredentials(b.tag, b.view, cv)
}
