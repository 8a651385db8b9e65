package keyflow_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/bearer"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// TestBearerVerifies: the tokens are what the bearer package, the
// verifying side, expects: a service configured with the handler's URL
// as Issuer and its audience accepts them (EdDSA and ES256) with their
// subject, client, scopes and organization, and refuses them for another
// audience or issuer.
func TestBearerVerifies(t *testing.T) {
	for _, alg := range []string{servicetoken.EdDSA, servicetoken.ES256} {
		t.Run(alg, func(t *testing.T) {
			e := newEnv(t, memory.New(), nil, withTokens(alg))
			ada, b := e.user("ada@example.com", "report:read", "report:write")
			key, id := b.newKey("ci", "report:read report:write", nil)
			_, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"scope": {"report:write report:read"}})
			token, _ := out["access_token"].(string)
			verifier := func(issuer, audience string) *bearer.Verifier {
				v, err := bearer.New(bearer.Config{Issuer: issuer, Audience: []string{audience}, JWKSURL: e.srv.URL + "/auth/jwks"})
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			got, err := verifier(e.srv.URL+"/auth", "reports").Verify(t.Context(), token)
			if err != nil {
				t.Fatalf("bearer refused a token of the handler: %v", err)
			}
			if got.Subject != ada || got.ClientID != id || !got.HasScope("report:read") || !got.HasScope("report:write") {
				t.Errorf("token %+v", got)
			}
			if _, err := verifier(e.srv.URL+"/auth", "billing").Verify(t.Context(), token); !errors.Is(err, bearer.ErrAudience) {
				t.Errorf("another audience: %v; want ErrAudience", err)
			}
			if _, err := verifier(e.srv.URL, "reports").Verify(t.Context(), token); !errors.Is(err, bearer.ErrIssuer) {
				t.Errorf("another issuer: %v; want ErrIssuer", err)
			}
		})
	}
}

// TestMetadata: the handler publishes RFC 8414 metadata under its base
// path whose issuer is the iss of its tokens (RFC 8414 §3.3) and whose
// endpoints are its own; a bearer Verifier given only the Issuer finds
// the keys through it, and through servicetoken.NewMetadata mounted at
// the RFC 8414 §3.1 location, which it asks first. The token endpoint
// serves the one grant type the metadata names.
func TestMetadata(t *testing.T) {
	e := newEnv(t, memory.New(), nil, withTokens(""))
	issuer := e.srv.URL + "/auth"
	resp, err := http.Get(issuer + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("metadata: %d %v %v", resp.StatusCode, m, err)
	}
	if m["issuer"] != issuer || m["jwks_uri"] != issuer+"/jwks" || m["token_endpoint"] != issuer+"/token" {
		t.Errorf("metadata %v; want the handler's URL and base path and its routes", m)
	}
	grants, _ := m["grant_types_supported"].([]any)
	if len(grants) != 1 || grants[0] != servicetoken.GrantType {
		t.Errorf("grant_types_supported %v; want [%s]", m["grant_types_supported"], servicetoken.GrantType)
	}

	_, b := e.user("ada@example.com", "report:read")
	key, _ := b.newKey("ci", "report:read", nil)
	if status, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"grant_type": {"password"}}); status != http.StatusBadRequest || out["error"] != "unsupported_grant_type" {
		t.Errorf("grant_type password: %d %v; want 400 unsupported_grant_type", status, out)
	}
	_, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"grant_type": {servicetoken.GrantType}})
	token, _ := out["access_token"].(string)
	discovering := func() *bearer.Verifier {
		v, err := bearer.New(bearer.Config{Issuer: issuer, Audience: []string{"reports"}})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if got, err := discovering().Verify(t.Context(), token); err != nil || got.Issuer != m["issuer"] {
		t.Fatalf("a Verifier given the Issuer only, metadata under the base path: %+v, %v", got, err)
	}

	// At the RFC 8414 §3.1 location, mounted by the application.
	path := servicetoken.MetadataPath(issuer)
	if path != "/.well-known/oauth-authorization-server/auth" {
		t.Fatalf("MetadataPath(%q) = %q", issuer, path)
	}
	var asked atomic.Int32
	e.mux.Handle(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		servicetoken.NewMetadata(issuer).ServeHTTP(w, r)
	}))
	if _, err := discovering().Verify(t.Context(), token); err != nil || asked.Load() != 1 {
		t.Fatalf("metadata at the RFC 8414 location: %v, asked %d times", err, asked.Load())
	}
}

// TestMalformedAuthorizationIsNotTheCookie: a request whose Authorization
// header names the Bearer scheme but does not parse (a tab after the
// scheme, a second Authorization header beside it) is judged by that
// header, anonymous, and never by the session cookie it also carries:
// with Session.Bearer on, and with it off when the header holds an API
// key. Without that, an API call carrying a key in its second header ran
// as the browser's user.
func TestMalformedAuthorizationIsNotTheCookie(t *testing.T) {
	for _, bearerOn := range []bool{true, false} {
		t.Run(map[bool]string{true: "Session.Bearer on", false: "Session.Bearer off"}[bearerOn], func(t *testing.T) {
			e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.Session.Bearer = bearerOn })
			ada, b := e.user("ada@example.com")
			key, _ := b.newKey("ci", "", nil)
			var cookie string
			u, _ := url.Parse(e.srv.URL)
			for _, c := range b.jar.Cookies(u) {
				if c.Name == "authjs.session-token" {
					cookie = c.Value
				}
			}
			if cookie == "" {
				t.Fatal("no session cookie")
			}
			judge := func(header []string) (session, keyID string) {
				r := httptest.NewRequest(http.MethodGet, e.srv.URL+"/api", nil)
				r.Header["Authorization"] = header
				r.AddCookie(&http.Cookie{Name: "authjs.session-token", Value: cookie})
				e.h.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
					if s := gatehouse.SessionFrom(r.Context()); s != nil {
						session = s.User.ID
					}
					if p := gatehouse.APIKeyFrom(r.Context()); p != nil {
						keyID = p.KeyID
					}
				})).ServeHTTP(httptest.NewRecorder(), r)
				return session, keyID
			}
			// The test's premise: the cookie alone is ada's session, the
			// key alone is the key.
			if s, _ := judge(nil); s != ada {
				t.Fatalf("the cookie alone: session %q, want %q", s, ada)
			}
			if _, k := judge([]string{"Bearer " + key}); k == "" {
				t.Fatal("the key alone was not taken")
			}
			malformed := [][]string{
				{"Bearer\t" + key},
				{"Basic Zm9vOmJhcg==", "Bearer " + key},
				{"Bearer " + key, "Basic Zm9vOmJhcg=="},
			}
			if bearerOn {
				malformed = append(malformed, []string{"Bearer\tnot-a-session"}, []string{"Basic Zm9vOmJhcg==", "Bearer abc"})
			}
			for _, h := range malformed {
				if s, k := judge(h); s != "" || k != "" {
					t.Errorf("Authorization %q: session %q, key %q; want neither", h, s, k)
				}
			}
		})
	}
}

// TestPermissionIgnoresCookieBesideKey: a request carrying an API key is
// judged by the key, not by the session cookie sent beside it: Can is
// false and RequirePermission 401 for it, through the Middleware or
// without it, though the cookie alone is the organization's owner.
func TestPermissionIgnoresCookieBesideKey(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) {
		c.Organizations = organization.Enable(organization.Config{})
	})
	_, b := e.user("ada@example.com")
	st, org := b.post("/auth/organizations", url.Values{"name": {"Acme"}})
	if st != http.StatusCreated {
		t.Fatalf("create an organization: %d %v", st, org)
	}
	if st, out := b.post("/auth/organizations/active", url.Values{"organizationId": {org["id"].(string)}}); st != http.StatusOK {
		t.Fatalf("activate: %d %v", st, out)
	}
	key, _ := b.newKey("ci", "", nil)
	u, _ := url.Parse(e.srv.URL)
	send := func(h http.Handler, withKey bool) string {
		r := httptest.NewRequest(http.MethodGet, e.srv.URL+"/app", nil)
		for _, c := range b.jar.Cookies(u) {
			r.AddCookie(c)
		}
		if withKey {
			r.Header.Set("Authorization", "Bearer "+key)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return fmt.Sprint(w.Code, " ", w.Body.String())
	}
	can := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, err := e.h.Can(r, "organization:delete")
		fmt.Fprint(w, ok, err)
	})
	required := e.h.RequirePermission("organization:delete")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "through")
	}))
	for name, h := range map[string][2]http.Handler{
		"without the Middleware": {can, required},
		"through the Middleware": {e.h.Middleware(can), e.h.Middleware(required)},
	} {
		// The premise: the owner's cookie alone may.
		if got := send(h[0], false); got != "200 true <nil>" {
			t.Fatalf("Can %s, the cookie alone: %s", name, got)
		}
		if got := send(h[1], false); got != "200 through" {
			t.Fatalf("RequirePermission %s, the cookie alone: %s", name, got)
		}
		if got := send(h[0], true); got != "200 false <nil>" {
			t.Errorf("Can %s, a key beside the cookie: %s; want false", name, got)
		}
		if got := send(h[1], true); !strings.HasPrefix(got, "401 ") {
			t.Errorf("RequirePermission %s, a key beside the cookie: %s; want 401", name, got)
		}
	}
}
