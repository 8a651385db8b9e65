package memory

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

var _ organization.TeamStore = (*Adapter)(nil)

// teamMemberKey identifies a team membership.
type teamMemberKey struct{ team, user string }

// teamData is what the adapter keeps of teams (organization.TeamStore),
// under the adapter's mutex.
type teamData struct {
	teams   map[string]organization.Team // by id
	members map[teamMemberKey]organization.TeamMember
}

// teamsLocked returns the team data, made on first use. m.mu must be
// held.
func (m *Adapter) teamsLocked() *teamData {
	d := m.orgsLocked()
	if d.teams == nil {
		d.teams = &teamData{teams: map[string]organization.Team{}, members: map[teamMemberKey]organization.TeamMember{}}
	}
	return d.teams
}

// removeTeamMembersLocked removes the member k of an organization from
// its teams, as the SQL adapters' foreign keys do. m.mu must be held.
func (m *Adapter) removeTeamMembersLocked(k memberKey) {
	d := m.teamsLocked()
	for tk := range d.members {
		if tk.user == k.user && d.teams[tk.team].OrganizationID == k.org {
			delete(d.members, tk)
		}
	}
}

// deleteTeamsLocked deletes the teams of orgID with their members. m.mu
// must be held.
func (m *Adapter) deleteTeamsLocked(orgID string) {
	d := m.teamsLocked()
	for id, t := range d.teams {
		if t.OrganizationID == orgID {
			m.deleteTeamLocked(id)
		}
	}
}

// deleteTeamLocked deletes the team id with its members. m.mu must be
// held.
func (m *Adapter) deleteTeamLocked(id string) {
	d := m.teamsLocked()
	delete(d.teams, id)
	for tk := range d.members {
		if tk.team == id {
			delete(d.members, tk)
		}
	}
}

// teamLocked returns orgID's team id. m.mu must be held.
func (m *Adapter) teamLocked(orgID, id string) (organization.Team, error) {
	t, ok := m.teamsLocked().teams[id]
	if !ok || t.OrganizationID != orgID {
		return organization.Team{}, notFound("team", id)
	}
	return t, nil
}

// nameTakenLocked reports whether orgID has a team named name other
// than the team except. m.mu must be held.
func (m *Adapter) nameTakenLocked(orgID, name, except string) bool {
	for id, t := range m.teamsLocked().teams {
		if t.OrganizationID == orgID && t.Name == name && id != except {
			return true
		}
	}
	return false
}

// CreateTeam stores t unless its organization has max teams
// (organization.TeamStore).
func (m *Adapter) CreateTeam(ctx context.Context, t organization.Team, max int) error {
	return m.locked(ctx, func() error {
		if _, ok := m.orgsLocked().orgs[t.OrganizationID]; !ok {
			return notFound("organization", t.OrganizationID)
		}
		d := m.teamsLocked()
		if _, ok := d.teams[t.ID]; ok {
			return fmt.Errorf("memory: team %q: %w", t.ID, adapter.ErrConflict)
		}
		if m.nameTakenLocked(t.OrganizationID, t.Name, "") {
			return fmt.Errorf("memory: team name %q: %w", t.Name, adapter.ErrConflict)
		}
		n := 0
		for _, x := range d.teams {
			if x.OrganizationID == t.OrganizationID {
				n++
			}
		}
		if n >= max {
			return fmt.Errorf("memory: %d teams: %w", max, organization.ErrLimit)
		}
		t.CreatedAt = t.CreatedAt.UTC().Truncate(time.Microsecond)
		d.teams[t.ID] = t
		return nil
	})
}

// Team returns orgID's team id (organization.TeamStore).
func (m *Adapter) Team(ctx context.Context, orgID, id string) (organization.Team, error) {
	return lockedValue(ctx, m, func() (organization.Team, error) {
		return m.teamLocked(orgID, id)
	})
}

// Teams returns orgID's teams, by name (organization.TeamStore).
func (m *Adapter) Teams(ctx context.Context, orgID string) ([]organization.Team, error) {
	return lockedValue(ctx, m, func() ([]organization.Team, error) {
		of := func(_ string, t organization.Team) bool { return t.OrganizationID == orgID }
		return collect(m.teamsLocked().teams, of, nil, func(a, b organization.Team) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
		}), nil
	})
}

// RenameTeam sets the name of orgID's team id (organization.TeamStore).
func (m *Adapter) RenameTeam(ctx context.Context, orgID, id, name string) error {
	return m.locked(ctx, func() error {
		t, err := m.teamLocked(orgID, id)
		if err != nil {
			return err
		}
		if m.nameTakenLocked(orgID, name, id) {
			return fmt.Errorf("memory: team name %q: %w", name, adapter.ErrConflict)
		}
		t.Name = name
		m.teamsLocked().teams[id] = t
		return nil
	})
}

// DeleteTeam removes orgID's team id and its members
// (organization.TeamStore).
func (m *Adapter) DeleteTeam(ctx context.Context, orgID, id string) error {
	return m.locked(ctx, func() error {
		if _, err := m.teamLocked(orgID, id); err != nil {
			return err
		}
		m.deleteTeamLocked(id)
		return nil
	})
}

// AddTeamMember adds a member of orgID to its team teamID, unless the
// team has max members (organization.TeamStore).
func (m *Adapter) AddTeamMember(ctx context.Context, orgID, teamID, userID string, max int, at time.Time) error {
	return m.locked(ctx, func() error {
		if _, err := m.teamLocked(orgID, teamID); err != nil {
			return err
		}
		if _, ok := m.orgsLocked().members[memberKey{orgID, userID}]; !ok {
			return notFound("member", userID)
		}
		d := m.teamsLocked()
		k := teamMemberKey{teamID, userID}
		if _, ok := d.members[k]; ok {
			return fmt.Errorf("memory: team member %q: %w", userID, adapter.ErrConflict)
		}
		n := 0
		for tk := range d.members {
			if tk.team == teamID {
				n++
			}
		}
		if n >= max {
			return fmt.Errorf("memory: %d members per team: %w", max, organization.ErrLimit)
		}
		d.members[k] = organization.TeamMember{TeamID: teamID, UserID: userID, CreatedAt: at.UTC().Truncate(time.Microsecond)}
		return nil
	})
}

// RemoveTeamMember removes userID from orgID's team teamID
// (organization.TeamStore).
func (m *Adapter) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	return m.locked(ctx, func() error {
		if _, err := m.teamLocked(orgID, teamID); err != nil {
			return err
		}
		d := m.teamsLocked()
		k := teamMemberKey{teamID, userID}
		if _, ok := d.members[k]; !ok {
			return notFound("team member", userID)
		}
		delete(d.members, k)
		return nil
	})
}

// TeamMembers returns the members of orgID's team teamID
// (organization.TeamStore).
func (m *Adapter) TeamMembers(ctx context.Context, orgID, teamID string) ([]organization.TeamMember, error) {
	return lockedValue(ctx, m, func() ([]organization.TeamMember, error) {
		if _, err := m.teamLocked(orgID, teamID); err != nil {
			return nil, err
		}
		of := func(k teamMemberKey, _ organization.TeamMember) bool { return k.team == teamID }
		return collect(m.teamsLocked().members, of, nil, func(a, b organization.TeamMember) int {
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.UserID, b.UserID))
		}), nil
	})
}
