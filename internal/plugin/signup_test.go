package plugin

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// fakeFlow is a provider of some type; a passkey one when signUp is set.
type fakeFlow struct {
	base   providers.Base
	signUp bool
}

func (f fakeFlow) Info() providers.Base                                 { return f.base }
func (fakeFlow) SignIn(http.ResponseWriter, *http.Request, url.Values)  {}
func (fakeFlow) Callback(http.ResponseWriter, *http.Request)            {}
func (fakeFlow) CrossSiteCallback() bool                                { return false }
func (fakeFlow) AddTo(*pages.SignIn, providers.AppProvider, *site.Base) {}
func (fakeFlow) Form(string, pages.HelperForm) template.HTML            { return "" }
func (fakeFlow) Options(http.ResponseWriter, *http.Request)             {}
func (f fakeFlow) SignUp() bool                                         { return f.signUp }

// TestCheckSignUp: passkey sign-up is refused beside an e-mail provider
// or a provider that links by address, and allowed otherwise; a passkey
// provider without sign-up goes with anything.
func TestCheckSignUp(t *testing.T) {
	passkey := func(signUp bool) Flow {
		return fakeFlow{base: providers.Base{ID: "passkey", Type: providers.TypeWebAuthn}, signUp: signUp}
	}
	github := fakeFlow{base: providers.Base{ID: "github", Type: providers.TypeOAuth}}
	mail := fakeFlow{base: providers.Base{ID: "email", Type: providers.TypeEmail}}
	dangerous := func(f Flow) bool { return f.Info().ID == "github" }
	never := func(Flow) bool { return false }
	for _, tc := range []struct {
		name   string
		flows  []Flow
		links  func(Flow) bool
		refuse string // in the reason, "" to allow
	}{
		{"alone", []Flow{github, passkey(true)}, never, ""},
		{"linking OAuth", []Flow{github, passkey(true)}, dangerous, `provider "github" links by e-mail address`},
		{"e-mail", []Flow{passkey(true), mail}, never, `e-mail provider "email"`},
		{"no sign-up", []Flow{github, mail, passkey(false)}, dangerous, ""},
	} {
		err := CheckSignUp(tc.flows, tc.links)
		var ce *autherr.ConfigError
		switch {
		case tc.refuse == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.refuse != "" && (!errors.As(err, &ce) || ce.Provider != "passkey" || ce.Field != "SignUp" || !strings.Contains(ce.Reason, tc.refuse)):
			t.Errorf("%s: %v, want a ConfigError saying %s", tc.name, err, tc.refuse)
		}
	}
}
