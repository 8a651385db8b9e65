package redisstore

import (
	"context"
	"fmt"
	"time"

	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// Organizations belong with the users, in the primary: the store hands
// every organization.Store call to it, or returns ErrUnsupported when the
// primary is not an organization.Store (ask Supports beforehand).

var _ organization.Store = (*store)(nil)

// organizations returns the primary as an organization.Store, or
// ErrUnsupported.
func (s *store) organizations() (organization.Store, error) {
	if o, ok := s.Adapter.(organization.Store); ok {
		return o, nil
	}
	return nil, fmt.Errorf("%w: organization.Store", ErrUnsupported)
}

// CreateOrganization hands the call to the primary (organization.Store).
func (s *store) CreateOrganization(ctx context.Context, o organization.Organization, first organization.Membership) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.CreateOrganization(ctx, o, first)
}

// Organization hands the call to the primary (organization.Store).
func (s *store) Organization(ctx context.Context, id string) (organization.Organization, error) {
	st, err := s.organizations()
	if err != nil {
		return organization.Organization{}, err
	}
	return st.Organization(ctx, id)
}

// UpdateOrganization hands the call to the primary (organization.Store).
func (s *store) UpdateOrganization(ctx context.Context, o organization.Organization) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.UpdateOrganization(ctx, o)
}

// DeleteOrganization hands the call to the primary (organization.Store).
func (s *store) DeleteOrganization(ctx context.Context, id string) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.DeleteOrganization(ctx, id)
}

// Organizations hands the call to the primary (organization.Store).
func (s *store) Organizations(ctx context.Context, userID string) ([]organization.Organization, error) {
	st, err := s.organizations()
	if err != nil {
		return nil, err
	}
	return st.Organizations(ctx, userID)
}

// Membership hands the call to the primary (organization.Store).
func (s *store) Membership(ctx context.Context, orgID, userID string) (organization.Membership, error) {
	st, err := s.organizations()
	if err != nil {
		return organization.Membership{}, err
	}
	return st.Membership(ctx, orgID, userID)
}

// Members hands the call to the primary (organization.Store).
func (s *store) Members(ctx context.Context, orgID string) ([]organization.Membership, error) {
	st, err := s.organizations()
	if err != nil {
		return nil, err
	}
	return st.Members(ctx, orgID)
}

// SetRole hands the call to the primary (organization.Store).
func (s *store) SetRole(ctx context.Context, orgID, userID, role string) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.SetRole(ctx, orgID, userID, role)
}

// RemoveMembership hands the call to the primary (organization.Store).
func (s *store) RemoveMembership(ctx context.Context, orgID, userID string) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.RemoveMembership(ctx, orgID, userID)
}

// CreateInvitation hands the call to the primary (organization.Store).
func (s *store) CreateInvitation(ctx context.Context, inv organization.Invitation) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.CreateInvitation(ctx, inv)
}

// Invitations hands the call to the primary (organization.Store).
func (s *store) Invitations(ctx context.Context, orgID string) ([]organization.Invitation, error) {
	st, err := s.organizations()
	if err != nil {
		return nil, err
	}
	return st.Invitations(ctx, orgID)
}

// InvitationByToken hands the call to the primary (organization.Store).
func (s *store) InvitationByToken(ctx context.Context, tokenHash string) (organization.Invitation, error) {
	st, err := s.organizations()
	if err != nil {
		return organization.Invitation{}, err
	}
	return st.InvitationByToken(ctx, tokenHash)
}

// RenewInvitation hands the call to the primary (organization.Store).
func (s *store) RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.RenewInvitation(ctx, orgID, id, tokenHash, expires)
}

// DeleteInvitation hands the call to the primary (organization.Store).
func (s *store) DeleteInvitation(ctx context.Context, orgID, id string) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.DeleteInvitation(ctx, orgID, id)
}

// AcceptInvitation hands the call to the primary (organization.Store).
func (s *store) AcceptInvitation(ctx context.Context, tokenHash, email, userID string, now time.Time) (organization.Membership, error) {
	st, err := s.organizations()
	if err != nil {
		return organization.Membership{}, err
	}
	return st.AcceptInvitation(ctx, tokenHash, email, userID, now)
}

// DeclineInvitation hands the call to the primary (organization.Store).
func (s *store) DeclineInvitation(ctx context.Context, tokenHash, email string) (organization.Invitation, error) {
	st, err := s.organizations()
	if err != nil {
		return organization.Invitation{}, err
	}
	return st.DeclineInvitation(ctx, tokenHash, email)
}

// Roles hands the call to the primary (organization.Store).
func (s *store) Roles(ctx context.Context, orgID string) ([]organization.Role, error) {
	st, err := s.organizations()
	if err != nil {
		return nil, err
	}
	return st.Roles(ctx, orgID)
}

// CreateRole hands the call to the primary (organization.Store).
func (s *store) CreateRole(ctx context.Context, orgID string, r organization.Role) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.CreateRole(ctx, orgID, r)
}

// UpdateRole hands the call to the primary (organization.Store).
func (s *store) UpdateRole(ctx context.Context, orgID string, r organization.Role) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.UpdateRole(ctx, orgID, r)
}

// DeleteRole hands the call to the primary (organization.Store).
func (s *store) DeleteRole(ctx context.Context, orgID, name string) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.DeleteRole(ctx, orgID, name)
}

// SetActiveOrganization hands the call to the primary (organization.Store).
func (s *store) SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error {
	st, err := s.organizations()
	if err != nil {
		return err
	}
	return st.SetActiveOrganization(ctx, sessionKey, userID, orgID, expires)
}

// ActiveOrganization hands the call to the primary (organization.Store).
func (s *store) ActiveOrganization(ctx context.Context, sessionKey string) (string, error) {
	st, err := s.organizations()
	if err != nil {
		return "", err
	}
	return st.ActiveOrganization(ctx, sessionKey)
}
