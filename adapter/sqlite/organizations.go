package sqlite

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/organization"
)

// The organization.Store methods run the statements the adapter shares
// with the PostgreSQL adapter (sqlstore.Store).

var _ organization.Store = (*Adapter)(nil)

// CreateOrganization stores o and its first member in one transaction
// (organization.Store).
func (a *Adapter) CreateOrganization(ctx context.Context, o organization.Organization, first organization.Membership) error {
	return a.store.CreateOrganization(ctx, o, first)
}

// Organization returns the organization with the id (organization.Store).
func (a *Adapter) Organization(ctx context.Context, id string) (organization.Organization, error) {
	return a.store.Organization(ctx, id)
}

// UpdateOrganization stores o's name and slug (organization.Store).
func (a *Adapter) UpdateOrganization(ctx context.Context, o organization.Organization) error {
	return a.store.UpdateOrganization(ctx, o)
}

// DeleteOrganization removes the organization with its members,
// invitations, roles and sessions' active organization
// (organization.Store).
func (a *Adapter) DeleteOrganization(ctx context.Context, id string) error {
	return a.store.DeleteOrganization(ctx, id)
}

// Organizations returns those userID is a member of (organization.Store).
func (a *Adapter) Organizations(ctx context.Context, userID string) ([]organization.Organization, error) {
	return a.store.Organizations(ctx, userID)
}

// Membership returns userID's membership of orgID (organization.Store).
func (a *Adapter) Membership(ctx context.Context, orgID, userID string) (organization.Membership, error) {
	return a.store.Membership(ctx, orgID, userID)
}

// Members returns orgID's members (organization.Store).
func (a *Adapter) Members(ctx context.Context, orgID string) ([]organization.Membership, error) {
	return a.store.Members(ctx, orgID)
}

// SetRole sets a member's role, never the last owner's to another
// (organization.Store).
func (a *Adapter) SetRole(ctx context.Context, orgID, userID, role string) error {
	return a.store.SetRole(ctx, orgID, userID, role)
}

// RemoveMembership removes a member, never the last owner, with their
// sessions' active organization (organization.Store).
func (a *Adapter) RemoveMembership(ctx context.Context, orgID, userID string) error {
	return a.store.RemoveMembership(ctx, orgID, userID)
}

// CreateInvitation stores inv (organization.Store).
func (a *Adapter) CreateInvitation(ctx context.Context, inv organization.Invitation) error {
	return a.store.CreateInvitation(ctx, inv)
}

// Invitations returns orgID's invitations (organization.Store).
func (a *Adapter) Invitations(ctx context.Context, orgID string) ([]organization.Invitation, error) {
	return a.store.Invitations(ctx, orgID)
}

// InvitationByToken returns the invitation of the token hash
// (organization.Store).
func (a *Adapter) InvitationByToken(ctx context.Context, tokenHash string) (organization.Invitation, error) {
	return a.store.InvitationByToken(ctx, tokenHash)
}

// RenewInvitation replaces an invitation's token hash and expiry
// (organization.Store).
func (a *Adapter) RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time) error {
	return a.store.RenewInvitation(ctx, orgID, id, tokenHash, expires)
}

// DeleteInvitation removes orgID's invitation id (organization.Store).
func (a *Adapter) DeleteInvitation(ctx context.Context, orgID, id string) error {
	return a.store.DeleteInvitation(ctx, orgID, id)
}

// AcceptInvitation deletes the invitation and adds the member in one
// transaction: the DELETE's row lock makes a concurrent accept find no
// row (organization.Store).
func (a *Adapter) AcceptInvitation(ctx context.Context, tokenHash, email, userID string, now time.Time) (organization.Membership, error) {
	return a.store.AcceptInvitation(ctx, tokenHash, email, userID, now)
}

// DeclineInvitation deletes an invitation for email (organization.Store).
func (a *Adapter) DeclineInvitation(ctx context.Context, tokenHash, email string) (organization.Invitation, error) {
	return a.store.DeclineInvitation(ctx, tokenHash, email)
}

// Roles returns orgID's custom roles (organization.Store).
func (a *Adapter) Roles(ctx context.Context, orgID string) ([]organization.Role, error) {
	return a.store.Roles(ctx, orgID)
}

// CreateRole stores a custom role (organization.Store).
func (a *Adapter) CreateRole(ctx context.Context, orgID string, r organization.Role) error {
	return a.store.CreateRole(ctx, orgID, r)
}

// UpdateRole replaces a custom role's statements (organization.Store).
func (a *Adapter) UpdateRole(ctx context.Context, orgID string, r organization.Role) error {
	return a.store.UpdateRole(ctx, orgID, r)
}

// DeleteRole removes a custom role that no member holds, in one
// conditional DELETE (organization.Store).
func (a *Adapter) DeleteRole(ctx context.Context, orgID, name string) error {
	return a.store.DeleteRole(ctx, orgID, name)
}

// SetActiveOrganization records a session's active organization, for a
// member only (organization.Store).
func (a *Adapter) SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error {
	return a.store.SetActiveOrganization(ctx, sessionKey, userID, orgID, expires)
}

// ActiveOrganization returns a session's active organization, "" for
// none (organization.Store).
func (a *Adapter) ActiveOrganization(ctx context.Context, sessionKey string) (string, error) {
	return a.store.ActiveOrganization(ctx, sessionKey)
}
