package bearer

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestMiddlewareAnswers: the RFC 6750 §3 status and challenge for each
// kind of request, and the token in the context for a good one.
func TestMiddlewareAnswers(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.Realm = "projects" })
	var seen *Token
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = FromContext(r.Context()) })
	h := v.Middleware(v.RequireScope("project:delete")(ok))
	readOnly := is.token(t, "es1", c.Now(), nil)
	admin := is.token(t, "ed1", c.Now(), func(m map[string]any) { m["scope"] = "project:read project:delete" })
	expired := is.token(t, "es1", c.Now(), func(m map[string]any) { m["exp"] = c.Now().Add(-time.Hour).Unix() })

	cases := []struct {
		name      string
		url, auth string
		status    int
		challenge string // the first WWW-Authenticate, exactly
	}{
		{"good", "/p", "Bearer " + admin, 200, ""},
		{"scheme in lower case", "/p", "bearer " + admin, 200, ""},
		{"no token", "/p", "", 401, `Bearer realm="projects"`},
		{"other scheme", "/p", "Basic dXNlcjpwYXNz", 401, `Bearer realm="projects"`},
		{"missing scope", "/p", "Bearer " + readOnly, 403, `Bearer realm="projects", error="insufficient_scope", error_description="insufficient scope", scope="project:delete"`},
		{"expired", "/p", "Bearer " + expired, 401, `Bearer realm="projects", error="invalid_token", error_description="token expired"`},
		{"token in query", "/p?access_token=" + admin, "", 400, `Bearer realm="projects", error="invalid_request", error_description="access token in query string refused"`},
		{"token in query and header", "/p?access_token=" + admin, "Bearer " + admin, 400, `Bearer realm="projects", error="invalid_request", error_description="access token in query string refused"`},
		{"not a b64token", "/p", `Bearer a"b`, 400, `Bearer realm="projects", error="invalid_request", error_description="malformed authorization"`},
		{"empty token", "/p", "Bearer ", 400, `Bearer realm="projects", error="invalid_request", error_description="malformed authorization"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seen = nil
			r := httptest.NewRequest("GET", tc.url, nil)
			if tc.auth != "" {
				r.Header.Set("Authorization", tc.auth)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d (%s)", w.Code, tc.status, w.Body)
			}
			if got := w.Header().Get("WWW-Authenticate"); got != tc.challenge {
				t.Fatalf("challenge\n%s\nwant\n%s", got, tc.challenge)
			}
			if all := w.Header().Values("WWW-Authenticate"); tc.status != 200 && (len(all) != 2 || all[1] != `DPoP algs="RS256 PS256 ES256 EdDSA"`) {
				t.Fatalf("challenges %q: want DPoP offered second", all)
			}
			if (seen != nil) != (tc.status == 200) {
				t.Fatalf("handler ran: %v", seen != nil)
			}
			if tc.status == 200 && seen.Subject != "user-1" {
				t.Fatalf("token in context %+v", seen)
			}
			if tc.status != 200 && strings.Contains(w.Body.String(), ".") {
				t.Fatalf("body leaks detail: %q", w.Body)
			}
		})
	}
	// Two Authorization headers are a malformed request.
	r := httptest.NewRequest("GET", "/p", nil)
	r.Header.Add("Authorization", "Bearer "+admin)
	r.Header.Add("Authorization", "Bearer "+readOnly)
	if _, err := v.VerifyRequest(r); !errors.Is(err, ErrMalformedRequest) {
		t.Fatalf("two Authorization headers: %v", err)
	}
	// RequireScope alone verifies the token itself.
	w := httptest.NewRecorder()
	r = httptest.NewRequest("GET", "/p", nil)
	r.Header.Set("Authorization", "Bearer "+readOnly)
	v.RequireScope("project:read")(ok).ServeHTTP(w, r)
	if w.Code != 200 || seen == nil {
		t.Fatalf("RequireScope alone: %d", w.Code)
	}
}

// TestIssuerDown: an unreachable JWKS is the server's problem (503 without
// a challenge), not the client's token's.
func TestIssuerDown(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	v := is.verifier(t, c, func(cfg *Config) { cfg.JWKSURL = is.srv.URL + "/missing" })
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+is.token(t, "es1", c.Now(), nil))
	w := httptest.NewRecorder()
	v.Middleware(http.NotFoundHandler()).ServeHTTP(w, r)
	if w.Code != 503 || w.Header().Get("WWW-Authenticate") != "" {
		t.Fatalf("status %d, challenge %q", w.Code, w.Header().Get("WWW-Authenticate"))
	}

	// Keys already held keep working while the issuer is down, past
	// their max-age; the issuer is asked once per RefetchInterval.
	v = is.verifier(t, c, nil)
	if _, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	is.down = true
	is.mu.Unlock()
	c.advance(defaultKeyAge + time.Second)
	before := is.fetches.Load()
	for range 5 {
		if _, err := v.Verify(context.Background(), is.token(t, "es1", c.Now(), nil)); err != nil {
			t.Fatalf("known key, issuer down: %v", err)
		}
	}
	if n := is.fetches.Load() - before; n != 1 {
		t.Fatalf("%d fetches while down, want 1", n)
	}
}

// introspector plays an RFC 7662 endpoint answering answer for the token
// "opaque-good", inactive for others.
func introspector(t *testing.T, answer map[string]any) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		id, secret, ok := r.BasicAuth()
		if !ok || id != "api%3A1" || secret != "s%26cret" || r.Method != "POST" || r.URL.RawQuery != "" {
			w.WriteHeader(401)
			return
		}
		if r.PostFormValue("token") != "opaque-good" {
			json.NewEncoder(w).Encode(map[string]any{"active": false})
			return
		}
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestIntrospection: opaque tokens are checked at the introspection
// endpoint, and its answer cached no longer than MaxCacheAge and exp.
func TestIntrospection(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	answer := map[string]any{
		"active": true, "iss": is.srv.URL, "aud": testAudience, "sub": "user-2", "client_id": "service-b",
		"scope": "project:read", "exp": c.Now().Add(90 * time.Second).Unix(),
	}
	srv, calls := introspector(t, answer)
	v := is.verifier(t, c, func(cfg *Config) {
		cfg.Introspection = Introspection{Endpoint: srv.URL, ClientID: "api:1", ClientSecret: "s&cret", MaxCacheAge: time.Minute}
		cfg.Leeway = -1
	})
	ctx := context.Background()
	tok, err := v.Verify(ctx, "opaque-good")
	if err != nil {
		t.Fatal(err)
	}
	if !tok.Introspected || tok.Subject != "user-2" || !tok.HasScope("project:read") || tok.ClientID != "service-b" {
		t.Fatalf("token %+v", tok)
	}
	if _, err := v.Verify(ctx, "opaque-bad"); !errors.Is(err, ErrInactive) {
		t.Fatalf("inactive token: %v", err)
	}
	v.Verify(ctx, "opaque-good")
	if n := calls.Load(); n != 2 {
		t.Fatalf("%d introspection calls, want 2 (one cached)", n)
	}
	c.advance(61 * time.Second) // past MaxCacheAge
	v.Verify(ctx, "opaque-good")
	if n := calls.Load(); n != 3 {
		t.Fatalf("%d introspection calls after MaxCacheAge, want 3", n)
	}
	c.advance(30 * time.Second) // past exp (90 s), before the next MaxCacheAge
	if _, err := v.Verify(ctx, "opaque-good"); !errors.Is(err, ErrExpired) || calls.Load() != 4 {
		t.Fatalf("introspected token past its exp: %v, %d calls", err, calls.Load())
	}
	// JWTs are still verified locally.
	if _, err := v.Verify(ctx, is.token(t, "es1", c.Now(), nil)); err != nil || calls.Load() != 4 {
		t.Fatalf("JWT with introspection on: %v, %d calls", err, calls.Load())
	}
}

// TestIntrospectionClaims: an active answer for another audience or
// issuer is refused all the same.
func TestIntrospectionClaims(t *testing.T) {
	t.Parallel()
	is := newTestIssuer(t)
	c := newClock()
	for _, tc := range []struct {
		edit string
		want error
	}{{"aud", ErrAudience}, {"iss", ErrIssuer}} {
		answer := map[string]any{"active": true, "iss": is.srv.URL, "aud": testAudience, tc.edit: "https://other.example"}
		srv, _ := introspector(t, answer)
		v := is.verifier(t, c, func(cfg *Config) {
			cfg.Introspection = Introspection{Endpoint: srv.URL, ClientID: "api:1", ClientSecret: "s&cret"}
		})
		if _, err := v.Verify(context.Background(), "opaque-good"); !errors.Is(err, tc.want) {
			t.Fatalf("%s: %v", tc.edit, err)
		}
	}
}
