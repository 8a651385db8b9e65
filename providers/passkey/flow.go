package passkey

import (
	"io"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/webauthnrp"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// The flow is a passkey flow, and a way to sign in besides linked
// accounts.
var (
	_ plugin.WebAuthn   = flow{}
	_ plugin.Way        = flow{}
	_ plugin.BaseRouter = flow{}
	_ plugin.Provider   = WebAuthnConfig{}
)

// NewFlow checks c against the handler's configuration and returns its
// sign-in (internal/passkeyflow). gatehouse.New calls it; applications
// do not. It needs an adapter that stores authenticators.
func (c WebAuthnConfig) NewFlow(e *plugin.Env) (plugin.Flow, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	store, err := adapter.AsAuthenticatorAdapter(e.Adapter)
	if e.Adapter == nil || err != nil {
		return nil, &autherr.ConfigError{Provider: c.ID, Field: "Adapter", Reason: "a WebAuthn provider needs an Adapter that implements adapter.AuthenticatorAdapter (memory, sqlite and postgres do)"}
	}
	// The log of used challenges; with several instances (Config.Limits
	// not in memory) they share it, so a response is accepted once.
	challenges := passkeyflow.NewChallenges()
	if e.SharedLimits {
		challenges.Shared = e.Limits.Limiter("passkey-challenges", 1, passkeyflow.MaxCeremony)
	}
	p := webauthnrp.Provider{ID: c.ID, Name: c.Name, RPID: c.RPID, RPName: c.RPName, Origin: c.Origin, Timeout: c.Timeout,
		UserVerification: string(c.UserVerification), ResidentKey: string(c.ResidentKey),
		DisableConditionalUI: c.DisableConditionalUI, SignUp: c.SignUp, GetUserInfo: c.GetUserInfo}
	return flow{passkeyflow.New(passkeyflow.Config{Provider: p, Adapter: e.Adapter, Store: store,
		Logger: e.Logger, Challenges: challenges, Sealer: e.Sealer,
		Events: passkeyflow.Events{CreateUser: e.Events.CreateUser, LinkAccount: e.Events.LinkAccount}}, e.Finisher)}, nil
}

// flow is a passkey provider's ceremonies, with their routes under
// {base}.
type flow struct{ *passkeyflow.Flow }

// BaseRoutes returns GET {base}/webauthn-options/{id}, which starts a
// ceremony, and GET {base}/webauthn.js, the script of the forms.
func (f flow) BaseRoutes() []plugin.Route {
	return []plugin.Route{
		{Method: http.MethodGet, Pattern: "/webauthn-options/" + f.Info().ID, Handler: f.Options},
		{Method: http.MethodGet, Pattern: "/webauthn.js", Handler: script},
	}
}

// script answers GET {base}/webauthn.js: the passkey script of the
// sign-in page, for the application's own pages too
// (pages.WebAuthnScript).
func script(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = io.WriteString(w, pages.WebAuthnScript())
}
