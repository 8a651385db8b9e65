package sqlite

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
)

// SetPasswordHash creates or replaces the user's password hash
// (adapter.PasswordStore); ErrNotFound when the user does not exist. The
// user is looked for in the statement, not left to the foreign key, which
// a database opened by New may not enforce.
func (a *Adapter) SetPasswordHash(ctx context.Context, userID, hash string) error {
	// The WHERE clause also keeps SQLite from reading ON CONFLICT as a
	// join constraint of the SELECT (SQLite, "The UPSERT clause", §2.2).
	n, err := a.store.DB.Exec(ctx, `INSERT INTO gatehouse_passwords (user_id, hash, updated_at)
		SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?1)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
		userID, hash, stored.Time(time.Now()).UnixMicro())
	if err != nil {
		return dialect.Error("set password", err)
	}
	return dialect.OneRow(n, nil, "set password: user")
}

// SetTwoFactor creates or replaces the user's two-factor secret, backup
// codes included, in one transaction (twofactor.Store); ErrNotFound when
// the user does not exist.
func (a *Adapter) SetTwoFactor(ctx context.Context, userID string, s twofactor.Secret) error {
	return a.store.InTx(ctx, func(tx sqlstore.Querier) error {
		n, err := tx.Exec(ctx, `INSERT INTO gatehouse_two_factor (user_id, sealed, enabled, last_step, created_at, updated_at)
			SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?1)
			ON CONFLICT (user_id) DO UPDATE SET sealed = excluded.sealed, enabled = excluded.enabled,
				last_step = excluded.last_step, updated_at = excluded.updated_at`,
			userID, s.Sealed, s.Enabled, s.LastStep, stored.Time(time.Now()).UnixMicro())
		if err != nil {
			return dialect.Error("set two-factor secret", err)
		}
		if err := dialect.OneRow(n, nil, "set two-factor secret: user"); err != nil {
			return err
		}
		return putBackupCodes(ctx, tx, userID, s.BackupCodes)
	})
}

// DeleteTwoFactor removes the user's two-factor secret and backup codes
// (twofactor.Store).
func (a *Adapter) DeleteTwoFactor(ctx context.Context, userID string) error {
	return a.store.InTx(ctx, func(tx sqlstore.Querier) error {
		return deleteTwoFactor(ctx, tx, userID)
	})
}

// deleteTwoFactor deletes the user's backup codes and secret: the codes
// explicitly, since a database opened by New may not cascade.
func deleteTwoFactor(ctx context.Context, tx sqlstore.Querier, userID string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete backup codes", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_two_factor WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete two-factor secret", err)
	}
	return nil
}

// putBackupCodes replaces the user's backup codes with hashes, keeping
// their order, one INSERT a code. A hash given twice is stored once.
func putBackupCodes(ctx context.Context, tx sqlstore.Querier, userID string, hashes []string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete backup codes", err)
	}
	for i, h := range hashes {
		_, err := tx.Exec(ctx, `INSERT INTO gatehouse_two_factor_backup_codes (user_id, hash, position)
			VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, userID, h, i)
		if err != nil {
			return dialect.Error("insert backup codes", err)
		}
	}
	return nil
}
