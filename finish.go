package gatehouse

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/emailflow"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/passwordflow"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

// finishSignIn runs the SignIn callback, finds, creates or links the user
// (with an adapter), issues a fresh session and redirects.
func (h *Handler) finishSignIn(w http.ResponseWriter, r *http.Request, b *base, res signin.Result) error {
	ctx := r.Context()
	prov := res.Account.Provider
	if p, ok := h.oauthProvider(prov); ok {
		res.AllowDangerousLinking = p.Config().AllowDangerousEmailAccountLinking
	}
	if cb := h.cfg.Callbacks.SignIn; cb != nil {
		allow, to, err := cb(ctx, SignInParams{User: res.User, Account: res.Account, Profile: res.Profile, Request: r})
		if err != nil {
			return autherr.Wrap(err, AccessDenied, "signin_callback", prov, "signIn callback")
		}
		if !allow {
			return autherr.New(AccessDenied, "signin_callback", prov, "signIn callback", errors.New("the SignIn callback refused"))
		}
		if to != "" {
			if safe := h.site.CallbackURL(r, to); safe != "" {
				b.Cookies.Set(w, b.Cookies.CallbackURL, safe, time.Time{})
				res.CallbackURL = safe
			}
		}
	}

	// Every adapter call below is bounded: a stalled database fails the
	// sign-in (AdapterError, 503) instead of holding the request.
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	// Who the browser is signed in as, read once: the linking rules and
	// the second factor compare with it. A failing store is an error, not
	// "nobody": linking must not fall back to creating a user.
	current, err := h.currentUserID(ctx, r, b)
	if err != nil {
		return autherr.New(AdapterError, "adapter", prov, "session", err)
	}
	res.SignedIn = current
	if res.Unbound {
		if err := h.checkSameUser(ctx, res); err != nil {
			return err
		}
	}
	user, isNew := res.User, false
	if h.cfg.Adapter == nil {
		// No database: the id is the provider's subject, scoped by the
		// provider so two providers' subjects never collide (ASVS 6.8.1).
		// It is stable across sign-ins, unlike Auth.js's random UUIDs.
		user.ID = prov + ":" + res.User.ID
	} else if res.Persist != nil {
		stored, created, err := res.Persist(ctx)
		if err != nil {
			return err
		}
		user, isNew = stored, created
	} else {
		link := h.linkUser
		if res.Account.Type == account.TypeEmail {
			link = func(ctx context.Context, res signin.Result) (profile.User, bool, error) {
				return h.linker().EmailUser(ctx, res.Account.Provider, res.User, res.SignedIn)
			}
		}
		stored, created, err := link(ctx, res)
		if err != nil {
			return err
		}
		user, isNew = stored, created
	}

	// Admin hook: a banned user goes no further, not even to the second
	// factor (internal/sessions Admit; Issue asks again).
	if err := h.sessions.Admit(ctx, user.ID, prov); err != nil {
		return err
	}
	if asked, err := h.twoFactor.Ask(ctx, w, r, user, res); asked || err != nil {
		return err // internal/twofactorflow makes the session after the code
	}
	if err := h.sessions.Issue(ctx, w, r, b, user, res, isNew); err != nil {
		return err
	}
	if ev := h.cfg.Events.SignIn; ev != nil {
		ev(r.Context(), user, res.Account, isNew)
	}
	target := h.site.CallbackURL(r, cmp.Or(res.CallbackURL, cookies.Value(r, b.Cookies.CallbackURL)))
	if isNew && h.cfg.Pages.NewUser != "" {
		target = h.cfg.Pages.NewUser + "?callbackUrl=" + urlQueryEscape(target)
	}
	httpx.Redirect(w, r, target)
	return nil
}

// linkUser applies the linking rules (internal/accountlink) to res, for
// the user signed in when it arrived (res.SignedIn), if any.
func (h *Handler) linkUser(ctx context.Context, res signin.Result) (profile.User, bool, error) {
	return h.linker().Link(ctx, accountlink.SignIn{User: res.User, Account: *res.Account, Profile: res.Profile,
		AllowDangerousLinking: res.AllowDangerousLinking, Current: res.SignedIn})
}

// linker is the account linking of h's adapter and events.
func (h *Handler) linker() accountlink.Linker {
	return accountlink.Linker{Adapter: h.cfg.Adapter, CreateUser: h.cfg.Events.CreateUser,
		LinkAccount: h.cfg.Events.LinkAccount, UnlinkAccount: h.cfg.Events.UnlinkAccount}
}

// currentUserID returns the id of the stored user signed in on r, or ""
// when nobody is (no session, an expired or unknown one, or a user who no
// longer exists). A failing adapter is an error, not "nobody": linking a
// new account must not fall back to creating a user because the session
// could not be read.
func (h *Handler) currentUserID(ctx context.Context, r *http.Request, b *base) (string, error) {
	id, _, err := h.sessions.Current(ctx, r, b)
	return id, err
}

// checkBinding compares the binding recorded when a sign-in started
// with the browser finishing it. A different session is
// AccountLinkMismatch: the sign-in never links into, nor replaces, the
// session this browser holds. The same session in a different browser is
// InvalidCheck (browser_mismatch): a login CSRF attempt. A binding of one
// digest (passkey ceremonies, which are same-origin requests) names the
// session only.
func (h *Handler) checkBinding(r *http.Request, b *base, provider, recorded string) error {
	switch checks.CompareBinding(recorded, h.sessions.Binding(r, b)) {
	case checks.NoBinding:
		return autherr.New(InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the check cookie records no browser binding"))
	case checks.OtherSession:
		return autherr.New(AccountLinkMismatch, "session_mismatch", provider, "binding", errors.New("the sign-in was started by another session or browser; the current session is left as it was"))
	case checks.OtherBrowser:
		return autherr.New(InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the sign-in was started in another browser"))
	}
	return nil
}

// Binding returns the binding of the browser and session r comes from.
func (s host) Binding(r *http.Request) string { return s.h.sessions.Binding(r, s.h.baseFor(r)) }

// CheckBinding compares a binding recorded when a sign-in began with the
// browser finishing it.
func (s host) CheckBinding(r *http.Request, provider, recorded string) error {
	return s.h.checkBinding(r, s.h.baseFor(r), provider, recorded)
}

// checkSameUser guards a sign-in that proves who the user is but cannot
// prove it began in this browser session (credentials, e-mail links,
// passkey authentication): when a user is signed in, the sign-in must be
// for that same user. It never links a new account into the signed-in
// user and never silently replaces their session with someone else's.
// It reads only, before anything is created.
func (h *Handler) checkSameUser(ctx context.Context, res signin.Result) error {
	current := res.SignedIn
	if current == "" {
		return nil
	}
	target, err := h.targetUserID(ctx, res)
	if err != nil {
		return autherr.New(AdapterError, "adapter", res.Account.Provider, "session", err)
	}
	if target != current {
		return autherr.New(AccountLinkMismatch, "signed_in_as_other_user", res.Account.Provider, "binding", errors.New("a sign-in for another user (or a new one) arrived while a user is signed in; nothing was linked and the session is left as it was"))
	}
	return nil
}

// targetUserID returns the id of the user res would sign in, "" when it
// would create one.
func (h *Handler) targetUserID(ctx context.Context, res signin.Result) (string, error) {
	a := h.cfg.Adapter
	acct := res.Account
	if a == nil {
		return acct.Provider + ":" + res.User.ID, nil
	}
	if acct.UserID != "" {
		return acct.UserID, nil
	}
	var u adapter.User
	var err error
	if acct.Type == account.TypeEmail {
		u, err = a.GetUserByEmail(ctx, res.User.Email)
	} else {
		u, err = a.GetUserByAccount(ctx, acct.Provider, acct.ProviderAccountID)
	}
	if errors.Is(err, adapter.ErrNotFound) {
		return "", nil
	}
	return u.ID, err
}

// otherWays lists the working ways to sign in that are not linked
// accounts: the user's passkeys; a password, when the user can use it
// (passwordflow.Usable); an e-mail link, when the user's address was
// proven (a link to an unproven address makes the owner a user of their
// own: accountlink.Claim).
func (h *Handler) otherWays(ctx context.Context, userID string) ([]selfservice.Way, error) {
	var ways []selfservice.Way
	var user *adapter.User
	stored := func() (adapter.User, error) {
		if user == nil {
			u, err := h.cfg.Adapter.GetUser(ctx, userID)
			if err != nil {
				return u, err
			}
			user = &u
		}
		return *user, nil
	}
	for _, id := range h.order {
		switch f := h.flows[id].(type) {
		case *passkeyflow.Flow:
			keys, err := f.Passkeys(ctx, userID)
			if err != nil {
				return nil, err
			}
			if keys > 0 {
				ways = append(ways, selfservice.Way{Name: "Passkey", Count: keys})
			}
		case *passwordflow.Flow:
			u, err := stored()
			if err != nil {
				return nil, err
			}
			ok, err := f.Usable(ctx, u)
			if err != nil {
				return nil, err
			}
			if ok {
				ways = append(ways, selfservice.Way{Name: "Password", Count: 1})
			}
		case *emailflow.Flow:
			u, err := stored()
			if err != nil {
				return nil, err
			}
			if u.Email != "" && u.EmailVerified != nil {
				ways = append(ways, selfservice.Way{Name: "Email link", Count: 1})
			}
		}
	}
	return ways, nil
}

// host is the Handler as the internal packages see it: each of them (the
// self-service routes of internal/selfservice, the flows that live outside
// the root) declares a small Host interface with the methods it needs, and
// host's methods, keyed on the request, implement them all.
type host struct {
	h          *Handler
	*site.Site // origin, CSRF, rate limits, failures and pages
}

// host returns h as the internal packages see it.
func (h *Handler) host() host { return host{h, h.site} }

// CurrentUser returns the signed-in user's id ("" for none) and when
// they signed in; an error when the store cannot be read.
func (s host) CurrentUser(ctx context.Context, r *http.Request) (string, time.Time, error) {
	return s.h.sessions.Current(ctx, r, s.h.baseFor(r))
}

// SessionHash returns the stored hash of this browser's database session
// token, "" for none.
func (s host) SessionHash(r *http.Request) string { return sessions.SessionHash(r, s.h.baseFor(r)) }

// SignOutHere clears this browser's session cookie and its cookie cache.
func (s host) SignOutHere(w http.ResponseWriter, r *http.Request) {
	s.h.sessions.SignOutHere(w, r, s.h.baseFor(r))
}

// FinishSignIn ends a sign-in as every flow does (finish.go's finishSignIn).
func (s host) FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error {
	return s.h.finishSignIn(w, r, s.h.baseFor(r), res)
}

// CurrentUserID returns the signed-in user's id, "" for none.
func (s host) CurrentUserID(ctx context.Context, r *http.Request) (string, error) {
	return s.h.currentUserID(ctx, r, s.h.baseFor(r))
}

// OtherWays lists the ways userID can sign in besides linked accounts
// (passkeys, password, e-mail link): an unlink must leave one.
func (s host) OtherWays(ctx context.Context, userID string) ([]selfservice.Way, error) {
	return s.h.otherWays(ctx, userID)
}

// Providers returns the configured providers for the accounts page.
func (s host) Providers(r *http.Request) []selfservice.Provider {
	b := s.h.baseFor(r)
	out := make([]selfservice.Provider, 0, len(s.h.order))
	for _, id := range s.h.order {
		p := selfservice.Provider{ID: id, Name: s.h.flows[id].Info().Name, SigninURL: b.URL("signin", id)}
		if o, ok := s.h.oauthProvider(id); ok {
			p.OAuth, p.Style = true, o.Config().Style
		}
		out = append(out, p)
	}
	return out
}

// newSelfService returns the self-service routes of h's configuration.
func (h *Handler) newSelfService() *selfservice.Routes {
	cfg := selfservice.Config{Adapter: h.cfg.Adapter, Linker: h.linker(), Logger: h.cfg.Logger, Theme: h.cfg.Theme,
		DatabaseSessions: h.cfg.Session.Strategy == StrategyDatabase, FreshAge: h.cfg.Session.FreshAge,
		Events:   selfservice.Events{Failure: h.cfg.Events.Failure, RevokeSessions: h.cfg.Events.RevokeSessions, TwoFactor: h.cfg.Events.TwoFactor},
		NotFound: h.notFound}
	if h.twoFactor.Service != nil {
		cfg.TwoFactor, cfg.PerUser = h.twoFactor.Service, h.twoFactor.PerUser
	}
	return selfservice.New(cfg, h.host())
}

// newTwoFactor checks cfg.TwoFactor and returns the second step of h's
// sign-ins, its Service nil when two-factor sign-in is off.
func (h *Handler) newTwoFactor(cfg Config) (*twofactorflow.Step, error) {
	step := &twofactorflow.Step{Users: cfg.Adapter, Theme: cfg.Theme, SignedIn: cfg.Events.SignIn, Host: h.host(),
		Changed: func(ctx context.Context, userID string, c twofactor.Change) { h.self.TwoFactorEvent(ctx, userID, c) }}
	tf := cfg.TwoFactor
	if !tf.Enabled {
		return step, nil
	}
	store, ok := cfg.Adapter.(twofactor.Store)
	if !ok || !adapter.Supports[twofactor.Store](cfg.Adapter) { // a wrapper (redisstore) may have the methods and no store behind them
		return nil, &ConfigError{Field: "TwoFactor.Enabled", Err: errors.New("two-factor sign-in needs an Adapter that is a twofactor.Store (the built-in adapters are)")}
	}
	svc, err := twofactor.New(twofactor.Config{TOTP: twofactor.TOTP{Issuer: cmp.Or(tf.Issuer, "Gatehouse")}, Secret: cfg.Secret, Store: store})
	if err != nil {
		return nil, &ConfigError{Field: "TwoFactor", Err: err}
	}
	step.Service = svc
	step.PerPending = h.limiter(tf.PerPending, "two-factor-per-pending", 5, twofactor.PendingMaxAge)
	step.PerUser = h.limiter(tf.PerUser, "two-factor-per-user", 10, 15*time.Minute)
	return step, nil
}

// IssueSession makes the session of a sign-in completed by a later step.
func (s host) IssueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) error {
	return s.h.sessions.Issue(ctx, w, r, s.h.baseFor(r), user, res, false)
}
