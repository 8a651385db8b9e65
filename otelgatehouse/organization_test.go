package otelgatehouse_test

import (
	"context"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/otelgatehouse"
)

// Organization changes are counted by kind, and the application's own
// Event still runs.
func TestOrganizationChanges(t *testing.T) {
	tm := newTelemetry(t)
	own := 0
	ev := otelgatehouse.Instrument(gatehouse.Config{Events: gatehouse.Events{
		Organization: func(context.Context, organization.Change) { own++ },
	}}, tm.opts...).Events
	ev.Organization(context.Background(), organization.Change{Kind: organization.Invited, OrganizationID: "o1", Email: "eve@example.com"})
	ev.Organization(context.Background(), organization.Change{Kind: organization.Invited, OrganizationID: "o2"})
	ev.Organization(context.Background(), organization.Change{Kind: organization.RoleChanged, OrganizationID: "o1"})
	equalCounts(t, "gatehouse.organization_changes", tm.counts(t, "gatehouse.organization_changes"),
		map[string]int64{"kind=invitation.sent": 2, "kind=member.role_changed": 1})
	if own != 3 {
		t.Errorf("the application's own Event ran %d times, want 3", own)
	}
	otelgatehouse.Instrument(gatehouse.Config{}, tm.opts...).Events.Organization(context.Background(), organization.Change{Kind: organization.Created})
}
