package redisstore

import (
	"context"
	"time"

	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// Organizations belong with the users, in the primary: the store hands
// every organization.Store call to it, or returns ErrUnsupported when the
// primary is not an organization.Store (ask Supports beforehand).

var _ organization.Store = (*store)(nil)

// CreateOrganization hands the call to the primary (organization.Store).
func (s *store) CreateOrganization(ctx context.Context, o organization.Organization, first organization.Membership, max int) error {
	return do(s, func(p organization.Store) error { return p.CreateOrganization(ctx, o, first, max) })
}

// Organization hands the call to the primary (organization.Store).
func (s *store) Organization(ctx context.Context, id string) (organization.Organization, error) {
	return call(s, func(p organization.Store) (organization.Organization, error) { return p.Organization(ctx, id) })
}

// UpdateOrganization hands the call to the primary (organization.Store).
func (s *store) UpdateOrganization(ctx context.Context, o organization.Organization) error {
	return do(s, func(p organization.Store) error { return p.UpdateOrganization(ctx, o) })
}

// DeleteOrganization hands the call to the primary (organization.Store).
func (s *store) DeleteOrganization(ctx context.Context, id string) error {
	return do(s, func(p organization.Store) error { return p.DeleteOrganization(ctx, id) })
}

// Organizations hands the call to the primary (organization.Store).
func (s *store) Organizations(ctx context.Context, userID string) ([]organization.Organization, error) {
	return call(s, func(p organization.Store) ([]organization.Organization, error) { return p.Organizations(ctx, userID) })
}

// Membership hands the call to the primary (organization.Store).
func (s *store) Membership(ctx context.Context, orgID, userID string) (organization.Membership, error) {
	return call(s, func(p organization.Store) (organization.Membership, error) { return p.Membership(ctx, orgID, userID) })
}

// Members hands the call to the primary (organization.Store).
func (s *store) Members(ctx context.Context, orgID string) ([]organization.Membership, error) {
	return call(s, func(p organization.Store) ([]organization.Membership, error) { return p.Members(ctx, orgID) })
}

// SetRole hands the call to the primary (organization.Store).
func (s *store) SetRole(ctx context.Context, orgID, userID, role string, judged map[string]string) error {
	return do(s, func(p organization.Store) error { return p.SetRole(ctx, orgID, userID, role, judged) })
}

// RemoveMembership hands the call to the primary (organization.Store).
func (s *store) RemoveMembership(ctx context.Context, orgID, userID string, judged map[string]string) error {
	return do(s, func(p organization.Store) error { return p.RemoveMembership(ctx, orgID, userID, judged) })
}

// CreateInvitation hands the call to the primary (organization.Store).
func (s *store) CreateInvitation(ctx context.Context, inv organization.Invitation, custom bool, max int) error {
	return do(s, func(p organization.Store) error { return p.CreateInvitation(ctx, inv, custom, max) })
}

// Invitations hands the call to the primary (organization.Store).
func (s *store) Invitations(ctx context.Context, orgID string) ([]organization.Invitation, error) {
	return call(s, func(p organization.Store) ([]organization.Invitation, error) { return p.Invitations(ctx, orgID) })
}

// InvitationByToken hands the call to the primary (organization.Store).
func (s *store) InvitationByToken(ctx context.Context, tokenHash string) (organization.Invitation, error) {
	return call(s, func(p organization.Store) (organization.Invitation, error) {
		return p.InvitationByToken(ctx, tokenHash)
	})
}

// RenewInvitation hands the call to the primary (organization.Store).
func (s *store) RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time, custom bool, max int, now time.Time) error {
	return do(s, func(p organization.Store) error {
		return p.RenewInvitation(ctx, orgID, id, tokenHash, expires, custom, max, now)
	})
}

// DeleteInvitation hands the call to the primary (organization.Store).
func (s *store) DeleteInvitation(ctx context.Context, orgID, id string) error {
	return do(s, func(p organization.Store) error { return p.DeleteInvitation(ctx, orgID, id) })
}

// AcceptInvitation hands the call to the primary (organization.Store).
func (s *store) AcceptInvitation(ctx context.Context, tokenHash, email, userID string, maxOrgs, maxMembers int, now time.Time) (organization.Membership, error) {
	return call(s, func(p organization.Store) (organization.Membership, error) {
		return p.AcceptInvitation(ctx, tokenHash, email, userID, maxOrgs, maxMembers, now)
	})
}

// DeclineInvitation hands the call to the primary (organization.Store).
func (s *store) DeclineInvitation(ctx context.Context, tokenHash, email string) (organization.Invitation, error) {
	return call(s, func(p organization.Store) (organization.Invitation, error) {
		return p.DeclineInvitation(ctx, tokenHash, email)
	})
}

// Roles hands the call to the primary (organization.Store).
func (s *store) Roles(ctx context.Context, orgID string) ([]organization.Role, error) {
	return call(s, func(p organization.Store) ([]organization.Role, error) { return p.Roles(ctx, orgID) })
}

// CreateRole hands the call to the primary (organization.Store).
func (s *store) CreateRole(ctx context.Context, orgID string, r organization.Role, max int) error {
	return do(s, func(p organization.Store) error { return p.CreateRole(ctx, orgID, r, max) })
}

// UpdateRole hands the call to the primary (organization.Store).
func (s *store) UpdateRole(ctx context.Context, orgID string, r organization.Role) error {
	return do(s, func(p organization.Store) error { return p.UpdateRole(ctx, orgID, r) })
}

// DeleteRole hands the call to the primary (organization.Store).
func (s *store) DeleteRole(ctx context.Context, orgID, name string, now time.Time) error {
	return do(s, func(p organization.Store) error { return p.DeleteRole(ctx, orgID, name, now) })
}

// SetActiveOrganization hands the call to the primary (organization.Store).
func (s *store) SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error {
	return do(s, func(p organization.Store) error {
		return p.SetActiveOrganization(ctx, sessionKey, userID, orgID, expires)
	})
}

// ActiveOrganization hands the call to the primary (organization.Store).
func (s *store) ActiveOrganization(ctx context.Context, sessionKey string) (string, error) {
	return call(s, func(p organization.Store) (string, error) { return p.ActiveOrganization(ctx, sessionKey) })
}
