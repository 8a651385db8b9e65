package organization

import (
	"github.com/gatehouse-auth/gatehouse/internal/orgflow"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
)

// Enable turns organizations on with c, for
// gatehouse.Config.Organizations: their members, roles and invitations
// under {base}/organizations, a session's active organization, and
// Handler.Can and Handler.RequirePermission.
//
//	Organizations: organization.Enable(organization.Config{Statements: statements})
//
// A program that never calls it links none of the routes' code, nor the
// invitation e-mails' templates. The Adapter must be a Store, as the
// built-in ones are.
func Enable(c Config) *Feature { return &Feature{config: c} }

// Feature is organizations turned on: what Enable returns.
type Feature struct{ config Config }

// NewOrganizations builds the routes for a Handler; gatehouse.New calls
// it.
func (f *Feature) NewOrganizations(e *plugin.FeatureEnv) (plugin.Organizations, error) {
	return orgflow.FromEnv(f.config, e)
}
