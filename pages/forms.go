package pages

import (
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/a-h/templ"
)

// The template helpers' forms (gatehouse.Handler.Funcs: signIn and
// signOut): small forms that post to the auth routes with the CSRF token
// and the callbackUrl to come back to. Every value is escaped by the
// templ components (forms.templ).

// HelperForm is one of the template helpers' forms: it posts to Action
// with the CSRF token and Callback as callbackUrl.
type HelperForm struct {
	Action, CSRF, Callback string
	// Label is the button's text: "Sign in with <Name>" in Lang when
	// empty.
	Label string
	// Class, when set, is the button's class attribute.
	Class string
	// Lang is the language tag of the default wording, e.g. "de".
	Lang string
	// Name is the provider's name, for "Sign in with Name".
	Name string
	// Fields are a credentials form's inputs.
	Fields []Field
}

// HelperOptions reads the options of a template helper, key/value pairs:
//
//	{{ signIn "github" "label" "Continue with GitHub" "class" "btn" "callbackUrl" "/dashboard" }}
//
// The keys are label, class and callbackUrl; an unknown key, a key
// given twice or a key without a value is an error. The values are
// returned as they are: the caller checks callbackUrl.
func HelperOptions(helper string, kv []string) (label, class, callbackURL string, err error) {
	if len(kv)%2 != 0 {
		return "", "", "", fmt.Errorf("gatehouse: %s: options come in pairs (key, value); %q has no value", helper, kv[len(kv)-1])
	}
	seen := map[string]bool{}
	for i := 0; i < len(kv); i += 2 {
		k, v := kv[i], kv[i+1]
		if seen[k] {
			return "", "", "", fmt.Errorf("gatehouse: %s: option %q given twice", helper, k)
		}
		seen[k] = true
		switch k {
		case "label":
			label = v
		case "class":
			class = v
		case "callbackUrl":
			callbackURL = v
		default:
			return "", "", "", fmt.Errorf("gatehouse: %s: unknown option %q (want label, class or callbackUrl)", helper, k)
		}
	}
	return label, class, callbackURL, nil
}

// withLabel returns f with the default label when it has none.
func (f HelperForm) withLabel() HelperForm {
	if f.Label == "" {
		f.Label = Text(f.Lang, "signin.with", f.Name)
	}
	return f
}

// Button returns f as a form with one button labelled f.Label.
func (f HelperForm) Button() template.HTML { return run(buttonForm(f.withLabel())) }

// Email returns f as an e-mail sign-in form: one address input.
func (f HelperForm) Email() template.HTML {
	return run(emailForm(f.withLabel(), Text(f.Lang, "field.email")))
}

// Credentials returns f as a credentials sign-in form: one input a field.
func (f HelperForm) Credentials() template.HTML { return run(credentialsForm(f.withLabel())) }

// run renders the form c. The result is safe HTML: templ escaped every
// value in it.
func run(c templ.Component) template.HTML {
	var b strings.Builder
	_ = c.Render(context.Background(), &b) // a strings.Builder does not fail
	return template.HTML(b.String())
}
