package postgres

import (
	"context"

	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
)

// deleteUser deletes the user in tx; every other row of theirs goes with
// it (ON DELETE CASCADE, from every table that references
// gatehouse_users).
func deleteUser(ctx context.Context, tx sqlstore.Querier, id string) error {
	n, err := tx.Exec(ctx, `DELETE FROM gatehouse_users WHERE id = $1`, id)
	return dialect.OneRow(n, err, "delete user")
}
