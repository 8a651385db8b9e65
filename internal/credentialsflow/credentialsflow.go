// Package credentialsflow is the credentials sign-in, top to bottom: the form POSTs to
// {base}/callback/{id}; the CSRF token is checked, then the attempt
// limits, then the application's Authorize, then the session is issued
// with the strategy in force (JWT or database: Auth.js allows only JWT).
//
// What each step defends against:
//   - CSRF (login CSRF too): the signed double-submit token is required.
//   - brute force and credential stuffing: failed attempts are counted per
//     client address and per identifier; past either limit the answer is
//     429 with Retry-After, and Authorize is not called, so a right guess
//     made while locked out is not told apart from a wrong one.
//   - enumeration: every refusal is the one CredentialsSignin error; the
//     application's Authorize keeps its timing flat.
package credentialsflow

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/signin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Host is what the sign-in needs of the Handler, per request. The
// *finish.Finisher implements it (internal/finish, and internal/site's
// Site, which it embeds), where each method is documented.
type Host interface {
	CSRFOK(r *http.Request, submitted string) bool
	TooManyAttempts(w http.ResponseWriter, r *http.Request, provider string, wait time.Duration)
	// KeepTyped keeps the identifier of a refused form for the sign-in
	// page it is sent back to.
	KeepTyped(w http.ResponseWriter, r *http.Request, provider, field, identifier string)
	FinishSignIn(w http.ResponseWriter, r *http.Request, res signin.Result) error
}

// Config is a credentials provider, prepared (credentials.Config.Prepare),
// as the sign-in needs it: package credentials and the password-accounts
// provider each make one.
type Config struct {
	// ID and Name are the provider's.
	ID, Name string
	// Fields are the form's inputs, in order.
	Fields []pages.Field
	// IdentifierField names the field counted by the per-identifier
	// limits.
	IdentifierField string
	// Authorize checks the credentials: a nil user, ErrInvalid or a
	// *SignInError is a wrong guess; any other error the server's.
	Authorize func(ctx context.Context, credentials map[string]string, r *http.Request) (*profile.User, error)
	// PerIdentifierAndIP, PerIdentifier and PerIP count the attempts;
	// none is nil.
	PerIdentifierAndIP, PerIdentifier, PerIP limit.Limiter
	// ClientIP returns the client address of a request; not nil.
	ClientIP func(r *http.Request) string
	// AllowDangerousEmailAccountLinking is the provider's setting.
	AllowDangerousEmailAccountLinking bool
}

// ErrInvalid is credentials.ErrInvalid, defined here so that the sign-in
// need not import the provider's package, which builds the sign-in.
var ErrInvalid = errors.New("credentials: invalid credentials")

// SignInError is credentials.SignInError (see ErrInvalid).
type SignInError struct {
	// Code is shown as ?error=CredentialsSignin&code=<Code> when it
	// matches [a-z0-9_]{1,64}.
	Code string
}

func (e *SignInError) Error() string { return "credentials: sign-in refused (" + e.Code + ")" }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *SignInError) Is(target error) bool { return target == ErrInvalid }

// SignIn signs in with c's form. stored means Authorize returns a stored
// user (the password-accounts provider's), which is signed in as it is,
// without the linking rules. Errors are *autherr.Error; a refusal by the
// limits is answered here, and nil returned.
func SignIn(w http.ResponseWriter, r *http.Request, c *Config, stored bool, h Host, logger *slog.Logger) error {
	ctx := r.Context()
	fail := func(t autherr.Type, code, step string, err error) error {
		return autherr.New(t, code, c.ID, step, err)
	}
	// Credentials are posted, never put in a URL (Auth.js: a GET is a
	// configuration error).
	if r.Method != http.MethodPost {
		return fail(autherr.CredentialsSignin, "method", "callback", errors.New("credentials must be POSTed"))
	}

	// 1. CSRF, before anything else is read or counted.
	form, err := httpx.ReadForm(r)
	if err != nil || !h.CSRFOK(r, form.Get("csrfToken")) {
		return fail(autherr.MissingCSRF, "csrf", "callback", errors.New("CSRF token missing or wrong"))
	}
	creds := make(map[string]string, len(c.Fields))
	for _, f := range c.Fields {
		creds[f.Name] = form.Get(f.Name)
	}

	// 2. The attempt limits, reserved before Authorize runs: the count is
	// taken first and atomically, so N concurrent guesses get at most the
	// limit through (checking first and counting after Authorize let them
	// all through). Per identifier and client, per identifier anywhere (a
	// higher ceiling, so an attacker cannot lock the real user out from
	// another address, ASVS 2.2.1), per client. Any limiter error refuses.
	ip := limit.IPKey(c.ClientIP(r))
	id := c.ID + ":" + limit.IdentifierKey(creds[c.IdentifierField])
	pair := limit.Attempt{Limiter: c.PerIdentifierAndIP, Key: "idip:" + id + "|" + ip}
	ident := limit.Attempt{Limiter: c.PerIdentifier, Key: "id:" + id}
	client := limit.Attempt{Limiter: c.PerIP, Key: "ip:" + ip}
	wait, err := limit.ReserveAll(ctx, client, pair, ident)
	if err != nil {
		return fail(autherr.CallbackRouteError, "limiter", "limit", err)
	}
	if wait > 0 {
		h.TooManyAttempts(w, r, c.ID, wait)
		return nil
	}
	release := func(as ...limit.Attempt) {
		for _, a := range as {
			if err := a.Limiter.Release(ctx, a.Key); err != nil {
				logger.Error("gatehouse: giving back an attempt failed", "provider", c.ID, "err", err)
			}
		}
	}

	// 3. The application's check. A nil user, ErrInvalid or a
	// *SignInError is a wrong guess, and stays counted; any other error
	// is the server's, and the attempt is given back.
	user, err := c.Authorize(ctx, creds, r)
	if err == nil && user == nil {
		err = ErrInvalid
	}
	if err != nil {
		if !errors.Is(err, ErrInvalid) {
			release(client, pair, ident)
			return fail(autherr.CallbackRouteError, "authorize", "authorize", err)
		}
		code := "credentials"
		var se *SignInError
		if errors.As(err, &se) && autherr.PublicCode(se.Code) {
			code = se.Code
		}
		h.KeepTyped(w, r, c.ID, c.IdentifierField, creds[c.IdentifierField])
		return fail(autherr.CredentialsSignin, code, "authorize", err)
	}
	if user.ID == "" {
		return fail(autherr.CallbackRouteError, "id_missing", "authorize", errors.New("the Authorize function returned a user without an ID"))
	}
	// A success clears the identifier's counts and gives the address its
	// attempt back; the address's failures stay counted, else one valid
	// account would let an attacker reset their own count.
	for _, a := range []limit.Attempt{pair, ident} {
		if err := a.Limiter.Reset(ctx, a.Key); err != nil {
			logger.Error("gatehouse: resetting an attempt count failed", "provider", c.ID, "err", err)
		}
	}
	release(client)

	// 4. The user is an account of this provider, keyed by its ID: with
	// an adapter, found or created and linked as an OAuth account is.
	u := *user
	u.Email = strings.ToLower(strings.TrimSpace(u.Email))
	acct := &account.Account{Type: account.TypeCredentials, Provider: c.ID, ProviderAccountID: u.ID}
	res := signin.Result{User: u, Account: acct, CallbackURL: form.Get("callbackUrl"),
		AllowDangerousLinking: c.AllowDangerousEmailAccountLinking, Unbound: true}
	if stored {
		// The user is the stored one (password accounts keep no linked
		// account): its id is the user a signed-in browser is compared
		// with, so that the same user signing in again is not refused as
		// another.
		acct.UserID = u.ID
		res.Persist = func(context.Context) (profile.User, bool, error) { return u, false, nil }
	}
	return h.FinishSignIn(w, r, res)
}
