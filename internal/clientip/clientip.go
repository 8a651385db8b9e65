// Package clientip finds a request's client address behind trusted
// reverse proxies, for the per-address limits. A forwarding header is
// believed only when the request comes from a trusted proxy, and in a
// chain (X-Forwarded-For, Forwarded) only from the right, past the
// trusted proxies: everything to the left of the first untrusted address
// was written by the client and can be anything.
package clientip

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// DefaultHeader is the header trusted proxies are taken to set.
const DefaultHeader = "X-Forwarded-For"

// Resolver tells a request's client address.
type Resolver struct {
	trusted []netip.Prefix
	header  string
}

// New returns the Resolver of proxies (addresses such as "10.0.0.5" or
// CIDR prefixes such as "10.0.0.0/8") setting header: X-Forwarded-For
// (the default) or Forwarded (RFC 7239), which list the chain, or a
// header holding one address (X-Real-IP, CF-Connecting-IP, …).
func New(proxies []string, header string) (*Resolver, error) {
	r := &Resolver{header: http.CanonicalHeaderKey(strings.TrimSpace(header))}
	if r.header == "" {
		r.header = DefaultHeader
	}
	for _, p := range proxies {
		p = strings.TrimSpace(p)
		if pfx, err := netip.ParsePrefix(p); err == nil {
			r.trusted = append(r.trusted, pfx.Masked())
			continue
		}
		a, err := netip.ParseAddr(p)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", p)
		}
		r.trusted = append(r.trusted, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return r, nil
}

// ClientIP returns the client address of req: the peer's, unless the
// peer is a trusted proxy; then the nearest address in the header that is
// not a trusted proxy (the peer's again when the header has none that
// parses).
func (r *Resolver) ClientIP(req *http.Request) string {
	peer := Peer(req)
	if !r.isTrusted(peer) {
		return peer
	}
	hops := r.hops(req)
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			return peer // a hop that is no address: trust nothing beyond it
		}
		if !r.isTrusted(a.Unmap().String()) {
			return a.Unmap().String()
		}
	}
	if len(hops) > 0 {
		return hops[0] // every hop a trusted proxy
	}
	return peer
}

// hops returns the addresses of the header, client first.
func (r *Resolver) hops(req *http.Request) []string {
	var out []string
	for _, v := range req.Header.Values(r.header) {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if r.header == "Forwarded" {
				part = forwardedFor(part)
			}
			if part != "" {
				out = append(out, stripPort(part))
			}
		}
	}
	return out
}

// forwardedFor returns the for= value of one Forwarded element, unquoted.
func forwardedFor(elem string) string {
	for _, pair := range strings.Split(elem, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && strings.EqualFold(k, "for") {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// stripPort removes a port from "1.2.3.4:80" and "[::1]:80", and the
// brackets from "[::1]".
func stripPort(s string) string {
	if h, _, err := net.SplitHostPort(s); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
}

func (r *Resolver) isTrusted(addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range r.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Peer returns the host of req.RemoteAddr: the address of whoever opened
// the connection.
func Peer(req *http.Request) string {
	if h, _, err := net.SplitHostPort(req.RemoteAddr); err == nil {
		return h
	}
	return req.RemoteAddr
}
