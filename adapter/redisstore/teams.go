package redisstore

import (
	"context"
	"time"

	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// Teams belong with the organizations, in the primary: the store hands
// every organization.TeamStore call to it, or returns ErrUnsupported when
// the primary is not an organization.TeamStore (ask Supports beforehand).

var _ organization.TeamStore = (*store)(nil)

// CreateTeam hands the call to the primary (organization.TeamStore).
func (s *store) CreateTeam(ctx context.Context, t organization.Team, max int) error {
	return do(s, func(p organization.TeamStore) error { return p.CreateTeam(ctx, t, max) })
}

// Team hands the call to the primary (organization.TeamStore).
func (s *store) Team(ctx context.Context, orgID, id string) (organization.Team, error) {
	return call(s, func(p organization.TeamStore) (organization.Team, error) { return p.Team(ctx, orgID, id) })
}

// Teams hands the call to the primary (organization.TeamStore).
func (s *store) Teams(ctx context.Context, orgID string) ([]organization.Team, error) {
	return call(s, func(p organization.TeamStore) ([]organization.Team, error) { return p.Teams(ctx, orgID) })
}

// RenameTeam hands the call to the primary (organization.TeamStore).
func (s *store) RenameTeam(ctx context.Context, orgID, id, name string) error {
	return do(s, func(p organization.TeamStore) error { return p.RenameTeam(ctx, orgID, id, name) })
}

// DeleteTeam hands the call to the primary (organization.TeamStore).
func (s *store) DeleteTeam(ctx context.Context, orgID, id string) error {
	return do(s, func(p organization.TeamStore) error { return p.DeleteTeam(ctx, orgID, id) })
}

// AddTeamMember hands the call to the primary (organization.TeamStore).
func (s *store) AddTeamMember(ctx context.Context, orgID, teamID, userID string, max int, at time.Time) error {
	return do(s, func(p organization.TeamStore) error { return p.AddTeamMember(ctx, orgID, teamID, userID, max, at) })
}

// RemoveTeamMember hands the call to the primary (organization.TeamStore).
func (s *store) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	return do(s, func(p organization.TeamStore) error { return p.RemoveTeamMember(ctx, orgID, teamID, userID) })
}

// TeamMembers hands the call to the primary (organization.TeamStore).
func (s *store) TeamMembers(ctx context.Context, orgID, teamID string) ([]organization.TeamMember, error) {
	return call(s, func(p organization.TeamStore) ([]organization.TeamMember, error) {
		return p.TeamMembers(ctx, orgID, teamID)
	})
}
