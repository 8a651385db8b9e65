package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// The organization.Store statements are the same for SQLite and
// PostgreSQL. A custom role's statements are stored space-separated (a
// statement has no space: permission.Parse). The limits are counted as
// the teams' are (teams.go): in a transaction that first locks the
// organization's row, or the user's for the organizations a user is in,
// so that concurrent additions run one after another and each counts
// what the others added. A transaction that locks both locks the user's
// first, as keepOwners does, so that two never wait for each other.

const (
	orgColumns        = `id, name, slug, created_at`
	memberColumns     = `organization_id, user_id, role, created_at`
	invitationColumns = `id, organization_id, email, role, inviter_id, token_hash, expires, created_at`
)

// Organizations is organization.Store on s, for an adapter to embed.
type Organizations struct{ S Store }

func (s Store) scanOrg(row Row) (organization.Organization, error) {
	var o organization.Organization
	if err := row.Scan(&o.ID, &o.Name, &o.Slug, s.Time(&o.CreatedAt)); err != nil {
		return o, s.Error("organization", err)
	}
	o.CreatedAt = o.CreatedAt.UTC()
	return o, nil
}

func (s Store) scanMember(row Row) (organization.Membership, error) {
	var m organization.Membership
	if err := row.Scan(&m.OrganizationID, &m.UserID, &m.Role, s.Time(&m.CreatedAt)); err != nil {
		return m, s.Error("member", err)
	}
	m.CreatedAt = m.CreatedAt.UTC()
	return m, nil
}

func (s Store) scanInvitation(row Row) (organization.Invitation, error) {
	var i organization.Invitation
	if err := row.Scan(&i.ID, &i.OrganizationID, &i.Email, &i.Role, &i.InviterID, &i.TokenHash, s.Time(&i.Expires), s.Time(&i.CreatedAt)); err != nil {
		return i, s.Error("invitation", err)
	}
	i.Expires, i.CreatedAt = i.Expires.UTC(), i.CreatedAt.UTC()
	return i, nil
}

func (s Store) scanRole(row Row) (organization.Role, error) {
	var (
		r     organization.Role
		perms string
	)
	if err := row.Scan(&r.Name, &perms); err != nil {
		return r, s.Error("role", err)
	}
	r.Permissions = permission.Set{}
	for _, p := range strings.Fields(perms) {
		r.Permissions = append(r.Permissions, permission.Statement(p))
	}
	return r, nil
}

// lockOrg locks the row of the organization orgID until tx ends;
// adapter.ErrNotFound when there is none.
func (s Store) lockOrg(ctx context.Context, tx Querier, orgID string) error {
	return s.lockRow(ctx, tx, "lock organization", `UPDATE gatehouse_organizations SET name = name WHERE id = $1`, orgID)
}

// lockUser locks the row of the user userID until tx ends, so that no
// membership of theirs is added meanwhile; adapter.ErrNotFound when
// there is none.
func (s Store) lockUser(ctx context.Context, tx Querier, userID string) error {
	return s.lockRow(ctx, tx, "lock user", s.LockUser, userID)
}

// orgLimit returns organization.ErrLimit when userID is a member of max
// organizations; the caller has locked the user's row.
func (s Store) orgLimit(ctx context.Context, tx Querier, userID string, max int) error {
	return s.underLimit(ctx, tx, max, "organizations per user", `SELECT COUNT(*) FROM gatehouse_members WHERE user_id = $1`, userID)
}

// memberLimit returns organization.ErrLimit when orgID's members and
// its invitations unexpired at now number max; the caller has locked
// the organization's row.
func (s Store) memberLimit(ctx context.Context, tx Querier, orgID string, max int, now time.Time) error {
	return s.underLimit(ctx, tx, max, "members and invitations", `SELECT
		(SELECT COUNT(*) FROM gatehouse_members WHERE organization_id = $1) +
		(SELECT COUNT(*) FROM gatehouse_invitations WHERE organization_id = $1 AND expires > $2)`,
		orgID, s.TimeArg(stored.Time(now)))
}

// CreateOrganization stores o and its first member in one transaction,
// unless the user is a member of max organizations (organization.Store).
func (st Organizations) CreateOrganization(ctx context.Context, o organization.Organization, first organization.Membership, max int) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockUser(ctx, tx, first.UserID); err != nil {
			return err
		}
		if err := s.orgLimit(ctx, tx, first.UserID, max); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO gatehouse_organizations (`+orgColumns+`) VALUES ($1, $2, $3, $4)`,
			o.ID, o.Name, o.Slug, s.TimeArg(stored.Time(o.CreatedAt))); err != nil {
			return s.Error("create organization", err)
		}
		return s.addMember(ctx, tx, organization.Membership{OrganizationID: o.ID, UserID: first.UserID, Role: first.Role, CreatedAt: first.CreatedAt})
	})
}

// addMember inserts m when its user exists, ErrNotFound otherwise: the
// check is the statement's, not a foreign key's (SQLite may run without
// them).
func (s Store) addMember(ctx context.Context, tx Querier, m organization.Membership) error {
	n, err := tx.Exec(ctx, `INSERT INTO gatehouse_members (`+memberColumns+`)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = $2)`,
		m.OrganizationID, m.UserID, m.Role, s.TimeArg(stored.Time(m.CreatedAt)))
	return s.OneRow(n, err, "add member")
}

// Organization returns the organization with the id (organization.Store).
func (st Organizations) Organization(ctx context.Context, id string) (organization.Organization, error) {
	s := st.S
	return s.scanOrg(s.DB.QueryRow(ctx, `SELECT `+orgColumns+` FROM gatehouse_organizations WHERE id = $1`, id))
}

// UpdateOrganization stores o's name and slug (organization.Store).
func (st Organizations) UpdateOrganization(ctx context.Context, o organization.Organization) error {
	s := st.S
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_organizations SET name = $2, slug = $3 WHERE id = $1`, o.ID, o.Name, o.Slug)
	return s.OneRow(n, err, "update organization")
}

// DeleteOrganization removes the organization with its members, teams,
// invitations, roles and sessions' active organization
// (organization.Store).
func (st Organizations) DeleteOrganization(ctx context.Context, id string) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		// The organization's row first, as every other change to what
		// it holds locks it: a renewal (which locks it, then the
		// invitation) and this deletion never wait for each other.
		if err := s.lockOrg(ctx, tx, id); err != nil {
			return err
		}
		// What the foreign keys would cascade to, for SQLite without them.
		for _, table := range []string{"active_organizations", "team_members", "teams", "members", "invitations", "organization_roles"} {
			if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_`+table+` WHERE organization_id = $1`, id); err != nil {
				return s.Error("delete organization's "+table, err)
			}
		}
		n, err := tx.Exec(ctx, `DELETE FROM gatehouse_organizations WHERE id = $1`, id)
		return s.OneRow(n, err, "delete organization")
	})
}

// Organizations returns those userID is a member of (organization.Store).
func (st Organizations) Organizations(ctx context.Context, userID string) ([]organization.Organization, error) {
	s := st.S
	rows, err := s.DB.Query(ctx, `SELECT o.id, o.name, o.slug, o.created_at
		FROM gatehouse_organizations o JOIN gatehouse_members m ON m.organization_id = o.id
		WHERE m.user_id = $1 ORDER BY o.created_at, o.id`, userID)
	if err != nil {
		return nil, s.Error("list organizations", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list organizations", s.scanOrg)
}

// Membership returns userID's membership of orgID (organization.Store).
func (st Organizations) Membership(ctx context.Context, orgID, userID string) (organization.Membership, error) {
	s := st.S
	return s.scanMember(s.DB.QueryRow(ctx, `SELECT `+memberColumns+` FROM gatehouse_members
		WHERE organization_id = $1 AND user_id = $2`, orgID, userID))
}

// Members returns orgID's members (organization.Store).
func (st Organizations) Members(ctx context.Context, orgID string) ([]organization.Membership, error) {
	s := st.S
	rows, err := s.DB.Query(ctx, `SELECT `+memberColumns+` FROM gatehouse_members
		WHERE organization_id = $1 ORDER BY created_at, user_id`, orgID)
	if err != nil {
		return nil, s.Error("list members", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list members", s.scanMember)
}

// ownerChange runs change in a transaction that first locks the
// organization's row, so that changes to one organization's members run
// one after another: two demotions of its last two owners cannot both
// see the other still an owner, and a change judged on roles read
// before it sees a promotion or demotion made since. It returns
// adapter.ErrConflict, without running change, when a member of judged
// no longer holds the role it gives, and organization.ErrLastOwner when
// userID is orgID's only owner and keep is false (the change takes the
// role owner from them).
func (s Store) ownerChange(ctx context.Context, orgID, userID string, judged map[string]string, keep bool, change func(tx Querier) error) error {
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockRow(ctx, tx, "lock organization", `UPDATE gatehouse_organizations SET name = name WHERE id = $1`, orgID); err != nil {
			return err
		}
		var role string
		err := tx.QueryRow(ctx, `SELECT role FROM gatehouse_members WHERE organization_id = $1 AND user_id = $2`, orgID, userID).Scan(&role)
		if err != nil {
			return s.Error("member", err)
		}
		for user, want := range judged {
			var held string
			err := tx.QueryRow(ctx, `SELECT role FROM gatehouse_members WHERE organization_id = $1 AND user_id = $2`, orgID, user).Scan(&held)
			if err != nil && !errors.Is(err, s.ErrNoRows) {
				return s.Error("member", err)
			}
			if err != nil || held != want { // removed or given another role meanwhile
				return fmt.Errorf("%s: member %q: role changed: %w", s.Name, user, adapter.ErrConflict)
			}
		}
		if role == organization.Owner && !keep {
			var owners int
			err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM gatehouse_members WHERE organization_id = $1 AND role = $2`,
				orgID, organization.Owner).Scan(&owners)
			if err != nil {
				return s.Error("count owners", err)
			}
			if owners <= 1 {
				return organization.ErrLastOwner
			}
		}
		return change(tx)
	})
}

// keepOwners deletes, in tx, the memberships of the user userID, and
// returns organization.ErrLastOwner when that leaves an organization of
// theirs without an owner (the caller then rolls tx back). It locks the
// user's row first, so that no membership of theirs is added meanwhile
// (an insert naming the user waits for tx, on PostgreSQL; SQLite's write
// lock holds everything off), then the rows of the organizations they
// own, as ownerChange does: a concurrent demotion or removal of another
// owner of one of them runs wholly before tx's count or wholly after
// tx, and then sees the user gone.
func (s Store) keepOwners(ctx context.Context, tx Querier, userID string) error {
	if err := s.lockRow(ctx, tx, "lock user", s.LockUser, userID); err != nil {
		return err
	}
	owned, err := s.strings(ctx, tx, "user's organizations", `SELECT organization_id FROM gatehouse_members
		WHERE user_id = $1 AND role = $2 ORDER BY organization_id`, userID, organization.Owner)
	if err != nil {
		return err
	}
	locked := map[string]bool{}
	lock := func(orgIDs []string) error {
		for _, org := range orgIDs { // in the order of ids: two deletions never wait for each other in a circle
			if locked[org] {
				continue
			}
			locked[org] = true
			if _, err := tx.Exec(ctx, `UPDATE gatehouse_organizations SET name = name WHERE id = $1`, org); err != nil {
				return s.Error("lock organization", err)
			}
		}
		return nil
	}
	if err := lock(owned); err != nil {
		return err
	}
	// The roles as they are now: a promotion to owner made since the
	// SELECT above is returned here (PostgreSQL deletes the newest
	// version of a row), and its organization locked below.
	owned, err = s.strings(ctx, tx, "delete user's memberships", `DELETE FROM gatehouse_members
		WHERE user_id = $1 RETURNING CASE WHEN role = $2 THEN organization_id ELSE '' END`, userID, organization.Owner)
	if err != nil {
		return err
	}
	owned = slices.DeleteFunc(owned, func(org string) bool { return org == "" })
	slices.Sort(owned)
	if err := lock(owned); err != nil {
		return err
	}
	for _, org := range owned {
		var owners int
		err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM gatehouse_members WHERE organization_id = $1 AND role = $2`,
			org, organization.Owner).Scan(&owners)
		if err != nil {
			return s.Error("count owners", err)
		}
		if owners == 0 {
			return fmt.Errorf("%s: organization %q: %w", s.Name, org, organization.ErrLastOwner)
		}
	}
	return nil
}

// strings returns the one text column of the rows query returns.
func (s Store) strings(ctx context.Context, tx Querier, what, query string, args ...any) ([]string, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, s.Error(what, err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, what, func(row Row) (string, error) {
		var v string
		if err := row.Scan(&v); err != nil {
			return "", s.Error(what, err)
		}
		return v, nil
	})
}

// SetRole sets a member's role, never the last owner's to another, when
// the members judged hold the roles it gives (organization.Store).
func (st Organizations) SetRole(ctx context.Context, orgID, userID, role string, judged map[string]string) error {
	s := st.S
	return s.ownerChange(ctx, orgID, userID, judged, role == organization.Owner, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE gatehouse_members SET role = $3 WHERE organization_id = $1 AND user_id = $2`, orgID, userID, role)
		return s.OneRow(n, err, "set role")
	})
}

// RemoveMembership removes a member, never the last owner, with their
// sessions' active organization and their places in its teams, when the
// members judged hold the roles it gives (organization.Store).
func (st Organizations) RemoveMembership(ctx context.Context, orgID, userID string, judged map[string]string) error {
	s := st.S
	return s.ownerChange(ctx, orgID, userID, judged, false, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_active_organizations WHERE organization_id = $1 AND user_id = $2`, orgID, userID); err != nil {
			return s.Error("remove member: active organization", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_team_members WHERE organization_id = $1 AND user_id = $2`, orgID, userID); err != nil {
			return s.Error("remove member: teams", err)
		}
		n, err := tx.Exec(ctx, `DELETE FROM gatehouse_members WHERE organization_id = $1 AND user_id = $2`, orgID, userID)
		return s.OneRow(n, err, "remove member")
	})
}

// invitable checks, for an invitation of orgID to email with role,
// pending at now (except, an invitation's id, aside), that a custom role
// exists and that no other invitation to the address is pending; the
// caller has locked the organization's row, which CreateRole and
// DeleteRole lock too.
func (s Store) invitable(ctx context.Context, tx Querier, orgID, except, email, role string, custom bool, now time.Time) error {
	var roleExists, pending bool
	err := tx.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM gatehouse_organization_roles WHERE organization_id = $1 AND name = $2),
		EXISTS (SELECT 1 FROM gatehouse_invitations WHERE organization_id = $1 AND id <> $3 AND email = $4 AND expires > $5)`,
		orgID, role, except, email, s.TimeArg(stored.Time(now))).Scan(&roleExists, &pending)
	switch {
	case err != nil:
		return s.Error("invitation", err)
	case custom && !roleExists:
		return s.NotFound("role")
	case pending:
		return fmt.Errorf("%s: invitation to %q: %w", s.Name, email, adapter.ErrConflict)
	}
	return nil
}

// CreateInvitation stores inv unless its organization has no custom role
// of its name, has another pending invitation to its address, or has
// members and unexpired invitations numbering max, in a transaction
// that locks the organization's row (organization.Store).
func (st Organizations) CreateInvitation(ctx context.Context, inv organization.Invitation, custom bool, max int) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockOrg(ctx, tx, inv.OrganizationID); err != nil {
			return err
		}
		if err := s.invitable(ctx, tx, inv.OrganizationID, "", inv.Email, inv.Role, custom, inv.CreatedAt); err != nil {
			return err
		}
		if err := s.memberLimit(ctx, tx, inv.OrganizationID, max, inv.CreatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO gatehouse_invitations (`+invitationColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			inv.ID, inv.OrganizationID, inv.Email, inv.Role, inv.InviterID, inv.TokenHash,
			s.TimeArg(stored.Time(inv.Expires)), s.TimeArg(stored.Time(inv.CreatedAt)))
		if err != nil {
			return s.Error("create invitation", err)
		}
		return nil
	})
}

// Invitations returns orgID's invitations (organization.Store).
func (st Organizations) Invitations(ctx context.Context, orgID string) ([]organization.Invitation, error) {
	s := st.S
	rows, err := s.DB.Query(ctx, `SELECT `+invitationColumns+` FROM gatehouse_invitations
		WHERE organization_id = $1 ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, s.Error("list invitations", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list invitations", s.scanInvitation)
}

// InvitationByToken returns the invitation of the token hash
// (organization.Store).
func (st Organizations) InvitationByToken(ctx context.Context, tokenHash string) (organization.Invitation, error) {
	s := st.S
	return s.scanInvitation(s.DB.QueryRow(ctx, `SELECT `+invitationColumns+` FROM gatehouse_invitations WHERE token_hash = $1`, tokenHash))
}

// RenewInvitation replaces an invitation's token hash and expiry, in a
// transaction that locks the organization's row, checked as
// CreateInvitation's: one expired at now must fit under max again
// (organization.Store).
func (st Organizations) RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time, custom bool, max int, now time.Time) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockOrg(ctx, tx, orgID); err != nil {
			return err
		}
		var (
			old         time.Time
			email, role string
		)
		if err := tx.QueryRow(ctx, `SELECT expires, email, role FROM gatehouse_invitations WHERE organization_id = $1 AND id = $2`,
			orgID, id).Scan(s.Time(&old), &email, &role); err != nil {
			return s.Error("renew invitation", err)
		}
		if err := s.invitable(ctx, tx, orgID, id, email, role, custom, now); err != nil {
			return err
		}
		if !now.Before(old) { // expired, not counted: it must fit again
			if err := s.memberLimit(ctx, tx, orgID, max, now); err != nil {
				return err
			}
		}
		n, err := tx.Exec(ctx, `UPDATE gatehouse_invitations SET token_hash = $3, expires = $4 WHERE organization_id = $1 AND id = $2`,
			orgID, id, tokenHash, s.TimeArg(stored.Time(expires)))
		return s.OneRow(n, err, "renew invitation")
	})
}

// DeleteInvitation removes orgID's invitation id (organization.Store).
func (st Organizations) DeleteInvitation(ctx context.Context, orgID, id string) error {
	s := st.S
	n, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_invitations WHERE organization_id = $1 AND id = $2`, orgID, id)
	return s.OneRow(n, err, "delete invitation")
}

// refusal tells why an invitation of tokenHash could not be used by
// email at now: none, another address, expired.
func (s Store) refusal(ctx context.Context, tokenHash, email string, now time.Time) error {
	inv, err := Organizations{s}.InvitationByToken(ctx, tokenHash)
	switch {
	case err != nil:
		return err
	case inv.Email != email:
		return organization.ErrWrongRecipient
	case !now.Before(inv.Expires):
		return organization.ErrExpired
	}
	return s.NotFound("invitation") // used meanwhile
}

// AcceptInvitation deletes the invitation and adds the member in one
// transaction, which locks the user's row and then the organization's
// to count them against maxOrgs and maxMembers: the DELETE's row lock
// makes a concurrent accept find no row (organization.Store).
func (st Organizations) AcceptInvitation(ctx context.Context, tokenHash, email, userID string, maxOrgs, maxMembers int, now time.Time) (organization.Membership, error) {
	s := st.S
	var (
		m       organization.Membership
		refused bool // no usable invitation: refusal tells why
	)
	at := s.TimeArg(stored.Time(now))
	err := s.InTx(ctx, func(tx Querier) error {
		// The user's row first: on SQLite a transaction's first statement
		// must write, or it could not take the write lock later.
		if err := s.lockUser(ctx, tx, userID); err != nil {
			return err
		}
		// The organization is read before its row is locked, and its
		// row locked before the invitation's, as RenewInvitation does;
		// the DELETE below checks the invitation again.
		var orgID string
		err := tx.QueryRow(ctx, `SELECT organization_id FROM gatehouse_invitations WHERE token_hash = $1 AND email = $2 AND expires > $3`,
			tokenHash, email, at).Scan(&orgID)
		if errors.Is(err, s.ErrNoRows) {
			refused = true
		}
		if err != nil {
			return s.Error("accept invitation", err)
		}
		if err := s.lockOrg(ctx, tx, orgID); err != nil {
			return err
		}
		var in bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM gatehouse_members WHERE organization_id = $1 AND user_id = $2)`,
			orgID, userID).Scan(&in); err != nil {
			return s.Error("member", err)
		}
		if in {
			return fmt.Errorf("%s: accept invitation: member: %w", s.Name, adapter.ErrConflict)
		}
		if err := s.orgLimit(ctx, tx, userID, maxOrgs); err != nil {
			return err
		}
		if err := s.underLimit(ctx, tx, maxMembers, "members", `SELECT COUNT(*) FROM gatehouse_members WHERE organization_id = $1`, orgID); err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `DELETE FROM gatehouse_invitations WHERE token_hash = $1 AND email = $2 AND expires > $3
			RETURNING organization_id, role`, tokenHash, email, at).Scan(&m.OrganizationID, &m.Role)
		if err != nil {
			return s.Error("accept invitation", err)
		}
		m.UserID, m.CreatedAt = userID, stored.Time(now)
		return s.addMember(ctx, tx, m)
	})
	if refused {
		return organization.Membership{}, s.refusal(ctx, tokenHash, email, now)
	}
	if err != nil {
		return organization.Membership{}, err
	}
	return m, nil
}

// DeclineInvitation deletes an invitation for email (organization.Store).
func (st Organizations) DeclineInvitation(ctx context.Context, tokenHash, email string) (organization.Invitation, error) {
	s := st.S
	inv, err := s.scanInvitation(s.DB.QueryRow(ctx, `DELETE FROM gatehouse_invitations WHERE token_hash = $1 AND email = $2
		RETURNING `+invitationColumns, tokenHash, email))
	if errors.Is(err, adapter.ErrNotFound) {
		if _, err := st.InvitationByToken(ctx, tokenHash); err == nil {
			return organization.Invitation{}, organization.ErrWrongRecipient
		}
	}
	return inv, err
}

// Roles returns orgID's custom roles (organization.Store).
func (st Organizations) Roles(ctx context.Context, orgID string) ([]organization.Role, error) {
	s := st.S
	rows, err := s.DB.Query(ctx, `SELECT name, permissions FROM gatehouse_organization_roles
		WHERE organization_id = $1 ORDER BY name`, orgID)
	if err != nil {
		return nil, s.Error("list roles", err)
	}
	defer rows.Close()
	return ScanAll(s.Dialect, rows, "list roles", s.scanRole)
}

// CreateRole stores a custom role unless orgID has max, in a
// transaction that locks the organization's row (organization.Store).
func (st Organizations) CreateRole(ctx context.Context, orgID string, r organization.Role, max int) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockOrg(ctx, tx, orgID); err != nil {
			return err
		}
		if err := s.underLimit(ctx, tx, max, "roles", `SELECT COUNT(*) FROM gatehouse_organization_roles WHERE organization_id = $1`, orgID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO gatehouse_organization_roles (organization_id, name, permissions) VALUES ($1, $2, $3)`,
			orgID, r.Name, strings.Join(r.Permissions.Strings(), " "))
		if err != nil {
			return s.Error("create role", err)
		}
		return nil
	})
}

// UpdateRole replaces a custom role's statements (organization.Store).
func (st Organizations) UpdateRole(ctx context.Context, orgID string, r organization.Role) error {
	s := st.S
	n, err := s.DB.Exec(ctx, `UPDATE gatehouse_organization_roles SET permissions = $3 WHERE organization_id = $1 AND name = $2`,
		orgID, r.Name, strings.Join(r.Permissions.Strings(), " "))
	return s.OneRow(n, err, "update role")
}

// DeleteRole removes a custom role that no member holds and no
// invitation unexpired at now names, with the expired invitations that
// name it, in a transaction that locks the organization's row: an
// invitation made or renewed meanwhile is counted (organization.Store).
func (st Organizations) DeleteRole(ctx context.Context, orgID, name string, now time.Time) error {
	s := st.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockOrg(ctx, tx, orgID); err != nil {
			return err
		}
		var exists, inUse bool
		err := tx.QueryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM gatehouse_organization_roles WHERE organization_id = $1 AND name = $2),
			EXISTS (SELECT 1 FROM gatehouse_members WHERE organization_id = $1 AND role = $2)
			OR EXISTS (SELECT 1 FROM gatehouse_invitations WHERE organization_id = $1 AND role = $2 AND expires > $3)`,
			orgID, name, s.TimeArg(stored.Time(now))).Scan(&exists, &inUse)
		if err != nil {
			return s.Error("delete role", err)
		}
		switch {
		case !exists:
			return s.NotFound("role")
		case inUse:
			return fmt.Errorf("%s: role %q: %w", s.Name, name, organization.ErrRoleInUse)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_invitations WHERE organization_id = $1 AND role = $2`, orgID, name); err != nil {
			return s.Error("delete role's invitations", err)
		}
		n, err := tx.Exec(ctx, `DELETE FROM gatehouse_organization_roles WHERE organization_id = $1 AND name = $2`, orgID, name)
		return s.OneRow(n, err, "delete role")
	})
}

// SetActiveOrganization records a session's active organization, for a
// member only (organization.Store).
func (st Organizations) SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error {
	s := st.S
	if orgID == "" {
		_, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_active_organizations WHERE session_key = $1`, sessionKey)
		if err != nil {
			return s.Error("clear active organization", err)
		}
		return nil
	}
	now := s.TimeArg(stored.Time(time.Now()))
	if _, err := s.DB.Exec(ctx, `DELETE FROM gatehouse_active_organizations WHERE expires < $1`, now); err != nil {
		return s.Error("sweep active organizations", err)
	}
	n, err := s.DB.Exec(ctx, `INSERT INTO gatehouse_active_organizations (session_key, organization_id, user_id, expires)
		SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM gatehouse_members WHERE organization_id = $2 AND user_id = $3)
		ON CONFLICT (session_key) DO UPDATE SET organization_id = excluded.organization_id, user_id = excluded.user_id, expires = excluded.expires`,
		sessionKey, orgID, userID, s.TimeArg(stored.Time(expires)))
	return s.OneRow(n, err, "set active organization")
}

// ActiveOrganization returns a session's active organization, "" for
// none (organization.Store).
func (st Organizations) ActiveOrganization(ctx context.Context, sessionKey string) (string, error) {
	s := st.S
	var id string
	err := s.DB.QueryRow(ctx, `SELECT organization_id FROM gatehouse_active_organizations WHERE session_key = $1 AND expires > $2`,
		sessionKey, s.TimeArg(stored.Time(time.Now()))).Scan(&id)
	if errors.Is(err, s.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", s.Error("active organization", err)
	}
	return id, nil
}
