package sqlite

import (
	"context"
	"database/sql"
	"time"

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
	err := a.db.QueryRowContext(ctx, `SELECT hash FROM gatehouse_passwords WHERE user_id = ?`, userID).Scan(&hash)
	if err != nil {
		return "", dialect.Error("get password", err)
	}
	return hash, nil
}

// SetPasswordHash creates or replaces the user's password hash
// (adapter.PasswordStore); ErrNotFound when the user does not exist. The
// user is looked for in the statement, not left to the foreign key, which
// a database opened by New may not enforce.
func (a *Adapter) SetPasswordHash(ctx context.Context, userID, hash string) error {
	// The WHERE clause also keeps SQLite from reading ON CONFLICT as a
	// join constraint of the SELECT (SQLite, "The UPSERT clause", §2.2).
	res, err := a.db.ExecContext(ctx, `INSERT INTO gatehouse_passwords (user_id, hash, updated_at)
		SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?1)
		ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
		userID, hash, stored.Time(time.Now()).UnixMicro())
	if err != nil {
		return dialect.Error("set password", err)
	}
	return oneRow(res, "set password: user")
}

// DeletePasswordHash removes the user's password hash
// (adapter.PasswordStore).
func (a *Adapter) DeletePasswordHash(ctx context.Context, userID string) error {
	if _, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_passwords WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete password", err)
	}
	return nil
}

// TwoFactor returns the user's two-factor secret with its backup codes, in
// one query (twofactor.Store).
func (a *Adapter) TwoFactor(ctx context.Context, userID string) (twofactor.Secret, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT `+sqlstore.TwoFactorColumns+`
		FROM gatehouse_two_factor t LEFT JOIN gatehouse_two_factor_backup_codes c ON c.user_id = t.user_id
		WHERE t.user_id = ? ORDER BY c.position`, userID)
	if err != nil {
		return twofactor.Secret{}, dialect.Error("get two-factor secret", err)
	}
	defer rows.Close()
	return dialect.ScanTwoFactor(rows, userID)
}

// SetTwoFactor creates or replaces the user's two-factor secret, backup
// codes included, in one transaction (twofactor.Store); ErrNotFound when
// the user does not exist.
func (a *Adapter) SetTwoFactor(ctx context.Context, userID string, s twofactor.Secret) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return dialect.Error("begin", err)
	}
	defer tx.Rollback()
	now := stored.Time(time.Now()).UnixMicro()
	res, err := tx.ExecContext(ctx, `INSERT INTO gatehouse_two_factor (user_id, sealed, enabled, last_step, created_at, updated_at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE EXISTS (SELECT 1 FROM gatehouse_users WHERE id = ?1)
		ON CONFLICT (user_id) DO UPDATE SET sealed = excluded.sealed, enabled = excluded.enabled,
			last_step = excluded.last_step, updated_at = excluded.updated_at`,
		userID, s.Sealed, s.Enabled, s.LastStep, now)
	if err != nil {
		return dialect.Error("set two-factor secret", err)
	}
	if err := oneRow(res, "set two-factor secret: user"); err != nil {
		return err
	}
	if err := putBackupCodes(ctx, tx, userID, s.BackupCodes); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return dialect.Error("commit", err)
	}
	return nil
}

// DeleteTwoFactor removes the user's two-factor secret and backup codes
// (twofactor.Store).
func (a *Adapter) DeleteTwoFactor(ctx context.Context, userID string) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return dialect.Error("begin", err)
	}
	defer tx.Rollback()
	if err := deleteTwoFactor(ctx, tx, userID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return dialect.Error("commit", err)
	}
	return nil
}

// deleteTwoFactor deletes the user's backup codes and secret: the codes
// explicitly, since a database opened by New may not cascade.
func deleteTwoFactor(ctx context.Context, tx *sql.Tx, userID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_two_factor_backup_codes WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete backup codes", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_two_factor WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete two-factor secret", err)
	}
	return nil
}

// AdvanceTOTPStep moves the user's last accepted TOTP step forward to
// step, in one conditional UPDATE, so that of two requests with the same
// code only one succeeds (RFC 6238 §5.2); twofactor.ErrReplayed when the
// step is not past the last (twofactor.Store).
func (a *Adapter) AdvanceTOTPStep(ctx context.Context, userID string, step int64) error {
	res, err := a.db.ExecContext(ctx, `UPDATE gatehouse_two_factor SET last_step = ?2
		WHERE user_id = ?1 AND last_step < ?2`, userID, step)
	if n, err := rowsAffected(res, err, "advance TOTP step"); err != nil || n == 1 {
		return err
	}
	return dialect.Unchanged("TOTP step", userID, a.enrolled(ctx, userID), twofactor.ErrReplayed)
}

// ReplaceBackupCodes replaces the user's backup code hashes in one
// transaction (twofactor.Store).
func (a *Adapter) ReplaceBackupCodes(ctx context.Context, userID string, hashes []string) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return dialect.Error("begin", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE gatehouse_two_factor SET updated_at = ? WHERE user_id = ?`,
		stored.Time(time.Now()).UnixMicro(), userID)
	if n, err := rowsAffected(res, err, "replace backup codes"); err != nil {
		return err
	} else if n == 0 {
		return dialect.NotEnrolled(userID)
	}
	if err := putBackupCodes(ctx, tx, userID, hashes); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return dialect.Error("commit", err)
	}
	return nil
}

// ConsumeBackupCode removes hash from the user's backup codes in one
// DELETE, whose row count says whether it was there: of two requests with
// the same code only one succeeds (twofactor.Store).
func (a *Adapter) ConsumeBackupCode(ctx context.Context, userID, hash string) error {
	res, err := a.db.ExecContext(ctx, `DELETE FROM gatehouse_two_factor_backup_codes
		WHERE user_id = ? AND hash = ?`, userID, hash)
	if n, err := rowsAffected(res, err, "consume backup code"); err != nil || n == 1 {
		return err
	}
	return dialect.Unchanged("backup code", userID, a.enrolled(ctx, userID), twofactor.ErrInvalidCode)
}

// enrolled returns a function that reports whether the user has a
// two-factor secret.
func (a *Adapter) enrolled(ctx context.Context, userID string) func() (bool, error) {
	return func() (bool, error) {
		var ok bool
		err := a.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM gatehouse_two_factor WHERE user_id = ?)`, userID).Scan(&ok)
		return ok, err
	}
}

// putBackupCodes replaces the user's backup codes with hashes, keeping
// their order. A hash given twice is stored once.
func putBackupCodes(ctx context.Context, tx *sql.Tx, userID string, hashes []string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM gatehouse_two_factor_backup_codes WHERE user_id = ?`, userID); err != nil {
		return dialect.Error("delete backup codes", err)
	}
	if len(hashes) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO gatehouse_two_factor_backup_codes (user_id, hash, position)
		VALUES (?, ?, ?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return dialect.Error("insert backup codes", err)
	}
	defer stmt.Close()
	for i, h := range hashes {
		if _, err := stmt.ExecContext(ctx, userID, h, i); err != nil {
			return dialect.Error("insert backup codes", err)
		}
	}
	return nil
}
