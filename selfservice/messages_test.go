package selfservice_test

import (
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/flowtest"
	self "github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/selfservice"
)

// TestRoutesAddMessages: the self-service routes add the messages of the
// accounts and sessions pages when gatehouse.New asks for them.
func TestRoutesAddMessages(t *testing.T) {
	flowtest.AddsMessages(t, func() { selfservice.Routes{}.SelfServiceRoutes(&self.Routes{}) }, "accounts.title")
}
