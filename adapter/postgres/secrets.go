package postgres

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	twofactor "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
)

// SetPasswordHash creates or replaces the user's password hash
// (adapter.PasswordStore); ErrNotFound when the user does not exist (the
// foreign key refuses it).
func (a *Adapter) SetPasswordHash(ctx context.Context, userID, hash string) error {
	_, err := a.pool.Exec(ctx, `INSERT INTO gatehouse_passwords (user_id, hash, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
		userID, hash, stored.Time(time.Now()))
	if err != nil {
		return dialect.Error("set password", err)
	}
	return nil
}

// SetTwoFactor creates or replaces the user's two-factor secret, backup
// codes included, in one transaction (twofactor.Store); ErrNotFound when
// the user does not exist (the foreign key refuses it).
func (a *Adapter) SetTwoFactor(ctx context.Context, userID string, s twofactor.Secret) error {
	return a.store.InTx(ctx, func(tx sqlstore.Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO gatehouse_two_factor (user_id, sealed, enabled, last_step, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)
			ON CONFLICT (user_id) DO UPDATE SET sealed = excluded.sealed, enabled = excluded.enabled,
				last_step = excluded.last_step, updated_at = excluded.updated_at`,
			userID, s.Sealed, s.Enabled, s.LastStep, stored.Time(time.Now()))
		if err != nil {
			return dialect.Error("set two-factor secret", err)
		}
		return putBackupCodes(ctx, tx, userID, s.BackupCodes)
	})
}

// DeleteTwoFactor removes the user's two-factor secret; its backup codes
// go with it (ON DELETE CASCADE) (twofactor.Store).
func (a *Adapter) DeleteTwoFactor(ctx context.Context, userID string) error {
	if _, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_two_factor WHERE user_id = $1`, userID); err != nil {
		return dialect.Error("delete two-factor secret", err)
	}
	return nil
}

// putBackupCodes replaces the user's backup codes with hashes, keeping
// their order, in one INSERT of the array's elements. A hash given twice
// is stored once.
func putBackupCodes(ctx context.Context, tx sqlstore.Querier, userID string, hashes []string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes WHERE user_id = $1`, userID); err != nil {
		return dialect.Error("delete backup codes", err)
	}
	if len(hashes) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `INSERT INTO gatehouse_two_factor_backup_codes (user_id, hash, position)
		SELECT $1, h.hash, h.position FROM unnest($2::text[]) WITH ORDINALITY AS h (hash, position)
		ON CONFLICT DO NOTHING`, userID, hashes)
	if err != nil {
		return dialect.Error("insert backup codes", err)
	}
	return nil
}
