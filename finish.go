package gatehouse

import (
	"context"
	"errors"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/finish"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
)

// newFinisher returns the end of every sign-in (internal/finish): the
// SignIn callback, the linking rules, the second factor and the session,
// over the site and sessions of fs.
func (h *Handler) newFinisher(fs *finish.Site, second twofactorflow.Flow) *finish.Finisher {
	f := &finish.Finisher{Site: fs, Adapter: h.cfg.Adapter, Linker: h.linker(),
		SignedIn: h.cfg.Events.SignIn, NewUserPage: h.cfg.Pages.NewUser}
	if second != nil {
		f.SecondStep = second
	}
	if cb := h.cfg.Callbacks.SignIn; cb != nil {
		f.Allow = func(ctx context.Context, r *http.Request, res signin.Result) (bool, string, error) {
			return cb(ctx, SignInParams{User: res.User, Account: res.Account, Profile: res.Profile, Request: r})
		}
	}
	return f
}

// linker is the account linking of h's adapter and events.
func (h *Handler) linker() accountlink.Linker {
	return accountlink.Linker{Adapter: h.cfg.Adapter, CreateUser: h.cfg.Events.CreateUser,
		LinkAccount: h.cfg.Events.LinkAccount, UnlinkAccount: h.cfg.Events.UnlinkAccount}
}

// newSelfService builds the self-service routes (internal/selfservice)
// when Config.SelfService or two-factor sign-in, whose settings they
// serve, is on: the account and sessions routes of Config.SelfService's
// package, and the two-factor settings. Off, none of their code is
// linked: only the features' own packages reach it.
func (h *Handler) newSelfService() error {
	c := h.cfg
	if c.SelfService == nil && h.twoFactor == nil {
		return nil
	}
	if c.SelfService != nil && c.Adapter == nil {
		return &ConfigError{Field: "SelfService", Err: errSelfServiceAdapter}
	}
	cfg := selfservice.Config{Adapter: c.Adapter, Linker: h.linker(), Logger: c.Logger, Theme: c.Theme,
		DatabaseSessions: c.Session.Strategy == StrategyDatabase, FreshAge: c.Session.FreshAge,
		Events:   selfservice.Events{Failure: c.Events.Failure, RevokeSessions: c.Events.RevokeSessions, TwoFactor: c.Events.TwoFactor},
		NotFound: h.notFound}
	for _, id := range h.order {
		if w, ok := h.flows[id].(selfservice.Counter); ok {
			cfg.Ways = append(cfg.Ways, w)
		}
		p := selfservice.Provider{ID: id, Name: h.flows[id].Info().Name}
		if o, ok := h.oauthProvider(id); ok {
			p.OAuth, p.Style = true, o.Config().Style
		}
		cfg.Providers = append(cfg.Providers, p)
	}
	self := selfservice.New(cfg, h.fin.Site)
	if c.SelfService != nil {
		h.selfService = c.SelfService.SelfServiceRoutes(self)
	}
	if h.twoFactor != nil {
		h.twoFactorSettings = h.twoFactor.Settings(self)
	}
	return nil
}

// errSelfServiceAdapter is why Config.SelfService needs an Adapter.
var errSelfServiceAdapter = errors.New("the account and sessions routes need an Adapter, which stores what they list and change")

// newTwoFactor returns two-factor sign-in as Config.TwoFactor's package
// builds it (twofactor.SignIn: twofactorflow.Feature), nil when it is
// off: the Handler then links none of its routes (routes.go answers
// them).
func (h *Handler) newTwoFactor(fs *finish.Site) (twofactorflow.Flow, error) {
	c := h.cfg
	if c.TwoFactor == nil {
		return nil, nil
	}
	flow, err := c.TwoFactor.NewTwoFactor(&twofactorflow.Env{Users: c.Adapter, Secret: c.Secret, Limiter: h.limiter,
		Theme: c.Theme, Logger: c.Logger, SignedIn: c.Events.SignIn, Changed: c.Events.TwoFactor, Host: fs})
	if err != nil {
		return nil, featureError("TwoFactor", err)
	}
	return flow, nil
}
