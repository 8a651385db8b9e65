package organization

import "github.com/gatehouse-auth/gatehouse/internal/orgcore"

// The statements of teams, declared only when Config.Teams.Enabled.
const (
	CreateTeam = orgcore.CreateTeam // make a team
	UpdateTeam = orgcore.UpdateTeam // rename a team, add and remove its members
	DeleteTeam = orgcore.DeleteTeam // delete a team
)

// TeamStatements declares the statements of teams, for permission.Declared
// checks. The Service adds them to OrganizationStatements when
// Config.Teams.Enabled, so that owner and admin hold them; otherwise
// the application may use the resource "team" for its own statements.
var TeamStatements = orgcore.TeamStatements

// Defaults of TeamsConfig.
const (
	DefaultMaxTeams          = orgcore.DefaultMaxTeams
	DefaultMaxMembersPerTeam = orgcore.DefaultMaxMembersPerTeam
)

// The kinds of Change that teams make.
const (
	TeamCreated       = orgcore.TeamCreated
	TeamUpdated       = orgcore.TeamUpdated // renamed
	TeamDeleted       = orgcore.TeamDeleted
	TeamMemberAdded   = orgcore.TeamMemberAdded   // UserID added to TeamID
	TeamMemberRemoved = orgcore.TeamMemberRemoved // UserID removed from TeamID
)

// TeamsConfig turns on teams: named groups of an organization's members,
// which the application gives meaning to (a team's projects, its
// channel). A team grants no statement by itself.
type TeamsConfig = orgcore.TeamsConfig

// Team is a named group of an organization's members. Its name is
// unique in the organization.
type Team = orgcore.Team

// TeamMember is a member of an organization in one of its teams.
type TeamMember = orgcore.TeamMember

// TeamStore keeps teams and their members; a Store implements it for
// Config.Teams (the built-in adapters do). Every method takes the team's
// organization and matches both: a team id of another organization is
// adapter.ErrNotFound. A team member is a member of the team's
// organization: removing the membership (or the user) removes them
// from its teams, deleting a team removes its members, and deleting
// the organization deletes its teams.
type TeamStore = orgcore.TeamStore
