package plugin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The features the application turns on with a value its own package
// makes (organization.Enable, admin.Enable, apikey.Enable): the root
// package knows them by these interfaces alone, so a program that does
// not call a feature's Enable links none of its routes.

// Route is one route a feature adds under the base path.
type Route struct {
	Method, Pattern string
	Handler         http.HandlerFunc
}

// FeatureEnv is what the Handler tells every feature besides Env.
type FeatureEnv struct {
	*Env
	// DatabaseSessions: sessions are database sessions.
	DatabaseSessions bool
	// Organizations: Config.Organizations is set (organizations are on).
	Organizations bool
	// MaxAge is Config.Session.MaxAge; FreshAge how recent a sign-in
	// must be for the changes a stolen session cookie must not make.
	MaxAge, FreshAge time.Duration
	// Providers are Config.Providers.
	Providers []providers.Provider
	// NotFound answers a route that is off: 404.
	NotFound http.HandlerFunc
}

// PageHost is what a feature's built-in pages need of the handler.
type PageHost interface {
	// CSRFToken returns this browser's CSRF token for a form, setting its
	// cookie when there is none.
	CSRFToken(w http.ResponseWriter, r *http.Request) string
	// Render writes a built-in page in the language of r's pages.
	Render(w http.ResponseWriter, r *http.Request, status int, page any)
	// Text returns a message of the catalogue in that language.
	Text(r *http.Request, key string, args ...any) string
	// Redirect answers with a redirect (303 to a POST).
	Redirect(w http.ResponseWriter, r *http.Request, target string)
	// Fail reports e to the browser (the error page).
	Fail(w http.ResponseWriter, r *http.Request, e *autherr.Error)
	// Origin returns the site's origin.
	Origin(r *http.Request) string
}

// PageStatus returns the notice and the alert a page's query asks for
// after one of its forms: the message of ?done= in done (none for a value
// not there: the query is the browser's), and that of ?failed= in failed,
// or other for a code not there.
func PageStatus(h PageHost, r *http.Request, done, failed map[string]string, other string) (notice, alert string) {
	q := r.URL.Query()
	if k, ok := done[q.Get("done")]; ok {
		notice = h.Text(r, k)
	}
	if c := q.Get("failed"); c != "" {
		k, ok := failed[c]
		if !ok {
			k = other
		}
		alert = h.Text(r, k)
	}
	return notice, alert
}

// Organizations is organizations as the Handler uses them
// (Config.Organizations): their routes, a database session's active
// organization, and the permission checks.
type Organizations interface {
	Routes() []Route
	// ActiveFor returns the active organization of the database session
	// whose token hash is given.
	ActiveFor(ctx context.Context, tokenHash string) (string, error)
	// Can and Require are Handler.Can and Handler.RequirePermission.
	Can(r *http.Request, st string) (bool, error)
	Require(st string) func(http.Handler) http.Handler
}

// OrganizationsFeature is Config.Organizations: organization.Enable.
type OrganizationsFeature interface {
	NewOrganizations(e *FeatureEnv) (Organizations, error)
}

// ErrOrganizationsOff is what Handler.Can answers when organizations
// are off.
var ErrOrganizationsOff = errors.New("gatehouse: organizations are off (Config.Organizations is nil)")

// Admin is the administrators' feature as the Handler uses it
// (Config.Admin): its routes. The ban checks of sign-ins and session
// reads go through the adapter (an admin.Store), which the Handler asks
// when Config.Admin is set.
type Admin interface {
	Routes() []Route
}

// AdminFeature is Config.Admin: admin.Enable.
type AdminFeature interface {
	NewAdmin(e *FeatureEnv) (Admin, error)
	// Impersonations is sessions.ReadImpersonations: how the sessions
	// read an administrator's impersonation, linked only with the
	// feature.
	Impersonations() sessions.Impersonations
}

// SelfServiceFeature is Config.SelfService: selfservice.Routes. The
// Handler builds the routes' server, s, only when it or two-factor
// sign-in is on, and adds the routes the feature returns.
type SelfServiceFeature interface {
	SelfServiceRoutes(s *selfservice.Routes) []Route
}

// MachineAccess is API keys and service tokens as the Handler uses them
// (Config.MachineAccess): their routes, and the key a request carries.
type MachineAccess interface {
	Routes() []Route
	// Authenticate reads the API key r carries; ok is false when r
	// carries none (the request is then judged by its session).
	Authenticate(r *http.Request) (res KeyResult, ok bool)
	// Carries reports whether r carries an API key, well-formed or not:
	// Authenticate's ok, without reading the store or counting against
	// the key's rate limit.
	Carries(r *http.Request) bool
}

// MachineAccessFeature is Config.MachineAccess: apikey.Enable.
type MachineAccessFeature interface {
	NewMachineAccess(e *FeatureEnv) (MachineAccess, error)
}

// KeyResult is what MachineAccess.Authenticate found in a request
// carrying a key.
type KeyResult struct {
	// Principal is the key's, nil when the key is not valid.
	Principal *keycore.Principal
	// Wait is set when the key's rate limit is reached.
	Wait time.Duration
	// Err is set when the store could not be read (it wraps
	// sessions.ErrStoreUnavailable).
	Err error
}

// TooManyKeyRequests answers a request whose key has no request left:
// 429 with Retry-After.
func TooManyKeyRequests(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
	httpx.WriteJSON(w, http.StatusTooManyRequests, map[string]string{"error": string(autherr.TooManyRequests)})
}
