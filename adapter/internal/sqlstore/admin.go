package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
)

// The admin.Store statements, on gatehouse_admin. An INSERT names the
// user through Guard, which is how the adapter refuses an unknown user:
// PostgreSQL's foreign key, or SQLite's EXISTS (its foreign keys may be
// off).

// statusColumns are the admin.Status columns, as scanStatus reads them,
// of a gatehouse_admin row aliased a (all NULL when there is none).
const statusColumns = `COALESCE(a.role, 'user'), a.banned_at, COALESCE(a.ban_reason, ''),
	COALESCE(a.ban_show_reason, 0), a.ban_expires, COALESCE(a.banned_by, ''), a.revoked_before`

// Admin implements admin.Store on Store; an adapter embeds it.
type Admin struct {
	store      Store
	guard      Guard
	deleteUser func(ctx context.Context, tx Querier, id string) error
}

// NewAdmin returns the Admin of the adapter whose statements st runs,
// whose INSERTs refuse an unknown user through guard, and which deletes a
// user with everything theirs in a transaction with deleteUser
// (adapter.ErrNotFound for an unknown user).
func NewAdmin(st Store, guard Guard, deleteUser func(ctx context.Context, tx Querier, id string) error) Admin {
	return Admin{store: st, guard: guard, deleteUser: deleteUser}
}

// Guard is how an adapter inserts a gatehouse_admin row for the user $1:
// it returns the INSERT's source for values, a list of expressions.
type Guard func(values string) string

// ValuesGuard is Guard for a database that enforces foreign keys.
func ValuesGuard(values string) string { return `VALUES (` + values + `)` }

// ExistsGuard is Guard for one that may not: no row when the user $1 does
// not exist.
func ExistsGuard(values string) string {
	return `SELECT ` + values + ` WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = $1)`
}

// statusDest returns the scan destinations of statusColumns into st, and
// the function that finishes st once scanned.
func (d Dialect) statusDest(st *admin.Status) ([]any, func()) {
	var (
		bannedAt, expires, revoked *time.Time
		reason, by                 string
		show                       int
	)
	dest := []any{(*string)(&st.Role), d.NullTime(&bannedAt), &reason, &show, d.NullTime(&expires), &by, d.NullTime(&revoked)}
	return dest, func() {
		if bannedAt != nil {
			st.Ban = &admin.Ban{Reason: reason, ShowReason: show != 0, By: by, At: bannedAt.UTC()}
			if expires != nil {
				st.Ban.Expires = expires.UTC()
			}
		}
		if revoked != nil {
			st.RevokedBefore = revoked.UTC()
		}
	}
}

// likePattern returns the LIKE pattern (with ESCAPE '\') matching strings
// that contain s, lowered as SQLite's lower() does; "" for s empty.
func likePattern(s string) string {
	if s == "" {
		return ""
	}
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(stored.LowerASCII(s)) + "%"
}

// ListUsers returns one page of the users q selects, in the order of
// their ids.
func (a Admin) ListUsers(ctx context.Context, q admin.Query) (admin.Page, error) {
	s := a.store
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	limit := max(q.Limit, 1)
	banned := 0
	if q.BannedOnly {
		banned = 1
	}
	rows, err := s.DB.Query(ctx, `SELECT `+UserColumns+`, `+statusColumns+`
		FROM gatehouse_users u LEFT JOIN gatehouse_admin a ON a.user_id = u.id
		WHERE u.id > $1
		AND ($2 = '' OR lower(COALESCE(u.email, '')) LIKE $2 ESCAPE '\' OR lower(u.name) LIKE $2 ESCAPE '\')
		AND ($3 = '' OR COALESCE(a.role, 'user') = $3)
		AND ($4 = 0 OR (a.banned_at IS NOT NULL AND (a.ban_expires IS NULL OR a.ban_expires > $5)))
		ORDER BY u.id LIMIT $6`,
		q.After, likePattern(q.Search), string(q.Role), banned, s.TimeArg(stored.Time(now)), limit+1)
	if err != nil {
		return admin.Page{}, s.Error("list users", err)
	}
	defer rows.Close()
	list, err := ScanAll(s.Dialect, rows, "list users", func(row Row) (admin.Listed, error) {
		var l admin.Listed
		sd, finish := s.statusDest(&l.Status)
		dest := append([]any{&l.User.ID, &l.User.Name, &l.User.Email, s.NullTime(&l.User.EmailVerified), &l.User.Image}, sd...)
		if err := row.Scan(dest...); err != nil {
			return l, s.Error("list users", err)
		}
		utcPtr(l.User.EmailVerified)
		finish()
		return l, nil
	})
	if err != nil {
		return admin.Page{}, err
	}
	page := admin.Page{Users: list}
	if len(list) > limit {
		page.Users, page.Next = list[:limit], list[limit-1].User.ID
	}
	return page, nil
}

// UserStatus returns the user's admin.Status: one primary-key lookup
// (of the user, joined with their status by primary key).
func (a Admin) UserStatus(ctx context.Context, userID string) (admin.Status, error) {
	s := a.store
	st := admin.Status{Role: admin.RoleUser}
	dest, finish := s.statusDest(&st)
	err := s.DB.QueryRow(ctx, `SELECT `+statusColumns+`
		FROM gatehouse_users u LEFT JOIN gatehouse_admin a ON a.user_id = u.id WHERE u.id = $1`, userID).Scan(dest...)
	switch {
	case errors.Is(err, s.ErrNoRows):
		return admin.Status{}, s.NotFound("user status")
	case err != nil:
		return admin.Status{}, s.Error("user status", err)
	}
	finish()
	return st, nil
}

// upsert inserts the user's gatehouse_admin row with the columns cols set
// to args[1:] (args[0] is the user id), or runs set on the existing row;
// adapter.ErrNotFound for an unknown user.
func (a Admin) upsert(ctx context.Context, what, cols, set string, args ...any) error {
	s := a.store
	values := "$1" // args[0] is the user id
	for i := 2; i <= len(args); i++ {
		values += fmt.Sprintf(", $%d", i)
	}
	n, err := s.DB.Exec(ctx, `INSERT INTO gatehouse_admin (user_id, `+cols+`) `+a.guard(values)+`
		ON CONFLICT (user_id) DO UPDATE SET `+set, args...)
	return s.OneRow(n, err, what)
}

// later is the SQL of the later of the stored revoked_before and the
// inserted one.
const later = `revoked_before = CASE WHEN gatehouse_admin.revoked_before IS NULL
	OR gatehouse_admin.revoked_before < excluded.revoked_before
	THEN excluded.revoked_before ELSE gatehouse_admin.revoked_before END`

// SetUserRole stores the user's role.
func (a Admin) SetUserRole(ctx context.Context, userID string, role admin.Role) error {
	if !role.Valid() {
		return fmt.Errorf("%s: %q: %w", a.store.Name, role, admin.ErrInvalidRole)
	}
	return a.upsert(ctx, "set role", "role", "role = excluded.role", userID, string(role))
}

// BanUser stores the user's ban and moves RevokedBefore forward.
func (a Admin) BanUser(ctx context.Context, userID string, b admin.Ban) error {
	s := a.store
	var expires *time.Time
	if !b.Expires.IsZero() {
		e := stored.Time(b.Expires)
		expires = &e
	}
	show := 0
	if b.ShowReason {
		show = 1
	}
	return a.upsert(ctx, "ban user",
		"banned_at, ban_reason, ban_show_reason, ban_expires, banned_by, revoked_before",
		`banned_at = excluded.banned_at, ban_reason = excluded.ban_reason, ban_show_reason = excluded.ban_show_reason,
		ban_expires = excluded.ban_expires, banned_by = excluded.banned_by, `+later,
		userID, s.TimeArg(stored.Time(b.At)), b.Reason, show, s.NullTimeArg(expires), b.By, s.TimeArg(admin.RevocationTime(b.At)))
}

// UnbanUser removes the user's ban.
func (a Admin) UnbanUser(ctx context.Context, userID string) error {
	s := a.store
	_, err := s.DB.Exec(ctx, `UPDATE gatehouse_admin SET banned_at = NULL, ban_reason = '', ban_show_reason = 0,
		ban_expires = NULL, banned_by = '' WHERE user_id = $1`, userID)
	if err != nil {
		return s.Error("unban user", err)
	}
	return nil
}

// RevokeSessions moves the user's RevokedBefore forward to at.
func (a Admin) RevokeSessions(ctx context.Context, userID string, at time.Time) error {
	return a.upsert(ctx, "revoke sessions", "revoked_before", later,
		userID, a.store.TimeArg(admin.RevocationTime(at)))
}

// PurgeUser deletes, in one transaction, the verification tokens of the
// user's address (which no foreign key ties to the user), then the user
// with everything the adapter's deleteUser deletes.
func (a Admin) PurgeUser(ctx context.Context, userID string) error {
	return a.store.InTx(ctx, func(tx Querier) error { return a.purge(ctx, tx, userID) })
}

// PurgeUnlessLastOwner is PurgeUser, refused with
// organization.ErrLastOwner, in the same transaction, when the user is
// the only owner of an organization (admin.OwnerKeeper).
func (a Admin) PurgeUnlessLastOwner(ctx context.Context, userID string) error {
	return a.store.InTx(ctx, func(tx Querier) error {
		if err := a.store.keepOwners(ctx, tx, userID); err != nil {
			return err
		}
		return a.purge(ctx, tx, userID)
	})
}

// purge is PurgeUser in tx.
func (a Admin) purge(ctx context.Context, tx Querier, userID string) error {
	_, err := tx.Exec(ctx, `DELETE FROM gatehouse_verification_tokens
		WHERE identifier = (SELECT email FROM gatehouse_users WHERE id = $1)`, userID)
	if err != nil {
		return a.store.Error("delete user's verification tokens", err)
	}
	return a.deleteUser(ctx, tx, userID)
}
