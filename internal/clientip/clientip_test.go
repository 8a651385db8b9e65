package clientip

import (
	"net/http"
	"testing"
)

func TestClientIP(t *testing.T) {
	r, err := New([]string{"10.0.0.0/8", "192.0.2.1"}, "")
	if err != nil {
		t.Fatal(err)
	}
	real, err := New([]string{"127.0.0.1"}, "X-Real-IP")
	if err != nil {
		t.Fatal(err)
	}
	fwd, err := New([]string{"10.0.0.1"}, "Forwarded")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		r       *Resolver
		peer    string
		headers map[string][]string
		want    string
	}{
		{"no proxy: the peer", r, "198.51.100.7:1234", nil, "198.51.100.7"},
		{"an untrusted peer's header is ignored", r, "198.51.100.7:1234", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "198.51.100.7"},
		{"a trusted proxy: the client it reports", r, "10.1.2.3:1234", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "203.0.113.9"},
		{"a forged left part is skipped", r, "10.1.2.3:1234", map[string][]string{"X-Forwarded-For": {"1.1.1.1, 203.0.113.9"}}, "203.0.113.9"},
		{"a chain of trusted proxies", r, "10.1.2.3:1234", map[string][]string{"X-Forwarded-For": {"203.0.113.9, 192.0.2.1", "10.9.9.9"}}, "203.0.113.9"},
		{"garbage stops the walk", r, "10.1.2.3:1234", map[string][]string{"X-Forwarded-For": {"203.0.113.9, nonsense"}}, "10.1.2.3"},
		{"a trusted proxy without the header", r, "10.1.2.3:1234", nil, "10.1.2.3"},
		{"IPv6 with brackets and port", r, "10.1.2.3:1234", map[string][]string{"X-Forwarded-For": {"[2001:db8::1]:443"}}, "2001:db8::1"},
		{"one-address header", real, "127.0.0.1:5", map[string][]string{"X-Real-Ip": {"203.0.113.5"}}, "203.0.113.5"},
		{"RFC 7239 Forwarded", fwd, "10.0.0.1:5", map[string][]string{"Forwarded": {`for=1.1.1.1, for="[2001:db8::2]:80";proto=https`}}, "2001:db8::2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := &http.Request{RemoteAddr: c.peer, Header: http.Header(c.headers)}
			if got := c.r.ClientIP(req); got != c.want {
				t.Fatalf("ClientIP = %q, want %q", got, c.want)
			}
		})
	}
	if _, err := New([]string{"not-an-address"}, ""); err == nil {
		t.Fatal("a malformed proxy was accepted")
	}
}
