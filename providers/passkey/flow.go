package passkey

import (
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/webauthnrp"
)

// The flow is a passkey flow, and a way to sign in besides linked
// accounts.
var (
	_ plugin.WebAuthn = (*passkeyflow.Flow)(nil)
	_ plugin.Way      = (*passkeyflow.Flow)(nil)
	_ plugin.Provider = WebAuthnConfig{}
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
	return passkeyflow.New(passkeyflow.Config{Provider: p, Adapter: e.Adapter, Store: store,
		Logger: e.Logger, Challenges: challenges, Sealer: e.Sealer,
		Events: passkeyflow.Events{CreateUser: e.Events.CreateUser, LinkAccount: e.Events.LinkAccount}}, e.Finisher), nil
}
