package postgres

import (
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	apikey "github.com/gatehouse-auth/gatehouse/internal/keycore"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// machineAccess gives the Adapter the methods of apikey.Store and
// servicetoken.KeyStore: the statements shared with the SQLite adapter
// (sqlstore/machineaccess.go).
type machineAccess = sqlstore.MachineAccess

var (
	_ apikey.Store          = (*Adapter)(nil)
	_ servicetoken.KeyStore = (*Adapter)(nil)
)
