// Package credentials is the credentials provider: a sign-in form whose
// fields the application declares, checked by the application's own
// Authorize function (a password against its user table, a one-time code,
// an LDAP bind, …).
//
//	credentials.Config{
//		Fields: []credentials.Field{
//			{Name: "username", Label: "Username", Autocomplete: "username", Required: true},
//			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
//		},
//		Authorize: func(ctx context.Context, c map[string]string, r *http.Request) (*profile.User, error) {
//			u, ok := users.Check(ctx, c["username"], c["password"]) // constant time, also for unknown users
//			if !ok {
//				return nil, nil // or credentials.ErrInvalid: the generic CredentialsSignin error
//			}
//			return &profile.User{ID: u.ID, Name: u.Name, Email: u.Email}, nil
//		},
//	}
//
// The form POSTs to {base}/callback/{id} with the CSRF token, which the
// handler requires. Failed attempts are counted per client IP address and
// per identifier (the IdentifierField's value); past the limit the handler
// answers 429 with Retry-After without calling Authorize.
//
// Unlike Auth.js, the provider works with both session strategies. The
// user Authorize returns is an account of this provider, keyed by its ID:
// with an adapter, the first sign-in creates a stored user linked to
// (provider id, ID), and later sign-ins find it, exactly as for an OAuth
// account; a database session is then made for the stored user.
package credentials

import (
	"cmp"
	"context"
	"net"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// Field is one input of the sign-in form (Auth.js CredentialInput): the
// pages draw it as it is. Its Name is the key in Authorize's map.
type Field = pages.Field

// AuthorizeFunc checks the submitted credentials. It returns the user, or
// nil (or an error wrapping ErrInvalid, or a *SignInError) when the
// credentials are wrong. Any other error is a server failure: the user
// sees a generic server error, and the attempt is not counted.
//
// credentials holds the declared fields only, as submitted; r is the
// request, whose body has been read (its headers, query and RemoteAddr
// are there). Authorize
// should take the same time whether or not the account exists (compare
// against a dummy hash for unknown users), and should not tell the two
// apart in its answer: both are "wrong credentials".
type AuthorizeFunc func(ctx context.Context, credentials map[string]string, r *http.Request) (*profile.User, error)

// ErrInvalid is what Authorize returns (possibly wrapped) for wrong
// credentials; so is a nil user.
var ErrInvalid = credentialsflow.ErrInvalid

// SignInError is a failed sign-in with a code of the application's own,
// shown as ?error=CredentialsSignin&code=<Code> (Auth.js's CredentialsSignin
// subclasses). Code must match [a-z0-9_]{1,64}; any other value shows as
// "credentials". Never let a code tell an unknown account from a wrong
// password. errors.Is(err, ErrInvalid) is true for it.
type SignInError = credentialsflow.SignInError

// Defaults of the attempt limits: attempts per 15 minutes.
const (
	DefaultPerIdentifierAndIP = 5   // one identifier from one client address
	DefaultPerIdentifier      = 100 // one identifier from anywhere
	DefaultPerIP              = 50  // one client address, any identifier
	DefaultWindow             = 15 * time.Minute
)

// Config is a credentials provider (Auth.js CredentialsConfig).
type Config struct {
	// ID is the provider id: "credentials" when empty.
	ID string
	// Name is the display name: "Credentials" when empty.
	Name string
	// Fields are the form's inputs, in order.
	Fields []Field
	// Authorize checks the credentials. Required.
	Authorize AuthorizeFunc
	// IdentifierField names the field that identifies the account, for
	// the per-identifier limit: the first field when empty. Its value is
	// trimmed and lower-cased for counting.
	IdentifierField string
	// PerIdentifierAndIP, PerIdentifier and PerIP count attempts, each
	// reserved before Authorize runs (limit.Limiter): per identifier from
	// one client address, the lockout a guesser meets (5 per 15 minutes
	// by default); per identifier from anywhere, a much higher ceiling (100)
	// that only a distributed attack reaches, so one attacker cannot lock
	// the real user out from another address (OWASP ASVS 2.2.1); and per
	// client address, against trying many identifiers (50). A success
	// clears the identifier's counts and gives its attempt back to the
	// address. Identifiers are counted under limit.IdentifierKey (case,
	// Unicode form and an e-mail's +tag do not make a new count). Nil gives
	// in-memory limiters of this process with the Default values per
	// DefaultWindow; limit.None{} switches one off. With several processes,
	// give them shared Limiters (redislimit.Limiter keeps them in Redis).
	PerIdentifierAndIP, PerIdentifier, PerIP limit.Limiter
	// ClientIP returns the client address of a request, for PerIP: the
	// host of r.RemoteAddr when nil. Behind a reverse proxy, return the
	// address the proxy reports (and only a header the proxy sets).
	ClientIP func(r *http.Request) string
	// AllowDangerousEmailAccountLinking lets a first sign-in whose user
	// has the e-mail address of a stored user join that user (with an
	// adapter). Set it only if Authorize proves ownership of the address.
	AllowDangerousEmailAccountLinking bool
}

// ProviderBase returns the provider's id, name and type.
func (c Config) ProviderBase() providers.Base {
	return providers.Base{ID: cmp.Or(c.ID, "credentials"), Name: cmp.Or(c.Name, "Credentials"), Type: providers.TypeCredentials}
}

// Prepare returns c with the defaults filled in (id, name, limits), or an
// error naming the field that is wrong. The handler calls it once.
func (c Config) Prepare() (Config, error) {
	if err := providers.PrepareBase(c.ProviderBase(), &c.ID, &c.Name); err != nil {
		return c, err
	}
	fail := func(field, reason string) (Config, error) { return c, providers.FieldError(c.ID, field, reason) }
	if c.Authorize == nil {
		return fail("authorize", "is required (Auth.js MissingAuthorize)")
	}
	if len(c.Fields) == 0 {
		return fail("credentials", "declare at least one field")
	}
	seen := map[string]bool{}
	for _, f := range c.Fields {
		switch {
		case f.Name == "":
			return fail("credentials", "a field has no name")
		case f.Name == "csrfToken" || f.Name == "callbackUrl":
			return fail("credentials", "field name "+f.Name+" is reserved")
		case seen[f.Name]:
			return fail("credentials", "field "+f.Name+" is declared twice")
		}
		seen[f.Name] = true
	}
	if c.IdentifierField == "" {
		c.IdentifierField = c.Fields[0].Name
	} else if !seen[c.IdentifierField] {
		return fail("identifierField", "names no declared field")
	}
	if c.PerIP == nil {
		c.PerIP = limit.NewMemory(DefaultPerIP, DefaultWindow)
	}
	if c.PerIdentifier == nil {
		c.PerIdentifier = limit.NewMemory(DefaultPerIdentifier, DefaultWindow)
	}
	if c.PerIdentifierAndIP == nil {
		c.PerIdentifierAndIP = limit.NewMemory(DefaultPerIdentifierAndIP, DefaultWindow)
	}
	if c.ClientIP == nil {
		c.ClientIP = RemoteIP
	}
	return c, nil
}

// RemoteIP returns the host of r.RemoteAddr.
func RemoteIP(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

var _ plugin.Provider = Config{}

// NewFlow checks c against the handler's configuration and returns its
// sign-in (internal/credentialsflow). gatehouse.New calls it;
// applications do not. Limits left nil are the handler's (Config.Limits),
// and a nil ClientIP is the handler's.
func (c Config) NewFlow(e *plugin.Env) (plugin.Flow, error) {
	id := c.ProviderBase().ID
	c.PerIP = e.Limiter(c.PerIP, id+"-per-ip", DefaultPerIP, DefaultWindow)
	c.PerIdentifier = e.Limiter(c.PerIdentifier, id+"-per-identifier", DefaultPerIdentifier, DefaultWindow)
	c.PerIdentifierAndIP = e.Limiter(c.PerIdentifierAndIP, id+"-per-identifier-and-ip", DefaultPerIdentifierAndIP, DefaultWindow)
	if c.ClientIP == nil {
		c.ClientIP = e.ClientIP
	}
	c, err := c.Prepare()
	if err != nil {
		return nil, err
	}
	fields := make([]pages.Field, len(c.Fields))
	for i, f := range c.Fields {
		fields[i] = pages.Field(f)
	}
	return credentialsflow.New(&credentialsflow.Config{ID: c.ID, Name: c.Name, Fields: fields, IdentifierField: c.IdentifierField,
		Authorize: c.Authorize, PerIdentifierAndIP: c.PerIdentifierAndIP, PerIdentifier: c.PerIdentifier, PerIP: c.PerIP,
		ClientIP: c.ClientIP, AllowDangerousEmailAccountLinking: c.AllowDangerousEmailAccountLinking}, e.Finisher, e.Logger), nil
}
