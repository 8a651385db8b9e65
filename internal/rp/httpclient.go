package rp

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// defaultProviderTimeout is Config.ProviderTimeout's default.
const defaultProviderTimeout = 10 * time.Second

// HTTPClient returns the client for calls to providers and the
// per-call timeout: the given client (a copy, with the timeout when one
// is configured) or the default one. http.Client.Timeout covers reading
// the body, so an answer trickled a byte at a time (slow loris) ends at
// the timeout like one that never starts.
func HTTPClient(given *http.Client, timeout time.Duration) (*http.Client, time.Duration) {
	if given == nil {
		if timeout <= 0 {
			timeout = defaultProviderTimeout
		}
		return defaultHTTPClient(timeout), timeout
	}
	c := *given
	switch {
	case timeout > 0:
		c.Timeout = timeout
	case c.Timeout > 0:
		timeout = c.Timeout
	default:
		// A client without a timeout would wait for ever on a provider
		// that never answers.
		timeout = defaultProviderTimeout
		c.Timeout = timeout
	}
	return &c, timeout
}

// defaultHTTPClient is used for every call to a provider when the Config
// gives none: go-oidc and x/oauth2 would otherwise use
// http.DefaultClient, which never times out.
func defaultHTTPClient(timeout time.Duration) *http.Client {
	t := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: limitTransport{t},
		// Provider endpoints answer directly; following redirects would
		// let a provider bounce our bearer-token requests elsewhere.
		CheckRedirect: noRedirect,
	}
}

// noRedirect makes a client return a redirect as the answer.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// limitTransport bounds every answer body at providers.MaxResponseBytes,
// so that go-oidc's and x/oauth2's reads are bounded too.
type limitTransport struct{ base http.RoundTripper }

func (t limitTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: providers.MaxResponseBytes}
	return resp, nil
}

var errBodyTooLarge = fmt.Errorf("provider answer larger than %d bytes", providers.MaxResponseBytes)

type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One more byte means the limit was passed: fail, do not truncate.
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, errBodyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
