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

// newSelfService returns the self-service routes of h's configuration.
func (h *Handler) newSelfService() *selfservice.Routes {
	cfg := selfservice.Config{Adapter: h.cfg.Adapter, Linker: h.linker(), Logger: h.cfg.Logger, Theme: h.cfg.Theme,
		DatabaseSessions: h.cfg.Session.Strategy == StrategyDatabase, FreshAge: h.cfg.Session.FreshAge,
		Events:   selfservice.Events{Failure: h.cfg.Events.Failure, RevokeSessions: h.cfg.Events.RevokeSessions, TwoFactor: h.cfg.Events.TwoFactor},
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
	return selfservice.New(cfg, h.fin.Site)
}

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
		var ce *ConfigError
		if !errors.As(err, &ce) {
			err = &ConfigError{Field: "TwoFactor", Err: err}
		}
		return nil, err
	}
	return flow, nil
}
