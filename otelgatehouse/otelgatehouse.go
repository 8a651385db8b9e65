// Package otelgatehouse reports a Gatehouse handler to OpenTelemetry:
// counters for sign-ins, failures by error code, refresh grants and
// rate-limit refusals, and a span (and otelhttp's client metrics) for
// every call to a provider.
//
// It is its own module, so that an application that does not use
// OpenTelemetry does not depend on it. Instrument takes the Config given
// to gatehouse.New and returns it instrumented:
//
//	auth, err := gatehouse.New(otelgatehouse.Instrument(cfg))
//
// The counters, all with the instrumentation scope ScopeName:
//
//   - gatehouse.signins: every sign-in (Events.SignIn), by provider and
//     new_user (true or false).
//   - gatehouse.failures: every failure the handler reports
//     (Events.Failure; a summary report adds its Repeats), by type (the
//     ?error= value, e.g. MissingCSRF), code (the short stable code, e.g.
//     csrf) and provider.
//   - gatehouse.refreshes: every refresh grant sent to a provider
//     (Events.Refresh), by provider and outcome (ok or error).
//   - gatehouse.rate_limited: every attempt refused by the rate limit, by
//     provider. These are counted in gatehouse.failures too, as type
//     TooManyRequests.
//   - gatehouse.organization_changes: every change made through the
//     organization routes (Events.Organization), by kind.
//   - gatehouse.api_keys: API keys made, rotated and revoked
//     (Events.APIKey), by change.
//   - gatehouse.admin_actions: every administrator action (Events.Admin:
//     bans, role changes, deletions, impersonations), by action. Who did
//     it to whom is for the audit log, not for a metric.
//
// The spans carry no secret: the URL's query is left out of the span (its
// name and url.full) and Authorization headers are never recorded.
package otelgatehouse

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// ScopeName is the instrumentation scope of the counters and spans.
const ScopeName = "github.com/gatehouse-auth/gatehouse/otelgatehouse"

// An Option changes what Instrument reports to.
type Option func(*options)

type options struct {
	meters      metric.MeterProvider
	tracers     trace.TracerProvider
	propagators propagation.TextMapPropagator
}

// WithMeterProvider sets where the counters (and otelhttp's client
// metrics) go. Default: otel.GetMeterProvider().
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(o *options) { o.meters = mp }
}

// WithTracerProvider sets where the spans of the calls to providers go.
// Default: the provider of the span in the request's context, or else
// otel.GetTracerProvider().
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) { o.tracers = tp }
}

// WithPropagators makes the calls to providers carry the trace context in
// their headers (e.g. propagation.TraceContext{} for a provider of one's
// own that is traced too). Default: none, as providers are usually third
// parties.
func WithPropagators(p propagation.TextMapPropagator) Option {
	return func(o *options) { o.propagators = p }
}

// Instrument returns cfg with its Events and HTTPClient instrumented.
//
// The Events SignIn, Failure, Refresh, APIKey, Admin and Organization count, then call cfg's own
// (which are kept, never replaced); the other Events are cfg's.
//
// The HTTPClient is a copy of cfg.HTTPClient (its Timeout, CheckRedirect
// and Jar kept) whose transport makes a span for every call to a
// provider. When cfg.HTTPClient is nil, Instrument starts from the
// library's own default, gatehouse.DefaultHTTPClient: a timeout of 10
// seconds (ProviderTimeout still replaces it), no redirects followed,
// answers bounded at providers.MaxResponseBytes.
func Instrument(cfg gatehouse.Config, opts ...Option) gatehouse.Config {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.meters == nil {
		o.meters = otel.GetMeterProvider()
	}
	if o.propagators == nil {
		o.propagators = propagation.NewCompositeTextMapPropagator()
	}
	cfg.Events = newCounters(o.meters).wrap(cfg.Events)
	cfg.Events = wrapOrganization(o.meters, cfg.Events) // organization.go
	cfg.HTTPClient = instrumentClient(cfg.HTTPClient, o)
	return cfg
}

// counters are the counters Instrument adds (organization.go adds one more).
type counters struct {
	signIns, failures, refreshes, rateLimited, apiKeys, adminActions metric.Int64Counter
}

func newCounters(mp metric.MeterProvider) *counters {
	meter := mp.Meter(ScopeName)
	counter := func(name, unit, description string) metric.Int64Counter {
		c, err := meter.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(description))
		if err != nil {
			otel.Handle(err) // c is still usable: a no-op
		}
		return c
	}
	return &counters{
		signIns:      counter("gatehouse.signins", "{signin}", "Sign-ins, by provider and new_user."),
		failures:     counter("gatehouse.failures", "{failure}", "Failures reported by the handler, by type, code and provider."),
		refreshes:    counter("gatehouse.refreshes", "{refresh}", "Refresh grants sent to providers, by provider and outcome (ok or error)."),
		rateLimited:  counter("gatehouse.rate_limited", "{attempt}", "Attempts refused by the rate limit, by provider."),
		apiKeys:      counter("gatehouse.api_keys", "{key}", "API keys made, rotated and revoked, by change."),
		adminActions: counter("gatehouse.admin_actions", "{action}", "Administrator actions, by action."),
	}
}

// wrap returns ev with SignIn, Failure, Refresh, APIKey and Admin counting
// before they call ev's own.
func (c *counters) wrap(ev gatehouse.Events) gatehouse.Events {
	signIn, failure, refresh, apiKey := ev.SignIn, ev.Failure, ev.Refresh, ev.APIKey
	ev.SignIn = func(ctx context.Context, user profile.User, acct *account.Account, isNewUser bool) {
		c.signIn(ctx, acct, isNewUser)
		if signIn != nil {
			signIn(ctx, user, acct, isNewUser)
		}
	}
	ev.Failure = func(ctx context.Context, err *gatehouse.Error) {
		c.failure(ctx, err)
		if failure != nil {
			failure(ctx, err)
		}
	}
	ev.Refresh = func(ctx context.Context, provider string, err error) {
		c.refresh(ctx, provider, err)
		if refresh != nil {
			refresh(ctx, provider, err)
		}
	}
	ev.APIKey = func(ctx context.Context, e apikey.Event) {
		c.apiKeys.Add(ctx, 1, metric.WithAttributes(attribute.String("change", string(e.Change))))
		if apiKey != nil {
			apiKey(ctx, e)
		}
	}
	adminEvent := ev.Admin
	ev.Admin = func(ctx context.Context, e admin.Event) {
		c.adminActions.Add(ctx, 1, metric.WithAttributes(attribute.String("action", string(e.Action))))
		if adminEvent != nil {
			adminEvent(ctx, e)
		}
	}
	return ev
}

func (c *counters) signIn(ctx context.Context, acct *account.Account, isNewUser bool) {
	var provider string
	if acct != nil {
		provider = acct.Provider
	}
	c.signIns.Add(ctx, 1, metric.WithAttributes(
		attribute.String("provider", provider),
		attribute.Bool("new_user", isNewUser)))
}

func (c *counters) failure(ctx context.Context, err *gatehouse.Error) {
	if err == nil {
		return
	}
	// A summary report stands for Repeats failures (gatehouse.Error).
	n := int64(max(1, err.Repeats))
	provider := attribute.String("provider", err.Provider)
	c.failures.Add(ctx, n, metric.WithAttributes(
		attribute.String("type", string(err.Type)),
		attribute.String("code", codeAttribute(err)),
		provider))
	if err.Type == gatehouse.TooManyRequests {
		c.rateLimited.Add(ctx, n, metric.WithAttributes(provider))
	}
}

func (c *counters) refresh(ctx context.Context, provider string, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	c.refreshes.Add(ctx, 1, metric.WithAttributes(
		attribute.String("provider", provider),
		attribute.String("outcome", outcome)))
}

// codeAttribute is err.Code as a metric attribute, with its two
// unbounded forms made bounded:
//   - a rate-limit refusal's code is retry_after_<seconds>: "retry_after";
//   - the error code a provider sends back to the callback (step
//     "authorization") is any [a-z_]{1,64} that a browser puts in the
//     URL: the codes of RFC 6749 §4.1.2.1 and OpenID Connect Core
//     §3.1.2.6 are kept, others are "provider_error".
func codeAttribute(err *gatehouse.Error) string {
	switch {
	case err.Type == gatehouse.TooManyRequests:
		return "retry_after"
	case err.Type == gatehouse.OAuthCallbackError && err.Step == "authorization" && !registeredCode(err.Code):
		return "provider_error"
	}
	return err.Code
}

// registeredCode tells whether code is a registered error code of an
// authorization response (RFC 6749 §4.1.2.1, OpenID Connect Core
// §3.1.2.6).
func registeredCode(code string) bool {
	switch code {
	case "invalid_request", "unauthorized_client", "access_denied",
		"unsupported_response_type", "invalid_scope", "server_error",
		"temporarily_unavailable", "interaction_required", "login_required",
		"account_selection_required", "consent_required", "invalid_request_uri",
		"invalid_request_object", "request_not_supported",
		"request_uri_not_supported", "registration_not_supported":
		return true
	}
	return false
}
