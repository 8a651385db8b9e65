package admin

import (
	"github.com/gatehouse-auth/gatehouse/internal/adminflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/internal/sessions"
)

// Enable turns the administrators' routes under {base}/admin, bans and
// impersonation on with c, for gatehouse.Config.Admin:
//
//	Admin: admin.Enable(admin.Config{Emails: []string{"root@example.com"}})
//
// A program that never calls it links none of the routes' code. The
// Adapter must be a Store, as the built-in ones are.
func Enable(c Config) *Feature { return &Feature{config: c} }

// Feature is the administrators' feature turned on: what Enable returns.
type Feature struct{ config Config }

// NewAdmin builds the routes for a Handler; gatehouse.New calls it.
func (f *Feature) NewAdmin(e *plugin.FeatureEnv) (plugin.Admin, error) {
	return adminflow.FromEnv(f.config, e)
}

// Impersonations returns how sessions read an administrator's
// impersonation; gatehouse.New calls it. Here, not in the Handler: a
// program without the feature links none of it.
func (f *Feature) Impersonations() sessions.Impersonations {
	return sessions.ReadImpersonations(&f.config)
}
