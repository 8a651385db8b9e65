// Package mounttest checks a Handler mounted in an application's router,
// for the mounting tests of the library (http.ServeMux, StripPrefix, chi)
// and of examples/mount (gin, echo): a whole sign-in through the mounted
// Handler and an in-process provider.
package mounttest

import (
	"encoding/json"
	"html"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// testSecret is the sites' secret.
const testSecret = "test-secret-test-secret-test-secret-0123"

// Check serves the site that mount makes with a Handler whose Config.URL
// ends in base, signs in with the {{ signIn }} form of /page, and checks
// the routes, the session, /private and the links the Handler made. mount
// returns the application's router with auth mounted at base, private
// (behind Require) at /private and page (a template with {{ signIn }})
// at /page, wrapped in the Middleware or not, as the application does.
func Check(t *testing.T, base string, mount func(auth *gatehouse.Handler, private, page http.Handler) http.Handler) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	site := "http://" + ln.Addr().String()
	callback := site + base + "/callback/dev"
	// The provider knows one redirect URI: the callback on Config.URL.
	op := authtest.NewServer(authtest.Options{AutoApprove: true, RedirectURIs: []string{callback}})
	t.Cleanup(op.Close)
	h, err := gatehouse.New(gatehouse.Config{Secret: []string{testSecret}, URL: site + base,
		Providers: []providers.Provider{providers.OAuthConfig[profile.Claims]{ID: "dev", Name: "Development", Type: providers.TypeOIDC,
			Issuer: op.Issuer(), ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret}},
		HTTPClient: &http.Client{Timeout: 2 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	private := h.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+gatehouse.SessionFrom(r.Context()).User.Email)
	}))
	tmpl := template.Must(template.New("page").Funcs(h.FuncMap()).Parse(`<html><body>{{ signIn "dev" }}</body></html>`))
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Execute(w, r, tmpl, nil); err != nil {
			t.Error(err)
		}
	})
	srv := httptest.NewUnstartedServer(mount(h, private, page))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, u string, form url.Values) (*http.Response, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, u, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}

	// The routes answer under the base path, JSON with the base's links.
	resp, body := do("GET", site+base+"/providers", nil)
	var ps map[string]providers.AppProvider
	if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &ps) != nil ||
		ps["dev"].SigninURL != site+base+"/signin/dev" || ps["dev"].CallbackURL != callback {
		t.Fatalf("GET %s/providers: %d %s", base, resp.StatusCode, body)
	}
	if resp, body := do("GET", site+base+"/csrf", nil); resp.StatusCode != 200 || !strings.Contains(body, "csrfToken") {
		t.Fatalf("GET %s/csrf: %d %s", base, resp.StatusCode, body)
	}
	if resp, body := do("GET", site+base+"/session", nil); resp.StatusCode != 200 || strings.TrimSpace(body) != "null" {
		t.Fatalf("GET %s/session signed out: %d %s", base, resp.StatusCode, body)
	}
	if resp, _ := do("GET", site+base+"/nope", nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET %s/nope: %d, want 404", base, resp.StatusCode)
	}
	if resp, _ := do("PUT", site+base+"/session", nil); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, POST" {
		t.Fatalf("PUT %s/session: %d Allow %q, want 405 and GET, POST", base, resp.StatusCode, resp.Header.Get("Allow"))
	}

	// Require sends to the sign-in page on the base path.
	resp, _ = do("GET", site+"/private", nil)
	signIn, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(signIn.String(), site+base+"/signin?") {
		t.Fatalf("GET /private signed out: %d to %q, want the sign-in page under %s", resp.StatusCode, signIn, base)
	}
	if resp, body := do("GET", signIn.String(), nil); resp.StatusCode != 200 || !strings.Contains(body, base+"/signin/dev") {
		t.Fatalf("the sign-in page: %d\n%s", resp.StatusCode, body)
	}

	// The template's form posts to the base path, and signs in.
	_, body = do("GET", site+"/page", nil)
	m := regexp.MustCompile(`<form method="post" action="([^"]*)">(.*?)</form>`).FindStringSubmatch(body)
	if m == nil || html.UnescapeString(m[1]) != base+"/signin/dev" {
		t.Fatalf("the {{ signIn }} form does not post to %s/signin/dev:\n%s", base, body)
	}
	form := url.Values{}
	for _, f := range regexp.MustCompile(`name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(m[2], -1) {
		form.Set(html.UnescapeString(f[1]), html.UnescapeString(f[2]))
	}
	resp, _ = do("POST", site+html.UnescapeString(m[1]), form)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the form's POST: %d, want 303", resp.StatusCode)
	}
	for i := 0; resp.StatusCode >= 300 && resp.StatusCode < 400; i++ {
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if err != nil || i == 10 {
			t.Fatalf("redirect %d: %v", i, err)
		}
		if strings.HasPrefix(loc.String(), op.Issuer()) && loc.Query().Get("redirect_uri") != "" && loc.Query().Get("redirect_uri") != callback {
			t.Fatalf("redirect_uri %q, want %q", loc.Query().Get("redirect_uri"), callback)
		}
		resp, _ = do("GET", loc.String(), nil)
	}
	if resp.Request.URL.String() != site+"/page" || resp.StatusCode != 200 {
		t.Fatalf("the sign-in ended at %s with %d, want /page", resp.Request.URL, resp.StatusCode)
	}

	// Signed in: the session JSON and the page behind Require.
	_, body = do("GET", site+base+"/session", nil)
	var sess struct{ User struct{ Email string } }
	if json.Unmarshal([]byte(body), &sess) != nil || sess.User.Email != "alice@example.com" {
		t.Fatalf("GET %s/session signed in: %s", base, body)
	}
	if resp, body := do("GET", site+"/private", nil); resp.StatusCode != 200 || body != "hello alice@example.com" {
		t.Fatalf("GET /private signed in: %d %q", resp.StatusCode, body)
	}
}
