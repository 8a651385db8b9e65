package keyflow_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
)

// TestKeyLifecycle: a key is shown once at creation, works as a Bearer
// token with its permissions, is listed without its secret, is replaced
// by a rotation (the old secret refused at once) and stops at revocation.
func TestKeyLifecycle(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	ada, b := e.user("ada@example.com", "report:read", "report:write")
	key, id := b.newKey("ci", "report:read", nil)
	if !strings.HasPrefix(key, "gh_"+id+"_") || len(key) != len("gh_")+16+1+43 {
		t.Fatalf("key %q does not read gh_<id>_<secret>", key)
	}
	status, p := e.withKey(http.MethodGet, "/api", key, nil)
	if status != http.StatusOK || p["KeyID"] != id || p["UserID"] != ada {
		t.Fatalf("/api with the key = %d %v; want the key's principal", status, p)
	}
	if perms := p["Permissions"].([]any); len(perms) != 1 || perms[0] != "report:read" {
		t.Errorf("permissions %v; want [report:read]", perms)
	}
	status, list := b.do(http.MethodGet, "/auth/api-keys", nil, nil)
	keys := list["keys"].([]any)
	if status != http.StatusOK || len(keys) != 1 {
		t.Fatalf("list = %d %v", status, list)
	}
	listed := keys[0].(map[string]any)
	if listed["lastUsedAt"] == nil || listed["start"] != "gh_"+id || listed["key"] != nil {
		t.Errorf("listed %v; want lastUsedAt and start, no key", listed)
	}
	secret := key[strings.LastIndex(key, "_")+1:]
	if raw := b.raw("/auth/api-keys"); strings.Contains(raw, secret) {
		t.Error("the list shows the secret")
	}

	status, rotated := b.post("/auth/api-keys/"+id+"/rotate", nil)
	newKey, _ := rotated["key"].(string)
	if status != http.StatusOK || newKey == "" || newKey == key || !strings.HasPrefix(newKey, "gh_"+id+"_") {
		t.Fatalf("rotate = %d %v", status, rotated)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("old secret after rotation: %d; want 401", status)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", newKey, nil); status != http.StatusOK {
		t.Errorf("new secret: %d; want 200", status)
	}
	if status, _ := b.post("/auth/api-keys/"+id+"/revoke", nil); status != http.StatusOK {
		t.Fatalf("revoke = %d", status)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", newKey, nil); status != http.StatusUnauthorized {
		t.Errorf("revoked key: %d; want 401", status)
	}
	if status, _ := b.post("/auth/api-keys/"+id+"/revoke", nil); status != http.StatusNotFound {
		t.Errorf("second revoke = %d; want 404", status)
	}
}

// raw returns the body of a GET.
func (b *browser) raw(path string) string {
	resp, err := b.c.Get(b.e.srv.URL + path)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			return sb.String()
		}
	}
}

// TestCreateRefused: no more permissions than held, no key without the
// CSRF token or from another site, none made with a key, none beyond
// MaxKeys, no name or expiry out of bounds.
func TestCreateRefused(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) {
		c.MachineAccess.MaxKeys = 3
		c.MachineAccess.MaxLifetime = time.Hour
	})
	_, b := e.user("ada@example.com", "report:read")
	key, id := b.newKey("ok", "report:read", nil)
	for name, tc := range map[string]struct {
		form   url.Values
		header http.Header
		want   int
	}{
		"more than held":   {url.Values{"name": {"x"}, "permissions": {"report:read report:delete"}}, nil, http.StatusForbidden},
		"not a statement":  {url.Values{"name": {"x"}, "permissions": {"report:*"}}, nil, http.StatusBadRequest},
		"no name":          {url.Values{"permissions": {"report:read"}}, nil, http.StatusBadRequest},
		"control in name":  {url.Values{"name": {"a\nb"}}, nil, http.StatusBadRequest},
		"past MaxLifetime": {url.Values{"name": {"x"}, "expiresIn": {"7200"}}, nil, http.StatusBadRequest},
		"bad expiry":       {url.Values{"name": {"x"}, "expiresIn": {"-1"}}, nil, http.StatusBadRequest},
		"no CSRF token":    {url.Values{"name": {"x"}, "csrfToken": {"wrong"}}, nil, http.StatusForbidden},
		"another site":     {url.Values{"name": {"x"}}, http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}}, http.StatusForbidden},
	} {
		form := tc.form
		if form.Get("csrfToken") == "" {
			form.Set("csrfToken", b.token())
		}
		h := http.Header{"Origin": {e.srv.URL}}
		for k, v := range tc.header {
			h[k] = v
		}
		if status, out := b.do(http.MethodPost, "/auth/api-keys", form, h); status != tc.want {
			t.Errorf("%s: %d %v; want %d", name, status, out, tc.want)
		}
	}
	// A key cannot make keys: the routes read the session cookie only.
	if status, _ := e.withKey(http.MethodPost, "/auth/api-keys", key, url.Values{"name": {"x"}}); status == http.StatusCreated {
		t.Error("a key made a key")
	}
	// MaxKeys, under 30 parallel requests: exactly 2 more are made.
	var made atomic.Int32
	var wg sync.WaitGroup
	for range 30 {
		wg.Go(func() {
			if status, _ := b.post("/auth/api-keys", url.Values{"name": {"p"}}); status == http.StatusCreated {
				made.Add(1)
			}
		})
	}
	wg.Wait()
	if made.Load() != 2 {
		t.Errorf("%d keys made in parallel past one; want 2 (MaxKeys 3)", made.Load())
	}
	// A revoked key does not count.
	if status, _ := b.post("/auth/api-keys/"+id+"/revoke", nil); status != http.StatusOK {
		t.Fatal(status)
	}
	if status, _ := b.post("/auth/api-keys", url.Values{"name": {"after"}}); status != http.StatusCreated {
		t.Errorf("a key after one of three was revoked: %d; want 201", status)
	}
	if status, _ := b.post("/auth/api-keys", url.Values{"name": {"too many"}}); status != http.StatusConflict {
		t.Errorf("a fourth live key: %d; want 409", status)
	}
}

// TestOtherUsersKeys: a user can neither revoke nor rotate another's key,
// nor see it in their list.
func TestOtherUsersKeys(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	_, ada := e.user("ada@example.com")
	_, eve := e.user("eve@example.com")
	key, id := ada.newKey("ada's", "", nil)
	for _, action := range []string{"revoke", "rotate"} {
		if status, _ := eve.post("/auth/api-keys/"+id+"/"+action, nil); status != http.StatusNotFound {
			t.Errorf("eve %s ada's key: %d; want 404", action, status)
		}
	}
	if _, list := eve.do(http.MethodGet, "/auth/api-keys", nil, nil); len(list["keys"].([]any)) != 0 {
		t.Errorf("eve lists %v", list)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Errorf("ada's key after eve's attempts: %d", status)
	}
}

// TestKeyEnds: a key stops when its user is deleted, when it expires, and
// it keeps only the permissions its user still holds.
func TestKeyEnds(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	ada, b := e.user("ada@example.com", "report:read", "report:write")
	key, _ := b.newKey("ci", "report:read report:write", nil)
	e.grants.set(ada, permission.MustSet("report:read"))
	_, p := e.withKey(http.MethodGet, "/api", key, nil)
	if perms := p["Permissions"].([]any); len(perms) != 1 || perms[0] != "report:read" {
		t.Errorf("permissions after the user lost report:write: %v", perms)
	}
	short, _ := b.newKey("short", "", url.Values{"expiresIn": {"1"}})
	time.Sleep(1100 * time.Millisecond)
	if status, _ := e.withKey(http.MethodGet, "/api", short, nil); status != http.StatusUnauthorized {
		t.Errorf("expired key: %d; want 401", status)
	}
	if err := e.store.DeleteUser(context.Background(), ada); err != nil {
		t.Fatal(err)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("key of a deleted user: %d; want 401", status)
	}
}

// TestBannedUsersKeys: with bans on (Config.Admin), a banned user's key
// is refused at its next request, and works again once the ban is lifted.
func TestBannedUsersKeys(t *testing.T) {
	m := memory.New()
	e := newEnv(t, m, nil, func(c *testConfig) { c.Admin = admin.Enable(admin.Config{}) })
	ada, b := e.user("ada@example.com", "report:read")
	key, _ := b.newKey("ci", "report:read", nil)
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Fatalf("before the ban: %d", status)
	}
	if err := m.BanUser(context.Background(), ada, admin.Ban{Reason: "abuse", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("key of a banned user: %d; want 401", status)
	}
	if err := m.UnbanUser(context.Background(), ada); err != nil {
		t.Fatal(err)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Errorf("after the ban is lifted: %d; want 200", status)
	}
}

// TestRotationOverlap: with RotationOverlap, both secrets work until it
// ends.
func TestRotationOverlap(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.MachineAccess.RotationOverlap = time.Second })
	_, b := e.user("ada@example.com")
	key, id := b.newKey("ci", "", nil)
	_, rotated := b.post("/auth/api-keys/"+id+"/rotate", nil)
	for _, k := range []string{key, rotated["key"].(string)} {
		if status, _ := e.withKey(http.MethodGet, "/api", k, nil); status != http.StatusOK {
			t.Errorf("during the overlap: %d; want 200", status)
		}
	}
	time.Sleep(1100 * time.Millisecond)
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusUnauthorized {
		t.Errorf("old secret after the overlap: %d; want 401", status)
	}
}

// TestKeyRateLimit: past the per-key limit the Middleware answers 429
// with Retry-After; another key is not affected.
func TestKeyRateLimit(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.MachineAccess.RateLimit = limit.NewMemory(3, time.Minute) })
	_, b := e.user("ada@example.com")
	k1, _ := b.newKey("one", "", nil)
	k2, _ := b.newKey("two", "", nil)
	for i := range 3 {
		if status, _ := e.withKey(http.MethodGet, "/api", k1, nil); status != http.StatusOK {
			t.Fatalf("request %d: %d", i, status)
		}
	}
	if status, _ := e.withKey(http.MethodGet, "/api", k1, nil); status != http.StatusTooManyRequests {
		t.Errorf("4th request: %d; want 429", status)
	}
	if status, _ := e.withKey(http.MethodGet, "/api", k2, nil); status != http.StatusOK {
		t.Errorf("other key: %d; want 200", status)
	}
}

// TestRevokeUnderLoad: 50 goroutines use a key while it is revoked; every
// request that starts after the revocation answered is refused.
func TestRevokeUnderLoad(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	_, b := e.user("ada@example.com")
	key, id := b.newKey("ci", "", nil)
	var revoked atomic.Bool
	var lateOK atomic.Int32
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 50 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				after := revoked.Load()
				if status, _ := e.withKey(http.MethodGet, "/api", key, nil); after && status == http.StatusOK {
					lateOK.Add(1)
				}
			}
		})
	}
	time.Sleep(100 * time.Millisecond)
	if status, _ := b.post("/auth/api-keys/"+id+"/revoke", nil); status != http.StatusOK {
		t.Fatal(status)
	}
	revoked.Store(true)
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wg.Wait()
	if n := lateOK.Load(); n > 0 {
		t.Errorf("%d requests started after the revocation were let through", n)
	}
}

// TestHeaderAndBearerTogether: a configured header carries a key; a
// Bearer token without the key prefix is left to sessions.
func TestHeaderAndBearerTogether(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.MachineAccess.Header = "X-API-Key" })
	_, b := e.user("ada@example.com")
	key, _ := b.newKey("ci", "", nil)
	if status, _ := e.browser().do(http.MethodGet, "/api", nil, http.Header{"X-Api-Key": {key}}); status != http.StatusOK {
		t.Errorf("key in X-API-Key: %d", status)
	}
	if status, _ := e.browser().do(http.MethodGet, "/api", nil, http.Header{"Authorization": {"Bearer gh_nothing"}}); status != http.StatusUnauthorized {
		t.Errorf("malformed key: %d", status)
	}
}

// TestNeedsStore: MachineAccess without an adapter is a configuration
// error naming the field.
func TestNeedsStore(t *testing.T) {
	cfg := gatehouse.Config{Secret: []string{testSecret}, MachineAccess: apikey.Enable(apikey.Config{}),
		Providers: []providers.Provider{credentials.Config{Fields: []credentials.Field{{Name: "u"}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil }}}}
	_, err := gatehouse.New(cfg)
	var ce *gatehouse.ConfigError
	if !errors.As(err, &ce) || ce.Field != "MachineAccess" {
		t.Errorf("New = %v; want a ConfigError on MachineAccess", err)
	}
}

// TestBesideBearerSessions: with Session.Bearer on too, a bearer session
// token is a session and a key is a key; a request carrying a key and a
// session cookie is judged by the key alone; Require, which is for
// people, answers a key 401.
func TestBesideBearerSessions(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.Session.Bearer = true })
	ada, b := e.user("ada@example.com")
	key, id := b.newKey("ci", "", nil)
	su, _ := url.Parse(e.srv.URL)
	var sessionToken string
	for _, c := range b.jar.Cookies(su) {
		if c.Name == "authjs.session-token" {
			sessionToken = c.Value
		}
	}
	who := func(h http.Header, cookies bool) (session, key string) {
		req := httptest.NewRequest(http.MethodGet, "/whatever", nil)
		req.Header = h
		if cookies {
			req.AddCookie(&http.Cookie{Name: "authjs.session-token", Value: sessionToken})
		}
		e.h.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			if s := gatehouse.SessionFrom(r.Context()); s != nil {
				session = s.User.ID
			}
			if p := gatehouse.APIKeyFrom(r.Context()); p != nil {
				key = p.KeyID
			}
		})).ServeHTTP(httptest.NewRecorder(), req)
		return session, key
	}
	if s, k := who(http.Header{"Authorization": {"Bearer " + sessionToken}}, false); s != ada || k != "" {
		t.Errorf("bearer session token: session %q, key %q", s, k)
	}
	if s, k := who(http.Header{"Authorization": {"Bearer " + key}}, true); s != "" || k != id {
		t.Errorf("key with a session cookie: session %q, key %q; want the key alone", s, k)
	}
	if s, k := who(http.Header{"Authorization": {"Bearer " + forged(key)}}, true); s != "" || k != "" {
		t.Errorf("forged key with a session cookie: session %q, key %q; want nobody", s, k)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/private", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	e.h.Middleware(e.h.Require(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Error("Require let a key through")
	}))).ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("Require with a key: %d; want 401", rec.Code)
	}
}
