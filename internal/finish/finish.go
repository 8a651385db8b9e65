// Package finish ends every sign-in the same way, whichever flow proved
// who the user is (internal/oauthflow, emailflow, credentialsflow,
// passkeyflow; providers/passwordaccount): the application's SignIn callback, the
// binding and same-user checks, the linking rules (internal/accountlink),
// the second factor (internal/twofactorflow), and the session
// (internal/sessions), in that order.
//
// New builds one Site and one Finisher, before the flows, and hands them
// down: a flow calls Finisher.FinishSignIn, which never calls back into
// the code that built it.
package finish

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/accountlink"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/cookies"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/internal/site"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Site is the site (origin, CSRF, limits, pages: internal/site) with its
// sessions: what a flow asks about the browser a request comes from.
type Site struct {
	*site.Site
	Sessions *sessions.Manager
}

// Binding returns the binding of the browser and session r comes from
// (checks.Binding), recorded when a sign-in starts.
func (s *Site) Binding(r *http.Request) string { return s.Sessions.Binding(r, s.For(r)) }

// CheckBinding compares the binding recorded when a sign-in started
// with the browser finishing it. A different session is
// AccountLinkMismatch: the sign-in never links into, nor replaces, the
// session this browser holds. The same session in a different browser is
// InvalidCheck (browser_mismatch): a login CSRF attempt. A binding of one
// digest (passkey ceremonies, which are same-origin requests) names the
// session only.
func (s *Site) CheckBinding(r *http.Request, provider, recorded string) error {
	switch checks.CompareBinding(recorded, s.Binding(r)) {
	case checks.NoBinding:
		return autherr.New(autherr.InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the check cookie records no browser binding"))
	case checks.OtherSession:
		return autherr.New(autherr.AccountLinkMismatch, "session_mismatch", provider, "binding", errors.New("the sign-in was started by another session or browser; the current session is left as it was"))
	case checks.OtherBrowser:
		return autherr.New(autherr.InvalidCheck, "browser_mismatch", provider, "binding", errors.New("the sign-in was started in another browser"))
	}
	return nil
}

// CurrentUser returns the id of the stored user signed in on r ("" when
// nobody is: no session, an expired or unknown one, a user who no longer
// exists) and when they signed in. A failing store is an error, not
// "nobody": linking a new account must not fall back to creating a user
// because the session could not be read.
func (s *Site) CurrentUser(ctx context.Context, r *http.Request) (string, time.Time, error) {
	return s.Sessions.Current(ctx, r, s.For(r))
}

// Viewer returns the id of the user the application sees on r: the
// impersonated user during an impersonation (impersonated true), else
// the signed-in user (CurrentUser).
func (s *Site) Viewer(ctx context.Context, r *http.Request) (id string, impersonated bool, err error) {
	return s.Sessions.Viewer(ctx, r, s.For(r))
}

// CurrentUserID is CurrentUser without the time.
func (s *Site) CurrentUserID(ctx context.Context, r *http.Request) (string, error) {
	id, _, err := s.CurrentUser(ctx, r)
	return id, err
}

// SessionHash returns the stored hash of this browser's database session
// token, "" for none.
func (s *Site) SessionHash(r *http.Request) string { return sessions.SessionHash(r, s.For(r)) }

// SignOutHere clears this browser's session cookie and its cookie cache.
func (s *Site) SignOutHere(w http.ResponseWriter, r *http.Request) {
	s.Sessions.SignOutHere(w, r, s.For(r))
}

// EndOthers ends every database session of userID but this browser's and
// returns how many it ended.
func (s *Site) EndOthers(ctx context.Context, r *http.Request, userID string) (int, error) {
	return s.Sessions.EndOthers(ctx, userID, s.SessionHash(r))
}

// IssueSession makes the session of a sign-in completed by a later step
// (the second factor), for a user who is not new.
func (s *Site) IssueSession(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) error {
	return s.Sessions.Issue(ctx, w, r, s.For(r), user, res, false)
}

// Impersonate starts, in this browser, an administrator's view of the
// application as another user (internal/adminflow).
func (s *Site) Impersonate(w http.ResponseWriter, r *http.Request, adminID, userID string, expires time.Time) error {
	return s.Sessions.StartImpersonation(w, r, s.For(r), adminID, userID, expires)
}

// StopImpersonating ends this browser's impersonation and returns whose it
// was (internal/adminflow).
func (s *Site) StopImpersonating(w http.ResponseWriter, r *http.Request) (adminID, userID string, ok bool) {
	i, err := s.Sessions.StopImpersonating(w, r, s.For(r))
	return i.Admin, i.User, err == nil
}

// SecondStep is the second factor of a sign-in (*twofactorflow.Step).
type SecondStep interface {
	// Ask sends the browser to the second step instead of making a
	// session, and reports true, when user must give a second factor.
	Ask(ctx context.Context, w http.ResponseWriter, r *http.Request, user profile.User, res signin.Result) (bool, error)
}

// Finisher finishes sign-ins. Set its fields, then share it; it is safe
// for concurrent use.
type Finisher struct {
	*Site
	// Adapter stores users; nil without a database (the user's id is then
	// the provider's subject, scoped by the provider).
	Adapter adapter.Adapter
	// Linker applies the linking rules with Adapter and the events.
	Linker accountlink.Linker
	// Allow is the application's SignIn callback: whether the sign-in may
	// go on, and where to send the browser instead when redirectTo is not
	// empty. Nil allows.
	Allow func(ctx context.Context, r *http.Request, res signin.Result) (allow bool, redirectTo string, err error)
	// SignedIn is Events.SignIn, nil when not set.
	SignedIn func(ctx context.Context, u profile.User, a *account.Account, isNew bool)
	// NewUserPage is the application's page for a user's first sign-in
	// (Pages.NewUser), "" for none.
	NewUserPage string
	// SecondStep is the second factor; nil when two-factor sign-in is off.
	SecondStep SecondStep
}

// FinishSignIn runs the SignIn callback, finds, creates or links the user
// (with an adapter), asks for the second factor or issues a fresh session,
// and redirects. Errors are *autherr.Error, for the flow to report.
func (f *Finisher) FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error {
	ctx := r.Context()
	b := f.For(r)
	prov := res.Account.Provider
	if f.Allow != nil {
		allow, to, err := f.Allow(ctx, r, res)
		if err != nil {
			return autherr.Wrap(err, autherr.AccessDenied, "signin_callback", prov, "signIn callback")
		}
		if !allow {
			return autherr.New(autherr.AccessDenied, "signin_callback", prov, "signIn callback", errors.New("the SignIn callback refused"))
		}
		if to != "" {
			// Where this sign-in ends: the second step, when one is
			// asked, keeps it in the callback-url cookie for its code.
			if safe := f.CallbackURL(r, to); safe != "" {
				res.CallbackURL = safe
			}
		}
	}

	// Every adapter call below is bounded: a stalled database fails the
	// sign-in (AdapterError, 503) instead of holding the request.
	ctx, cancel := context.WithTimeout(ctx, httpx.StoreTimeout)
	defer cancel()
	// Who the browser is signed in as, read once: the linking rules and
	// the second factor compare with it.
	current, _, err := f.Sessions.Current(ctx, r, b)
	if err != nil {
		return autherr.New(autherr.AdapterError, "adapter", prov, "session", err)
	}
	res.SignedIn = current
	if res.Unbound {
		if err := f.checkSameUser(ctx, res); err != nil {
			return err
		}
	}
	user, isNew, err := f.user(ctx, res)
	if err != nil {
		return err
	}
	// A banned user goes no further, not even to the second factor
	// (sessions.Manager.Admit; Issue asks again, after the session is
	// stored, for a ban made meanwhile).
	if err := f.Sessions.Admit(ctx, user.ID, prov); err != nil {
		return err
	}
	if f.SecondStep != nil {
		if asked, err := f.SecondStep.Ask(ctx, w, r, user, res); asked || err != nil {
			return err // internal/twofactorflow makes the session after the code
		}
	}
	if err := f.Sessions.Issue(ctx, w, r, b, user, res, isNew); err != nil {
		return err
	}
	if ev := f.SignedIn; ev != nil {
		ev(r.Context(), user, res.Account, isNew)
	}
	target := f.CallbackURL(r, cmp.Or(res.CallbackURL, cookies.Value(r, b.Cookies.CallbackURL)))
	// The callback-url cookie served this sign-in alone: a signed-in
	// browser would send it with every request. Auth.js reads a missing
	// one as its default, the origin.
	b.Cookies.ClearSent(w, r, b.Cookies.CallbackURL)
	if isNew && f.NewUserPage != "" {
		target = f.NewUserPage + "?callbackUrl=" + url.QueryEscape(target)
	}
	httpx.Redirect(w, r, target)
	return nil
}

// user returns the user res signs in, and whether it was created now.
func (f *Finisher) user(ctx context.Context, res signin.Result) (profile.User, bool, error) {
	switch {
	case f.Adapter == nil:
		// No database: the id is the provider's subject, scoped by the
		// provider so two providers' subjects never collide (ASVS 6.8.1).
		// It is stable across sign-ins, unlike Auth.js's random UUIDs.
		u := res.User
		u.ID = res.Account.Provider + ":" + res.User.ID
		return u, false, nil
	case res.Persist != nil:
		return res.Persist(ctx)
	case res.Account.Type == account.TypeEmail:
		return f.Linker.EmailUser(ctx, res.Account.Provider, res.User, res.SignedIn)
	}
	return f.Linker.Link(ctx, accountlink.SignIn{User: res.User, Account: *res.Account, Profile: res.Profile,
		AllowDangerousLinking: res.AllowDangerousLinking, Current: res.SignedIn})
}

// checkSameUser guards a sign-in that proves who the user is but cannot
// prove it began in this browser session (credentials, e-mail links,
// passkey authentication): when a user is signed in, the sign-in must be
// for that same user. It never links a new account into the signed-in
// user and never silently replaces their session with someone else's.
// It reads only, before anything is created.
func (f *Finisher) checkSameUser(ctx context.Context, res signin.Result) error {
	current := res.SignedIn
	if current == "" {
		return nil
	}
	target, err := f.targetUserID(ctx, res)
	if err != nil {
		return autherr.New(autherr.AdapterError, "adapter", res.Account.Provider, "session", err)
	}
	if target != current {
		return autherr.New(autherr.AccountLinkMismatch, "signed_in_as_other_user", res.Account.Provider, "binding", errors.New("a sign-in for another user (or a new one) arrived while a user is signed in; nothing was linked and the session is left as it was"))
	}
	return nil
}

// targetUserID returns the id of the user res would sign in, "" when it
// would create one.
func (f *Finisher) targetUserID(ctx context.Context, res signin.Result) (string, error) {
	a := f.Adapter
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
