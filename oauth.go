package gatehouse

// The OAuth 2.0 / OpenID Connect providers: the sign-in, from the button
// to the session, is internal/oauthflow's; the relying-party client,
// internal/rp's. Here: the flow interface and the Host method only this
// flow needs.

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse/internal/oauthflow"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// oauthFlow is the flow of an OAuth 2.0 or OpenID Connect provider; the
// relying-party client (internal/rp) does the talking to the provider.
type oauthFlow struct {
	*rp.Provider
	flow *oauthflow.Flow
}

func (f oauthFlow) info() providers.Base {
	c := f.Config()
	return providers.Base{ID: c.ID, Name: c.Name, Type: c.Type}
}

// crossSiteCallback: a form_post answer is a cross-site POST from the
// provider's origin; the bound check cookie is what gives it any power
// (link.go).
func (oauthFlow) crossSiteCallback() bool { return true }

func (f oauthFlow) addTo(page *pages.SignIn, p providers.AppProvider, _ *base) {
	page.OAuth = append(page.OAuth, pages.Button{ID: p.ID, Name: p.Name, SigninURL: p.SigninURL, Style: f.Config().Style})
}

func (f oauthFlow) form(path, csrf, callback string) template.HTML {
	return pages.HelperForm{Action: path + "/signin/" + f.Config().ID, CSRF: csrf, Callback: callback, Label: "Sign in with " + f.Config().Name}.Button()
}

func (f oauthFlow) signIn(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base, form url.Values) {
	f.flow.SignIn(w, r, form)
}

func (f oauthFlow) callback(_ *Handler, w http.ResponseWriter, r *http.Request, _ *base) {
	f.flow.Callback(w, r)
}
