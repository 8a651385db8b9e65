package bearer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// fetchTimeout bounds one request to the issuer. Fetches run detached from
// the request that prompted them, as other requests wait on their result.
const fetchTimeout = 10 * time.Second

// do sends req and returns the body of a 200 answer, refusing redirects
// (the client never follows them) and answers over MaxResponseBytes.
func (v *Verifier) do(req *http.Request) ([]byte, http.Header, error) {
	req.Header.Set("Accept", "application/json")
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("bearer: %w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("bearer: %w: %s answered %s", ErrUnavailable, req.URL.Redacted(), resp.Status)
	}
	max := v.cfg.MaxResponseBytes
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, nil, fmt.Errorf("bearer: %w: reading %s: %w", ErrUnavailable, req.URL.Redacted(), err)
	}
	if int64(len(body)) > max {
		return nil, nil, fmt.Errorf("bearer: %w: %w: %s sent over %d bytes", ErrUnavailable, ErrTooLarge, req.URL.Redacted(), max)
	}
	return body, resp.Header, nil
}

// get fetches url with a GET.
func (v *Verifier) get(ctx context.Context, url string) ([]byte, http.Header, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("bearer: %w: %w", ErrUnavailable, err)
	}
	return v.do(req)
}

// discovery holds the endpoints read from the issuer's metadata. They are
// used for the metadata's Cache-Control max-age (as a key set's, between
// one minute and a day; 10 minutes without one), then fetched again; the
// fetches, failed or not, are at most one per RefetchInterval, and when a
// refetch fails the endpoints held keep working.
type discovery struct {
	mu            sync.Mutex
	done          bool
	jwks          string
	introspection string
	expires       time.Time
	lastTry       time.Time
	lastErr       error
}

// endpoints returns the JWKS and introspection URLs: those of Config, the
// rest from the issuer's metadata.
func (v *Verifier) endpoints(ctx context.Context, now time.Time) (jwks, introspection string, err error) {
	jwks, introspection = v.cfg.JWKSURL, v.cfg.Introspection.Endpoint
	needIntrospection := v.cfg.Introspection.ClientID != "" && introspection == ""
	if jwks != "" && !needIntrospection {
		return jwks, introspection, nil
	}
	d := &v.discovery
	d.mu.Lock()
	defer d.mu.Unlock()
	stale := !d.done || !now.Before(d.expires)
	if stale && (d.lastTry.IsZero() || now.Sub(d.lastTry) >= v.cfg.RefetchInterval) {
		d.lastTry = now
		var m metadata
		var age time.Duration
		if m, age, d.lastErr = v.discover(ctx); d.lastErr == nil {
			d.done, d.jwks, d.introspection, d.expires = true, m.JWKSURI, m.Introspection, now.Add(age)
		}
	}
	if !d.done {
		return "", "", d.lastErr
	}
	if jwks == "" {
		jwks = d.jwks
	}
	if introspection == "" {
		introspection = d.introspection
	}
	return jwks, introspection, nil
}

// metadata is what a Verifier reads of the issuer's metadata.
type metadata struct {
	Issuer        string `json:"issuer"`
	JWKSURI       string `json:"jwks_uri"`
	Introspection string `json:"introspection_endpoint"`
}

// discover reads the issuer's metadata: RFC 8414, at its §3.1 location,
// else the OpenID Connect Discovery 1.0 configuration, else RFC 8414
// metadata appended to the issuer's path (where an issuer with a path,
// such as Gatehouse under its base path, can serve it itself). It
// returns the metadata and how long to use it.
func (v *Verifier) discover(ctx context.Context) (metadata, time.Duration, error) {
	issuer := v.cfg.Issuer
	// RFC 8414 §3.1: the well-known segment goes between host and path.
	scheme, rest, _ := strings.Cut(issuer, "://")
	host, path, _ := strings.Cut(rest, "/")
	path = strings.TrimSuffix("/"+path, "/")
	urls := []string{
		scheme + "://" + host + "/.well-known/oauth-authorization-server" + path,
		strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration",
	}
	if path != "" {
		urls = append(urls, strings.TrimSuffix(issuer, "/")+"/.well-known/oauth-authorization-server")
	}
	var firstErr error
	for _, u := range urls {
		body, header, err := v.get(ctx, u)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		var m metadata
		if err := json.Unmarshal(body, &m); err != nil {
			return m, 0, fmt.Errorf("bearer: %w: metadata at %s: %v", ErrUnavailable, u, err)
		}
		// RFC 8414 §3.3, OpenID Discovery §4.3: the metadata must be the
		// issuer's own, or anyone serving the document could name keys.
		if m.Issuer != issuer {
			return m, 0, fmt.Errorf("bearer: %w: metadata at %s is for issuer %q", ErrUnavailable, u, m.Issuer)
		}
		// An https issuer may not send us to http endpoints: keys could be
		// swapped on the way, and introspected tokens travel in clear.
		for name, endpoint := range map[string]string{"jwks_uri": m.JWKSURI, "introspection_endpoint": m.Introspection} {
			if endpoint != "" && (checkURL(endpoint) != nil || scheme == "https" && !strings.HasPrefix(endpoint, "https://")) {
				return m, 0, fmt.Errorf("bearer: %w: metadata at %s: %s %q refused", ErrUnavailable, u, name, endpoint)
			}
		}
		return m, keyAge(header), nil
	}
	return metadata{}, 0, firstErr
}
