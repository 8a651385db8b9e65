package gatehouse_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
)

// replayTransport answers each provider request (discovery, JWKS, token,
// userinfo) the way the real provider answered the first one with the
// same method and URL, from memory. It takes the provider's own time out
// of a callback benchmark: what is left is Gatehouse's (and x/oauth2's,
// go-oidc's, go-jose's) work on the answers, plus building one
// http.Response per call.
type replayTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	seen map[string]recorded
}

type recorded struct {
	status int
	header http.Header
	body   []byte
}

func (t *replayTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key := r.Method + " " + r.URL.String()
	t.mu.Lock()
	rec, ok := t.seen[key]
	t.mu.Unlock()
	if !ok {
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		rec = recorded{resp.StatusCode, resp.Header, body}
		t.mu.Lock()
		t.seen[key] = rec
		t.mu.Unlock()
	}
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return &http.Response{StatusCode: rec.status, Header: rec.header, Body: io.NopCloser(bytes.NewReader(rec.body)),
		ContentLength: int64(len(rec.body)), Request: r, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}, nil
}

// BenchmarkCallback is GET {base}/callback/{provider} with a cached JWKS:
// the state and iss checks, the sealed PKCE verifier and nonce, the code
// exchange, the ID token's signature (RS256) and claims, userinfo and the
// merge, the profile mapping and a new JWT session sealed into a cookie.
// The provider's answers come from memory (replayTransport), recorded
// from the in-process OP on the first callback; the same callback URL and
// check cookie are replayed every iteration (the OP would refuse a code
// twice; Gatehouse keeps no server-side state to notice).
func BenchmarkCallback(b *testing.B) {
	rt := &replayTransport{base: http.DefaultTransport, seen: map[string]recorded{}}
	t := &testing.T{}
	a := newApp(t, authtest.Options{}, unlimited(func(cfg *gatehouse.Config) {
		cfg.HTTPClient = &http.Client{Timeout: 2 * time.Second, Transport: rt}
	}))
	b.Cleanup(func() { a.srv.Close(); a.op.Close() })
	br := newBrowser(t)
	resp := br.post(a.url+"/auth/signin/dev", url.Values{"csrfToken": {br.csrf(a)}, "callbackUrl": {"/private"}})
	authz := br.get(resp.Header.Get("Location")) // AutoApprove: straight back with a code
	callback := authz.Header.Get("Location")
	if !strings.Contains(callback, "/auth/callback/dev?") {
		b.Fatalf("the OP answered %d to %q", authz.StatusCode, callback)
	}
	u, _ := url.Parse(a.url)
	r := request("GET", callback, br.c.Jar.Cookies(u), "")
	run(b, a.h, func() *http.Request { return r }, func(w *httptest.ResponseRecorder) error {
		if w.Code != http.StatusFound || w.Header().Get("Location") != a.url+"/private" ||
			!strings.Contains(strings.Join(w.Header().Values("Set-Cookie"), "\n"), "authjs.session-token=") {
			return errBench("not signed in")
		}
		return nil
	})
}
