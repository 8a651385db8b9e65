package gatehouse

import (
	"context"
	"errors"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/finish"
	"github.com/gatehouse-auth/gatehouse/internal/secondfactor"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
)

// newFinisher returns the end of every sign-in (internal/finish): the
// SignIn callback, the linking rules, the second factor and the session,
// over the site and sessions of fs.
func (h *Handler) newFinisher(fs *finish.Site, second *twofactorflow.Step) *finish.Finisher {
	f := &finish.Finisher{Site: fs, Adapter: h.cfg.Adapter, Linker: h.linker(),
		SignedIn: h.cfg.Events.SignIn, NewUserPage: h.cfg.Pages.NewUser}
	if second.Service != nil {
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
	if h.twoFactor.Service != nil {
		cfg.TwoFactor, cfg.PerUser = h.twoFactor.Service, h.twoFactor.PerUser
	}
	return selfservice.New(cfg, h.fin.Site)
}

// newTwoFactor returns the second step of h's sign-ins, built by
// Config.TwoFactor (twofactor.SignIn: secondfactor.Feature); its Service is nil
// when two-factor sign-in is off, and its routes then send the browser
// to the sign-in page.
func (h *Handler) newTwoFactor(fs *finish.Site) (*twofactorflow.Step, error) {
	c := h.cfg
	step := &twofactorflow.Step{Users: c.Adapter, Theme: c.Theme, SignedIn: c.Events.SignIn, Host: fs,
		Changed: selfservice.ReportTwoFactor(c.Adapter, c.Logger, c.Events.TwoFactor)}
	if c.TwoFactor == nil {
		return step, nil
	}
	svc, perPending, perUser, err := c.TwoFactor.NewTwoFactor(secondfactor.Env{Users: c.Adapter, Secret: c.Secret, Limiter: h.limiter})
	if err != nil {
		var ce *ConfigError
		if !errors.As(err, &ce) {
			err = &ConfigError{Field: "TwoFactor", Err: err}
		}
		return nil, err
	}
	step.Service, step.PerPending, step.PerUser = svc, perPending, perUser
	return step, nil
}
