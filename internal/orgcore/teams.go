package orgcore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// The statements of teams, declared only when Config.Teams.Enabled.
const (
	CreateTeam permission.Statement = "team:create" // make a team
	UpdateTeam permission.Statement = "team:update" // rename a team, add and remove its members
	DeleteTeam permission.Statement = "team:delete" // delete a team
)

// TeamStatements declares the statements of teams, for permission.Declared
// checks. The Service adds them to OrganizationStatements when
// Config.Teams.Enabled, so that owner and admin hold them; otherwise
// the application may use the resource "team" for its own statements.
var TeamStatements = permission.Declared{"team": {"create", "update", "delete"}}

// Defaults of TeamsConfig.
const (
	DefaultMaxTeams          = 100
	DefaultMaxMembersPerTeam = 1000
)

// TeamsConfig turns on teams: named groups of an organization's members,
// which the application gives meaning to (a team's projects, its
// channel). A team grants no statement by itself.
type TeamsConfig struct {
	// Enabled turns teams on: the routes under
	// {base}/organizations/{org}/teams and the statements team:create,
	// team:update and team:delete. Off (the zero value), those routes
	// answer 404 and the Store's team methods are never called.
	Enabled bool
	// MaxTeams is how many teams one organization may have. Default:
	// DefaultMaxTeams (100).
	MaxTeams int
	// MaxMembersPerTeam is how many members one team may have. Default:
	// DefaultMaxMembersPerTeam (1000).
	MaxMembersPerTeam int
}

// Team is a named group of an organization's members. Its name is
// unique in the organization.
type Team struct {
	ID             string    `json:"id"`
	OrganizationID string    `json:"organizationId"`
	Name           string    `json:"name"`
	CreatedAt      time.Time `json:"createdAt"`
}

// TeamMember is a member of an organization in one of its teams.
type TeamMember struct {
	TeamID    string    `json:"teamId"`
	UserID    string    `json:"userId"`
	CreatedAt time.Time `json:"createdAt"`
}

// TeamStore keeps teams and their members; a Store implements it for
// Config.Teams (the built-in adapters do). Every method takes the team's
// organization and matches both: a team id of another organization is
// adapter.ErrNotFound. A team member is a member of the team's
// organization: removing the membership (or the user) removes them
// from its teams, deleting a team removes its members, and deleting
// the organization deletes its teams.
type TeamStore interface {
	// CreateTeam stores t. Atomically, so that of concurrent creations
	// in one organization no more than max succeed, it returns ErrLimit
	// when the organization has max teams. ErrConflict when the name is
	// taken in the organization, ErrNotFound when there is no such
	// organization.
	CreateTeam(ctx context.Context, t Team, max int) error
	// Team returns orgID's team id.
	Team(ctx context.Context, orgID, id string) (Team, error)
	// Teams returns orgID's teams, by name.
	Teams(ctx context.Context, orgID string) ([]Team, error)
	// RenameTeam sets the name of orgID's team id; ErrConflict when the
	// organization has a team of that name.
	RenameTeam(ctx context.Context, orgID, id, name string) error
	// DeleteTeam removes orgID's team id and its members.
	DeleteTeam(ctx context.Context, orgID, id string) error
	// AddTeamMember adds userID to orgID's team teamID at the time at.
	// ErrNotFound when there is no such team or userID is not a member
	// of orgID, ErrConflict when they are in the team already, and,
	// atomically as CreateTeam, ErrLimit when the team has max members.
	AddTeamMember(ctx context.Context, orgID, teamID, userID string, max int, at time.Time) error
	// RemoveTeamMember removes userID from orgID's team teamID.
	RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error
	// TeamMembers returns the members of orgID's team teamID, by the
	// time they were added; ErrNotFound when there is no such team.
	TeamMembers(ctx context.Context, orgID, teamID string) ([]TeamMember, error)
}

// errTeamsOff answers every team call of a Service whose teams are off:
// the routes answer 404, as for a path that does not exist.
var errTeamsOff = fmt.Errorf("%w: teams are off (Config.Teams)", ErrNotFound)

// teamStore returns the store of teams for cfg: nil when teams are off,
// an error when they are on and store cannot keep them.
func teamStore(cfg TeamsConfig, store Store) (TeamStore, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	ts, ok := store.(TeamStore)
	if a, isAdapter := store.(adapter.Adapter); ok && isAdapter {
		ok = adapter.Supports[TeamStore](a) // a wrapper (redisstore) may have the methods and no store behind them
	}
	if !ok {
		return nil, errors.New("organization: Teams need a Store that is an organization.TeamStore (the built-in adapters are)")
	}
	return ts, nil
}

// teamsFor returns the store of teams, errTeamsOff when they are off,
// and checks that actor holds want in orgID.
func (s *Service) teamsFor(ctx context.Context, actor, orgID string, want ...permission.Statement) (TeamStore, error) {
	if s.teams == nil {
		return nil, errTeamsOff
	}
	if _, _, err := s.Authorize(ctx, orgID, actor, want...); err != nil {
		return nil, err
	}
	return s.teams, nil
}

// cleanTeamName checks a team's name: 1 to 100 characters after
// trimming, none of them control characters.
func cleanTeamName(name string) (string, error) {
	name, err := cleanName(name)
	if err != nil {
		return "", fmt.Errorf("%w: team name (1 to 100 characters, no control characters)", ErrInvalid)
	}
	return name, nil
}

// CreateTeam makes a team of orgID named name: team:create. Its name is
// unique in the organization (ErrConflict); an organization has at most
// Config.Teams.MaxTeams teams (ErrLimit).
func (s *Service) CreateTeam(ctx context.Context, actor, orgID, name string) (Team, error) {
	ts, err := s.teamsFor(ctx, actor, orgID, CreateTeam)
	if err != nil {
		return Team{}, err
	}
	if name, err = cleanTeamName(name); err != nil {
		return Team{}, err
	}
	t := Team{ID: newID(), OrganizationID: orgID, Name: name, CreatedAt: s.cfg.Now().UTC().Truncate(time.Microsecond)}
	if err := ts.CreateTeam(ctx, t, s.cfg.Teams.MaxTeams); err != nil {
		return Team{}, storeErr(err)
	}
	return t, nil
}

// Teams returns orgID's teams, to any of its members.
func (s *Service) Teams(ctx context.Context, actor, orgID string) ([]Team, error) {
	ts, err := s.teamsFor(ctx, actor, orgID)
	if err != nil {
		return nil, err
	}
	list, err := ts.Teams(ctx, orgID)
	return list, storeErr(err)
}

// RenameTeam renames orgID's team id: team:update.
func (s *Service) RenameTeam(ctx context.Context, actor, orgID, id, name string) (Team, error) {
	ts, err := s.teamsFor(ctx, actor, orgID, UpdateTeam)
	if err != nil {
		return Team{}, err
	}
	if name, err = cleanTeamName(name); err != nil {
		return Team{}, err
	}
	if err := ts.RenameTeam(ctx, orgID, id, name); err != nil {
		return Team{}, storeErr(err)
	}
	t, err := ts.Team(ctx, orgID, id)
	return t, storeErr(err)
}

// DeleteTeam deletes orgID's team id with its members (the organization
// keeps them): team:delete.
func (s *Service) DeleteTeam(ctx context.Context, actor, orgID, id string) error {
	ts, err := s.teamsFor(ctx, actor, orgID, DeleteTeam)
	if err != nil {
		return err
	}
	return storeErr(ts.DeleteTeam(ctx, orgID, id))
}

// AddTeamMember adds the member userID of orgID to its team teamID:
// team:update. Someone who is not a member of the organization is
// ErrNotFound; a team has at most Config.Teams.MaxMembersPerTeam members
// (ErrLimit).
func (s *Service) AddTeamMember(ctx context.Context, actor, orgID, teamID, userID string) (TeamMember, error) {
	ts, err := s.teamsFor(ctx, actor, orgID, UpdateTeam)
	if err != nil {
		return TeamMember{}, err
	}
	at := s.cfg.Now().UTC().Truncate(time.Microsecond)
	if err := ts.AddTeamMember(ctx, orgID, teamID, userID, s.cfg.Teams.MaxMembersPerTeam, at); err != nil {
		return TeamMember{}, storeErr(err)
	}
	return TeamMember{TeamID: teamID, UserID: userID, CreatedAt: at}, nil
}

// RemoveTeamMember removes userID from orgID's team teamID: team:update.
// They stay a member of the organization.
func (s *Service) RemoveTeamMember(ctx context.Context, actor, orgID, teamID, userID string) error {
	ts, err := s.teamsFor(ctx, actor, orgID, UpdateTeam)
	if err != nil {
		return err
	}
	return storeErr(ts.RemoveTeamMember(ctx, orgID, teamID, userID))
}

// TeamMembers returns the members of orgID's team teamID, to any member
// of the organization.
func (s *Service) TeamMembers(ctx context.Context, actor, orgID, teamID string) ([]TeamMember, error) {
	ts, err := s.teamsFor(ctx, actor, orgID)
	if err != nil {
		return nil, err
	}
	list, err := ts.TeamMembers(ctx, orgID, teamID)
	return list, storeErr(err)
}
