package otelgatehouse

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// defaultTimeout is the library's default ProviderTimeout.
const defaultTimeout = 10 * time.Second

// instrumentClient returns a copy of given (or of a client like the
// library's default when given is nil) whose transport is otelhttp's,
// between hideQuery and restoreURL so that otelhttp never sees the query.
func instrumentClient(given *http.Client, o options) *http.Client {
	var c http.Client
	if given != nil {
		c = *given
	} else {
		c = http.Client{
			Timeout:       defaultTimeout,
			Transport:     boundedTransport{http.DefaultTransport},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
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

// boundedTransport fails an answer longer than providers.MaxResponseBytes,
// as the library's default client does.
type boundedTransport struct{ next http.RoundTripper }

func (t boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &boundedBody{ReadCloser: resp.Body, left: providers.MaxResponseBytes}
	return resp, nil
}

var errTooLarge = fmt.Errorf("provider answer larger than %d bytes", providers.MaxResponseBytes)

// boundedBody reads at most left bytes, then fails if there are more.
type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.ReadCloser.Read(one[:]); n > 0 {
			return 0, errTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
