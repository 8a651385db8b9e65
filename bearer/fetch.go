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

// discovery holds the endpoints read from the issuer's metadata, fetched
// once; a failure is retried after RefetchInterval, not on every token.
type discovery struct {
	mu            sync.Mutex
	done          bool
	jwks          string
	introspection string
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
	if !d.done {
		if d.lastErr != nil && now.Sub(d.lastTry) < v.cfg.RefetchInterval {
			return "", "", d.lastErr
		}
		d.lastTry = now
		d.lastErr = v.discover(ctx)
		if d.lastErr != nil {
			return "", "", d.lastErr
		}
		d.done = true
	}
	if jwks == "" {
		jwks = d.jwks
	}
	if introspection == "" {
		introspection = d.introspection
	}
	return jwks, introspection, nil
}

// discover reads the issuer's RFC 8414 metadata, or else its OpenID
// Connect Discovery 1.0 configuration, and keeps the endpoints.
func (v *Verifier) discover(ctx context.Context) error {
	issuer := v.cfg.Issuer
	// RFC 8414 §3.1: the well-known segment goes between host and path.
	scheme, rest, _ := strings.Cut(issuer, "://")
	host, path, _ := strings.Cut(rest, "/")
	path = strings.TrimSuffix("/"+path, "/")
	urls := []string{
		scheme + "://" + host + "/.well-known/oauth-authorization-server" + path,
		strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration",
	}
	var firstErr error
	for _, u := range urls {
		body, _, err := v.get(ctx, u)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		var m struct {
			Issuer        string `json:"issuer"`
			JWKSURI       string `json:"jwks_uri"`
			Introspection string `json:"introspection_endpoint"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			return fmt.Errorf("bearer: %w: metadata at %s: %v", ErrUnavailable, u, err)
		}
		// RFC 8414 §3.3, OpenID Discovery §4.3: the metadata must be the
		// issuer's own, or anyone serving the document could name keys.
		if m.Issuer != issuer {
			return fmt.Errorf("bearer: %w: metadata at %s is for issuer %q", ErrUnavailable, u, m.Issuer)
		}
		// An https issuer may not send us to http endpoints: keys could be
		// swapped on the way, and introspected tokens travel in clear.
		for name, endpoint := range map[string]string{"jwks_uri": m.JWKSURI, "introspection_endpoint": m.Introspection} {
			if endpoint != "" && (checkURL(endpoint) != nil || scheme == "https" && !strings.HasPrefix(endpoint, "https://")) {
				return fmt.Errorf("bearer: %w: metadata at %s: %s %q refused", ErrUnavailable, u, name, endpoint)
			}
		}
		v.discovery.jwks, v.discovery.introspection = m.JWKSURI, m.Introspection
		return nil
	}
	return firstErr
}
