package otelgatehouse

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// wrapOrganization returns ev with Organization counting every change
// (gatehouse.organization_changes, by kind) before it calls ev's own.
// The organization, the users and the addresses are left out: they are
// unbounded, and an address is personal data.
func wrapOrganization(mp metric.MeterProvider, ev gatehouse.Events) gatehouse.Events {
	changes, err := mp.Meter(ScopeName).Int64Counter("gatehouse.organization_changes", metric.WithUnit("{change}"),
		metric.WithDescription("Changes made through the organization routes, by kind."))
	if err != nil {
		otel.Handle(err) // changes is still usable: a no-op
	}
	own := ev.Organization
	ev.Organization = func(ctx context.Context, c organization.Change) {
		changes.Add(ctx, 1, metric.WithAttributes(attribute.String("kind", string(c.Kind))))
		if own != nil {
			own(ctx, c)
		}
	}
	return ev
}
