package gatehouse_test

import (
	"context"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/limit"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers/credentials"
	"github.com/gatehouse-auth/gatehouse/providers/email"
)

// TestEmailLinkConcurrentUse: of many simultaneous uses of one link,
// exactly one signs in, on each adapter.
func TestEmailLinkConcurrentUse(t *testing.T) {
	for _, kind := range append(stores, "postgres") {
		t.Run(kind, func(t *testing.T) {
			var db adapter.Adapter
			if kind == "postgres" {
				db = migratedPostgres(t)
			} else {
				db = openStore(t, kind).raw
			}
			m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
			m.requestLink(newBrowser(t), "ivy@example.com", "/private").Body.Close()
			link := m.receive().Link()
			var wg sync.WaitGroup
			var mu sync.Mutex
			signedIn := 0
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					resp := newBrowser(t).get(link)
					resp.Body.Close()
					if resp.Header.Get("Location") == m.url+"/private" {
						mu.Lock()
						signedIn++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if signedIn != 1 {
				t.Fatalf("%d of 8 concurrent uses signed in, want 1", signedIn)
			}
		})
	}
}

// TestNonOAuthProvidersListed: GET providers and the template helper know
// the e-mail and credentials providers.
func TestNonOAuthProvidersListed(t *testing.T) {
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) {
		c.Providers = append(c.Providers, credentials.Config{
			Name:      "Password",
			Fields:    []credentials.Field{{Name: "user", Label: "User <name>"}, {Name: "pw", Type: "password", Required: true}},
			Authorize: func(context.Context, map[string]string, *http.Request) (*profile.User, error) { return nil, nil },
		})
	})
	resp := newBrowser(t).get(m.url + "/auth/providers")
	var got map[string]struct{ ID, Name, Type, SigninURL, CallbackURL string }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	e, c := got["email"], got["credentials"]
	if e.Type != "email" || e.Name != "Email" || e.SigninURL != m.url+"/auth/signin/email" ||
		c.Type != "credentials" || c.Name != "Password" || c.CallbackURL != m.url+"/auth/callback/credentials" {
		t.Fatalf("providers: %+v", got)
	}

	tmpl := template.Must(template.New("t").Funcs(m.h.FuncMap()).Parse(`{{signIn "email"}}|{{signIn "credentials"}}`))
	req, _ := http.NewRequest(http.MethodGet, m.url+"/", nil)
	var out strings.Builder
	if err := tmpl.Funcs(m.h.Funcs(req)).Execute(&out, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`action="/auth/signin/email"`, `type="email" name="email"`, "Sign in with Email",
		`action="/auth/callback/credentials"`, `User &lt;name&gt; <input type="text" name="user">`, `type="password" name="pw" required`, "Sign in with Password",
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("signIn helper lacks %s:\n%s", want, out.String())
		}
	}
}

// TestEmailSendLimit: past the per-address limit the form answers 429 with
// Retry-After and sends nothing, for a known address as for an unknown
// one; the per-client limit covers many addresses.
func TestEmailSendLimit(t *testing.T) {
	m := newMailApp(t, func(_ *gatehouse.Config, e *email.Config) {
		e.PerIdentifier = limit.NewMemory(2, time.Hour)
		e.PerIP = limit.NewMemory(6, time.Hour)
	})
	if _, err := m.db.CreateUser(context.Background(), adapter.User{Email: "known@example.com"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	for _, addr := range []string{"known@example.com", "unknown@example.com"} {
		for i := range 3 {
			resp := m.requestLink(b, addr, "/")
			resp.Body.Close()
			want := http.StatusSeeOther
			if i == 2 {
				want = http.StatusTooManyRequests
			}
			if resp.StatusCode != want || (want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "3600") {
				t.Fatalf("%s, request %d: %d, Retry-After %q", addr, i+1, resp.StatusCode, resp.Header.Get("Retry-After"))
			}
		}
	}
	if n := len(m.mail.Messages()); n != 4 {
		t.Fatalf("%d messages sent, want 4", n)
	}
	// Four links asked for, two refused: the client has made 4 counted
	// requests of 6; two more addresses pass, the next is refused.
	m.requestLink(b, "a@example.com", "/").Body.Close()
	m.requestLink(b, "b@example.com", "/").Body.Close()
	if resp := m.requestLink(b, "c@example.com", "/"); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("per-client limit: %d", resp.StatusCode)
	}
}

// TestEmailLinkIgnoresHostHeader: a forged Host or X-Forwarded-Host does
// not change where the link points.
func TestEmailLinkIgnoresHostHeader(t *testing.T) {
	m := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.TrustHost = true })
	b := newBrowser(t)
	req, _ := http.NewRequest(http.MethodPost, m.url+"/auth/signin/email", strings.NewReader(url.Values{
		"csrfToken": {b.csrf(m.app)}, "email": {"victim@example.com"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Host", "evil.example")
	for _, c := range b.c.Jar.Cookies(req.URL) {
		req.AddCookie(c) // by hand: the jar sends nothing for a request whose Host differs
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/auth/verify-request?provider=email&type=email" {
		t.Fatalf("answered %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if link := m.receive().Link(); !strings.HasPrefix(link, m.url+"/auth/callback/email?") {
		t.Fatalf("the link follows the forged host: %s", link)
	}
}

// migratedPostgres is an adapter on a schema of the test's own.
func migratedPostgres(t *testing.T) adapter.Adapter {
	t.Helper()
	requirePostgres(t)
	schema, _ := pgSchema(t)
	a := pgAdapter(t, schema)
	if err := a.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestEmailScaleOut: a link asked for on one instance works on another
// that shares the secret and the PostgreSQL database, once.
func TestEmailScaleOut(t *testing.T) {
	db := migratedPostgres(t)
	first := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
	second := newMailApp(t, func(c *gatehouse.Config, _ *email.Config) { c.Adapter = db })
	first.requestLink(newBrowser(t), "scale@example.com", "/private").Body.Close()
	link := strings.Replace(first.receive().Link(), first.url, second.url, 1)
	b := newBrowser(t)
	// The link's callbackUrl names the first instance's origin, which the
	// second does not redirect to: it sends the browser home.
	resp, _ := b.signInWith(b.get(link))
	if resp.Request.URL.String() != second.url+"/" {
		t.Fatalf("on the second instance: %s", resp.Request.URL)
	}
	if _, body := b.signInWith(b.get(second.url + "/private")); body != "hello scale@example.com" {
		t.Fatalf("not signed in on the second instance: %q", body)
	}
	again := newBrowser(t).get(strings.Replace(link, second.url, first.url, 1))
	if loc := again.Header.Get("Location"); loc != "/auth/error?code=invalid_token&error=Verification" {
		t.Fatalf("the link worked twice across instances: %q", loc)
	}
}
