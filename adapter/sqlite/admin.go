package sqlite

import (
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
)

var _ admin.Store = (*Adapter)(nil)

// adminStore is the adapter's admin.Store (sqlstore.Admin, which runs the
// statements the adapter shares with the PostgreSQL one): PurgeUser
// deletes with deleteUser, row by row, as foreign keys may be off.
type adminStore = sqlstore.Admin
