package otelgatehouse

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gatehouse-auth/gatehouse"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
)

// instrumentClient returns a copy of given (or of
// gatehouse.DefaultHTTPClient when given is nil) whose transport is otelhttp's,
// between hideQuery and restoreURL so that otelhttp never sees the query.
func instrumentClient(given *http.Client, o options) *http.Client {
	var c http.Client
	if given != nil {
		c = *given
	} else {
		c = *gatehouse.DefaultHTTPClient(0) // the library's own bounds
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	otelOpts := []otelhttp.Option{
		otelhttp.WithMeterProvider(o.meters),
		otelhttp.WithPropagators(o.propagators),
		otelhttp.WithSpanNameFormatter(spanName),
	}
	if o.tracers != nil {
		otelOpts = append(otelOpts, otelhttp.WithTracerProvider(o.tracers))
	}
	c.Transport = hideQuery{otelhttp.NewTransport(restoreURL{base}, otelOpts...)}
	return &c
}

// spanName names the span of a call to a provider by its method, host and
// path, e.g. "gatehouse GET accounts.example.com/.well-known/openid-configuration".
// otelhttp calls it with the request hideQuery made: without a query.
func spanName(_ string, r *http.Request) string {
	return "gatehouse " + r.Method + " " + r.URL.Host + r.URL.Path
}

// originalURL is the context key under which hideQuery leaves the URL it
// hid from otelhttp, for restoreURL.
type originalURL struct{}

// hideQuery sends the request on with a URL without query, fragment or
// user info (otelhttp records the URL as url.full; the query may hold a
// token, e.g. access_token=), and the whole URL in the context.
type hideQuery struct{ next http.RoundTripper }

func (t hideQuery) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.RawQuery == "" && !r.URL.ForceQuery && r.URL.Fragment == "" && r.URL.User == nil {
		return t.next.RoundTrip(r)
	}
	shown := *r.URL
	shown.RawQuery, shown.ForceQuery, shown.Fragment, shown.RawFragment, shown.User = "", false, "", "", nil
	hidden := r.WithContext(context.WithValue(r.Context(), originalURL{}, r.URL))
	hidden.URL = &shown
	return t.next.RoundTrip(hidden)
}

// restoreURL puts back the URL hideQuery hid, under otelhttp, before the
// request goes out.
type restoreURL struct{ next http.RoundTripper }

func (t restoreURL) RoundTrip(r *http.Request) (*http.Response, error) {
	if u, ok := r.Context().Value(originalURL{}).(*url.URL); ok {
		r = r.WithContext(r.Context())
		r.URL = u
	}
	return t.next.RoundTrip(r)
}
