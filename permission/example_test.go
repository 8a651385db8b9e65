package permission_test

import (
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/permission"
)

// An admin may hand an API key part of what they hold, never more.
func ExampleGrant() {
	admin := permission.MustSet("member:invite", "project:delete")
	err := permission.Grant(admin, permission.MustSet("project:delete", "billing:update"))
	fmt.Println(errors.Is(err, permission.ErrExceeds))
	fmt.Println(err)
	// Output:
	// true
	// permission: grants more than the granter holds: billing:update
}
