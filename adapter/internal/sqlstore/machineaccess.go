package sqlstore

import (
	"context"
	"strings"
	"time"

	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// API keys (apikey.Store) and signing keys (servicetoken.KeyStore), the
// same statements on SQLite and PostgreSQL. A key's permissions are
// stored space-separated; its secret never, only its SHA-256.

// MachineAccess runs them on a Store. The adapters embed it (through an
// unexported alias), which gives them these methods and no others.
type MachineAccess struct{ S Store }

// APIKeyColumns are the columns of gatehouse_api_keys that ScanAPIKey
// reads, qualified with the alias k.
const APIKeyColumns = `k.id, k.name, k.user_id, k.organization_id, k.permissions, k.hash, k.previous_hash,
	k.previous_until, k.expires, k.created_at, k.last_used_at, k.revoked_at`

// ScanAPIKey reads the APIKeyColumns of row.
func (d Dialect) ScanAPIKey(row Row, what string) (apikey.Key, error) {
	var (
		k                                      apikey.Key
		perms                                  string
		previous, expires, lastUsed, revokedAt *time.Time
	)
	err := row.Scan(&k.ID, &k.Name, &k.UserID, &k.OrganizationID, &perms, &k.Hash, &k.PreviousHash,
		d.NullTime(&previous), d.NullTime(&expires), d.Time(&k.CreatedAt), d.NullTime(&lastUsed), d.NullTime(&revokedAt))
	if err != nil {
		return apikey.Key{}, d.Error(what, err)
	}
	if perms != "" {
		if k.Permissions, err = permission.NewSet(strings.Fields(perms)...); err != nil {
			return apikey.Key{}, d.Error(what, err)
		}
	}
	k.CreatedAt = k.CreatedAt.UTC()
	for _, t := range [...]struct{ dst, src *time.Time }{
		{&k.PreviousUntil, previous}, {&k.Expires, expires}, {&k.LastUsedAt, lastUsed}, {&k.RevokedAt, revokedAt},
	} {
		if t.src != nil {
			*t.dst = t.src.UTC()
		}
	}
	return k, nil
}

// CreateAPIKey stores k unless its user holds max live keys already
// (apikey.ErrTooManyKeys); ErrNotFound when the user does not exist.
// The count and the insert run in one transaction that first writes
// the user's row, which locks it until the transaction ends: on
// PostgreSQL a row lock, which a second creation for the same user waits
// for and then counts with a fresh snapshot (READ COMMITTED takes one per
// statement), so it sees the first one's key; on SQLite the database's
// write lock, which BEGIN IMMEDIATE took already. So no two instances
// both pass the count with one place left.
func (m MachineAccess) CreateAPIKey(ctx context.Context, k apikey.Key, max int) error {
	s := m.S
	return s.InTx(ctx, func(tx Querier) error {
		if err := s.lockRow(ctx, tx, "create API key: lock user", `UPDATE gatehouse_users SET name = name WHERE id = $1`, k.UserID); err != nil {
			return err
		}
		if max > 0 {
			var live int
			err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM gatehouse_api_keys
				WHERE user_id = $1 AND revoked_at IS NULL AND (expires IS NULL OR expires > $2)`,
				k.UserID, s.TimeArg(k.CreatedAt)).Scan(&live)
			if err != nil {
				return s.Error("create API key: count", err)
			}
			if live >= max {
				return apikey.ErrTooManyKeys
			}
		}
		n, err := tx.Exec(ctx, `INSERT INTO gatehouse_api_keys (id, name, user_id, organization_id, permissions, hash,
				previous_hash, previous_until, expires, created_at, last_used_at, revoked_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			k.ID, k.Name, k.UserID, k.OrganizationID, strings.Join(k.Permissions.Strings(), " "), k.Hash,
			k.PreviousHash, s.NullTimeArg(optional(k.PreviousUntil)), s.NullTimeArg(optional(k.Expires)), s.TimeArg(k.CreatedAt),
			s.NullTimeArg(optional(k.LastUsedAt)), s.NullTimeArg(optional(k.RevokedAt)))
		return s.OneRow(n, err, "create API key")
	})
}

// APIKey returns the key with the id while its user exists: one query,
// joined with the user.
func (m MachineAccess) APIKey(ctx context.Context, id string) (apikey.Key, error) {
	return m.S.ScanAPIKey(m.S.DB.QueryRow(ctx, `SELECT `+APIKeyColumns+` FROM gatehouse_api_keys k
		JOIN gatehouse_users u ON u.id = k.user_id WHERE k.id = $1`, id), "get API key")
}

// ListAPIKeys returns the user's keys, newest first.
func (m MachineAccess) ListAPIKeys(ctx context.Context, userID string) ([]apikey.Key, error) {
	rows, err := m.S.DB.Query(ctx, `SELECT `+APIKeyColumns+` FROM gatehouse_api_keys k
		WHERE k.user_id = $1 ORDER BY k.created_at DESC, k.id`, userID)
	if err != nil {
		return nil, m.S.Error("list API keys", err)
	}
	defer rows.Close()
	out := []apikey.Key{}
	for rows.Next() {
		k, err := m.S.ScanAPIKey(rows, "list API keys")
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, m.S.Error("list API keys", err)
	}
	return out, nil
}

// RevokeAPIKey marks the user's live key revoked.
func (m MachineAccess) RevokeAPIKey(ctx context.Context, userID, id string, at time.Time) error {
	n, err := m.S.DB.Exec(ctx, `UPDATE gatehouse_api_keys SET revoked_at = $3
		WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL`, id, userID, m.S.TimeArg(at))
	return m.S.OneRow(n, err, "revoke API key")
}

// RotateAPIKey gives the user's live key the hash, keeping the old one
// until previousUntil when that is in the future. (The right-hand sides
// of SET read the row as it was, on both databases.)
func (m MachineAccess) RotateAPIKey(ctx context.Context, userID, id, hash string, previousUntil time.Time) error {
	now := time.Now()
	keep := previousUntil.After(now)
	// Live: neither revoked nor expired. A new secret for an expired key
	// would be shown once and never work.
	n, err := m.S.DB.Exec(ctx, `UPDATE gatehouse_api_keys
		SET previous_hash = CASE WHEN $5 THEN hash ELSE '' END, previous_until = $4, hash = $3
		WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND (expires IS NULL OR expires > $6)`,
		id, userID, hash, m.S.NullTimeArg(optionalIf(keep, previousUntil)), keep, m.S.TimeArg(now))
	return m.S.OneRow(n, err, "rotate API key")
}

func optionalIf(ok bool, t time.Time) *time.Time {
	if !ok {
		return nil
	}
	return &t
}

// TouchAPIKey records a use, at most once per apikey.TouchInterval: the
// condition is in the UPDATE, so instances racing write once.
func (m MachineAccess) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	_, err := m.S.DB.Exec(ctx, `UPDATE gatehouse_api_keys SET last_used_at = $2
		WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
		id, m.S.TimeArg(at), m.S.TimeArg(at.Add(-apikey.TouchInterval)))
	if err != nil {
		return m.S.Error("touch API key", err)
	}
	return nil
}

// SigningKeys returns the signing keys by generation.
func (m MachineAccess) SigningKeys(ctx context.Context) ([]servicetoken.SigningKey, error) {
	rows, err := m.S.DB.Query(ctx, `SELECT generation, kid, algorithm, sealed, public_jwk, not_before, created_at
		FROM gatehouse_signing_keys ORDER BY generation`)
	if err != nil {
		return nil, m.S.Error("list signing keys", err)
	}
	defer rows.Close()
	out := []servicetoken.SigningKey{}
	for rows.Next() {
		var k servicetoken.SigningKey
		if err := rows.Scan(&k.Generation, &k.ID, &k.Algorithm, &k.Sealed, &k.Public, m.S.Time(&k.NotBefore), m.S.Time(&k.CreatedAt)); err != nil {
			return nil, m.S.Error("list signing keys", err)
		}
		k.NotBefore, k.CreatedAt = k.NotBefore.UTC(), k.CreatedAt.UTC()
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, m.S.Error("list signing keys", err)
	}
	return out, nil
}

// AddSigningKey stores k unless its generation exists: the primary key
// makes one of two concurrent inserts of a generation a no-op.
func (m MachineAccess) AddSigningKey(ctx context.Context, k servicetoken.SigningKey) (bool, error) {
	n, err := m.S.DB.Exec(ctx, `INSERT INTO gatehouse_signing_keys (generation, kid, algorithm, sealed, public_jwk, not_before, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (generation) DO NOTHING`,
		k.Generation, k.ID, k.Algorithm, k.Sealed, k.Public, m.S.TimeArg(k.NotBefore), m.S.TimeArg(k.CreatedAt))
	if err != nil {
		return false, m.S.Error("add signing key", err)
	}
	return n == 1, nil
}

// DeleteSigningKeys removes the generations below below.
func (m MachineAccess) DeleteSigningKeys(ctx context.Context, below int64) error {
	if _, err := m.S.DB.Exec(ctx, `DELETE FROM gatehouse_signing_keys WHERE generation < $1`, below); err != nil {
		return m.S.Error("delete signing keys", err)
	}
	return nil
}
