// Package selfservice turns on the signed-in user's own account routes
// under the base path, as gatehouse.Config.SelfService: the linked
// accounts (GET {base}/accounts, POST {base}/accounts/unlink/{provider})
// and the sessions (GET {base}/sessions, POST {base}/sessions/revoke,
// revoke-others and revoke-all). Each answers JSON, or the built-in page
// (pages.Accounts, pages.Sessions) to a browser's navigation.
//
//	gatehouse.Config{SelfService: selfservice.Routes{}, Adapter: store, …}
//
// They read and change what the Adapter stores, so they need one:
// gatehouse.New refuses the setting without it. Off (nil), those routes
// answer 404, and a program links none of their code or pages.
package selfservice

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	self "github.com/gatehouse-auth/gatehouse/internal/selfservice"
)

// Routes turns the account and sessions routes on, as
// gatehouse.Config.SelfService. It needs an Adapter.
type Routes struct{}

var _ plugin.SelfServiceFeature = Routes{}

// SelfServiceRoutes returns the routes s serves, relative to the base
// path. gatehouse.New calls it; applications do not.
func (Routes) SelfServiceRoutes(s *self.Routes) []plugin.Route {
	self.AddMessages() // the pages' messages, linked only with the routes
	return []plugin.Route{
		{Method: http.MethodGet, Pattern: "/accounts", Handler: s.Accounts},
		{Method: http.MethodPost, Pattern: "/accounts/unlink/{provider}", Handler: s.Unlink},
		{Method: http.MethodGet, Pattern: "/sessions", Handler: s.Sessions},
		{Method: http.MethodPost, Pattern: "/sessions/revoke", Handler: s.Revoke},
		{Method: http.MethodPost, Pattern: "/sessions/revoke-others", Handler: s.Revoke},
		{Method: http.MethodPost, Pattern: "/sessions/revoke-all", Handler: s.Revoke},
	}
}
