package sqlite

import (
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

var _ organization.Store = (*Adapter)(nil)

// organizations gives the Adapter the methods of organization.Store: the
// statements it shares with the other SQL adapter (sqlstore.Organizations).
type organizations = sqlstore.Organizations
