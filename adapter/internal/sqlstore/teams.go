package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// The organization.TeamStore statements, the same for SQLite and
// PostgreSQL. The limits are counted in a transaction that first writes
// the row they are about (the organization's for its teams, the team's
// for its members): on PostgreSQL a row lock, on SQLite the database's
// write lock, so that concurrent additions run one after another and
// each counts what the others added.

const (
	teamColumns       = `id, organization_id, name, created_at`
	teamMemberColumns = `team_id, user_id, created_at`
)

var _ organization.TeamStore = Organizations{}

func (s Store) scanTeam(row Row) (organization.Team, error) {
	var t organization.Team
	if err := row.Scan(&t.ID, &t.OrganizationID, &t.Name, s.Time(&t.CreatedAt)); err != nil {
		return t, s.Error("team", err)
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return t, nil
}

func (s Store) scanTeamMember(row Row) (organization.TeamMember, error) {
	var m organization.TeamMember
	if err := row.Scan(&m.TeamID, &m.UserID, s.Time(&m.CreatedAt)); err != nil {
		return m, s.Error("team member", err)
	}
	m.CreatedAt = m.CreatedAt.UTC()
	return m, nil
}

// underLimit returns organization.ErrLimit when the query, a COUNT(*)
// of what the limit max is about, counts max or more.
func (s Store) underLimit(ctx context.Context, tx Querier, max int, what, query string, args ...any) error {
	var n int
	if err := tx.QueryRow(ctx, query, args...).Scan(&n); err != nil {
		return s.Error("count "+what, err)
	}
	if n >= max {
		return fmt.Errorf("%s: %d %s: %w", s.Name, max, what, organization.ErrLimit)
	}
	return nil
}

// CreateTeam stores t unless its organization has max teams, in a
// transaction that locks the organization's row (organization.TeamStore).
func (st Organizations) CreateTeam(ctx context.Context, t organization.Team, max int) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockRow(ctx, tx, "lock organization", `UPDATE gatehouse_organizations SET name = name WHERE id = $1`, t.OrganizationID); err != nil {
			return err
		}
		if err := s.underLimit(ctx, tx, max, "teams", `SELECT COUNT(*) FROM gatehouse_teams WHERE organization_id = $1`, t.OrganizationID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO gatehouse_teams (`+teamColumns+`) VALUES ($1, $2, $3, $4)`,
			t.ID, t.OrganizationID, t.Name, s.TimeArg(stored.Time(t.CreatedAt))); err != nil {
			return s.Error("create team", err)
		}
		return nil
	})
}

// Team returns orgID's team id (organization.TeamStore).
func (st Organizations) Team(ctx context.Context, orgID, id string) (organization.Team, error) {
	s := st.S
	return s.scanTeam(s.DB.QueryRow(ctx, `SELECT `+teamColumns+` FROM gatehouse_teams WHERE organization_id = $1 AND id = $2`, orgID, id))
}

// Teams returns orgID's teams, by name (organization.TeamStore).
func (st Organizations) Teams(ctx context.Context, orgID string) ([]organization.Team, error) {
	s := st.S
	rows, err := s.DB.Query(ctx, `SELECT `+teamColumns+` FROM gatehouse_teams WHERE organization_id = $1 ORDER BY name, id`, orgID)
	if err != nil {
		return nil, s.Error("list teams", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list teams", s.scanTeam)
}

// RenameTeam sets the name of orgID's team id (organization.TeamStore).
func (st Organizations) RenameTeam(ctx context.Context, orgID, id, name string) error {
	s := st.S
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_teams SET name = $3 WHERE organization_id = $1 AND id = $2`, orgID, id, name)
	return s.OneRow(n, err, "rename team")
}

// DeleteTeam removes orgID's team id with its members, explicitly as
// well for SQLite without foreign keys (organization.TeamStore).
func (st Organizations) DeleteTeam(ctx context.Context, orgID, id string) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_team_members WHERE organization_id = $1 AND team_id = $2`, orgID, id); err != nil {
			return s.Error("delete team's members", err)
		}
		n, err := tx.Exec(ctx, `DELETE FROM gatehouse_teams WHERE organization_id = $1 AND id = $2`, orgID, id)
		return s.OneRow(n, err, "delete team")
	})
}

// AddTeamMember adds a member of orgID to its team teamID unless the
// team has max members, in a transaction that locks the team's row
// (organization.TeamStore).
func (st Organizations) AddTeamMember(ctx context.Context, orgID, teamID, userID string, max int, at time.Time) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockRow(ctx, tx, "team", `UPDATE gatehouse_teams SET name = name WHERE organization_id = $1 AND id = $2`, orgID, teamID); err != nil {
			return err
		}
		var in bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM gatehouse_team_members WHERE team_id = $1 AND user_id = $2)`,
			teamID, userID).Scan(&in); err != nil {
			return s.Error("team member", err)
		}
		if in {
			return fmt.Errorf("%s: add team member: %w", s.Name, adapter.ErrConflict)
		}
		if err := s.underLimit(ctx, tx, max, "members per team", `SELECT COUNT(*) FROM gatehouse_team_members WHERE team_id = $1`, teamID); err != nil {
			return err
		}
		// The membership is checked by the statement, not only by a
		// foreign key: SQLite may run without them.
		n, err := tx.Exec(ctx, `INSERT INTO gatehouse_team_members (team_id, organization_id, user_id, created_at)
			SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM gatehouse_members WHERE organization_id = $2 AND user_id = $3)`,
			teamID, orgID, userID, s.TimeArg(stored.Time(at)))
		return s.OneRow(n, err, "add team member: member")
	})
}

// RemoveTeamMember removes userID from orgID's team teamID
// (organization.TeamStore).
func (st Organizations) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	s := st.S
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_team_members WHERE organization_id = $1 AND team_id = $2 AND user_id = $3`,
		orgID, teamID, userID)
	return s.OneRow(n, err, "remove team member")
}

// TeamMembers returns the members of orgID's team teamID, by the time
// they were added (organization.TeamStore).
func (st Organizations) TeamMembers(ctx context.Context, orgID, teamID string) ([]organization.TeamMember, error) {
	s := st.S
	if _, err := st.Team(ctx, orgID, teamID); err != nil {
		return nil, err
	}
	rows, err := s.DB.Query(ctx, `SELECT `+teamMemberColumns+` FROM gatehouse_team_members
		WHERE organization_id = $1 AND team_id = $2 ORDER BY created_at, user_id`, orgID, teamID)
	if err != nil {
		return nil, s.Error("list team members", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list team members", s.scanTeamMember)
}
