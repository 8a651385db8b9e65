package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

var (
	_ adapter.PasswordStore = (*Adapter)(nil)
	_ twofactor.Store       = (*Adapter)(nil)
)

// PasswordHash returns the user's password hash (adapter.PasswordStore).
func (a *Adapter) PasswordHash(ctx context.Context, userID string) (string, error) {
	var hash string
	err := a.pool.QueryRow(ctx, `SELECT hash FROM gatehouse_passwords WHERE user_id = $1`, userID).Scan(&hash)
	if err != nil {
		return "", dialect.Error("get password", err)
	}
	return hash, nil
}

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

// DeletePasswordHash removes the user's password hash
// (adapter.PasswordStore).
func (a *Adapter) DeletePasswordHash(ctx context.Context, userID string) error {
	if _, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = $1`, userID); err != nil {
		return dialect.Error("delete password", err)
	}
	return nil
}

// TwoFactor returns the user's two-factor secret with its backup codes, in
// one query (twofactor.Store).
func (a *Adapter) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	rows, err := a.pool.Query(ctx, `SELECT `+sqlstore.TwoFactorColumns+`
		FROM gatehouse_two_factor t LEFT JOIN gatehouse_two_factor_backup_codes c ON c.user_id = t.user_id
		WHERE t.user_id = $1 ORDER BY c.position`, userID)
	if err != nil {
		return twofactor.Secret{}, dialect.Error("get two-factor secret", err)
	}
	defer rows.Close()
	return dialect.ScanTwoFactor(rows, userID)
}

// SetTwoFactor creates or replaces the user's two-factor secret, backup
// codes included, in one transaction (twofactor.Store); ErrNotFound when
// the user does not exist (the foreign key refuses it).
func (a *Adapter) SetTwoFactor(ctx context.Context, userID string, s twofactor.Secret) error {
	return pgx.BeginFunc(ctx, a.pool, func(tx pgx.Tx) error {
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

// AdvanceTOTPStep moves the user's last accepted TOTP step forward to
// step, in one conditional UPDATE, so that of two requests with the same
// code only one succeeds (RFC 6238 §5.2); twofactor.ErrReplayed when the
// step is not past the last (twofactor.Store). A concurrent UPDATE of the
// row waits for this one and, under READ COMMITTED, re-checks the
// condition on the row as it committed.
func (a *Adapter) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	tag, err := a.pool.Exec(ctx, `UPDATE gatehouse_two_factor SET last_step = $2
		WHERE user_id = $1 AND last_step < $2`, userID, step)
	if err != nil {
		return dialect.Error("advance TOTP step", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	return dialect.Unchanged("TOTP step", userID, a.enrolled(ctx, userID), twofactor.ErrReplayed)
}

// ReplaceBackupCodes replaces the user's backup code hashes in one
// transaction, holding the lock of the user's secret (twofactor.Store).
func (a *Adapter) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error {
	return pgx.BeginFunc(ctx, a.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE gatehouse_two_factor SET updated_at = $2 WHERE user_id = $1`,
			userID, stored.Time(time.Now()))
		if err != nil {
			return dialect.Error("replace backup codes", err)
		}
		if tag.RowsAffected() == 0 {
			return dialect.NotEnrolled(userID)
		}
		return putBackupCodes(ctx, tx, userID, hashes)
	})
}

// ConsumeBackupCode removes hash from the user's backup codes in one
// DELETE, whose row count says whether it was there: of two requests with
// the same code only one succeeds (twofactor.Store).
func (a *Adapter) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	tag, err := a.pool.Exec(ctx, `DELETE FROM gatehouse_two_factor_backup_codes
		WHERE user_id = $1 AND hash = $2`, userID, hash)
	if err != nil {
		return dialect.Error("consume backup code", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	return dialect.Unchanged("backup code", userID, a.enrolled(ctx, userID), twofactor.ErrInvalidCode)
}

// enrolled returns a function that reports whether the user has a
// two-factor secret.
func (a *Adapter) enrolled(ctx context.Context, userID string) func() (bool, error) {
	return func() (bool, error) {
		var ok bool
		err := a.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM gatehouse_two_factor WHERE user_id = $1)`, userID).Scan(&ok)
		return ok, err
	}
}

// putBackupCodes replaces the user's backup codes with hashes, keeping
// their order, in one INSERT of the array's elements. A hash given twice
// is stored once.
func putBackupCodes(ctx context.Context, tx pgx.Tx, userID string, hashes []string) error {
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
