package gatehouse_test

import (
	"html"
	"html/template"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestSignInHelperMatchesPage: the {{signIn "dev"}} form on the
// application's own page and the built-in sign-in page's button post the
// same fields (the CSRF token and the callback URL) to the same route,
// and the route accepts either with the same answer: a redirect to the
// provider.
func TestSignInHelperMatchesPage(t *testing.T) {
	op := newOP(t, authtest.Options{})
	var h *gatehouse.Handler
	mux := http.NewServeMux()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.Middleware(mux).ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var err error
	h, err = gatehouse.New(gatehouse.Config{
		Secret: []string{testSecret}, URL: srv.URL + "/auth",
		Providers:  []providers.Provider{devProvider(op)},
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("p").Funcs(h.FuncMap()).Parse(`<html><body>{{signIn "dev"}}</body></html>`))
	mux.Handle("/auth/", h)
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Execute(w, r, tmpl, nil); err != nil {
			t.Error(err)
		}
	})

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) string {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	type form struct {
		action string
		fields url.Values
	}
	formRe := regexp.MustCompile(`(?s)<form[^>]*action="([^"]*/signin/dev)"[^>]*>(.*?)</form>`)
	hiddenRe := regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	parse := func(page, what string) form {
		m := formRe.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s: no form posting to /signin/dev:\n%s", what, page)
		}
		f := form{action: html.UnescapeString(m[1]), fields: url.Values{}}
		for _, h := range hiddenRe.FindAllStringSubmatch(m[2], -1) {
			f.fields.Add(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
		}
		return f
	}
	get(srv.URL + "/page") // the CSRF cookie
	helper := parse(get(srv.URL+"/page"), "helper")
	page := parse(get(srv.URL+"/auth/signin?callbackUrl="+url.QueryEscape(srv.URL+"/page")), "sign-in page")

	abs := func(s string) string {
		u, _ := url.Parse(srv.URL + "/")
		r, _ := u.Parse(s)
		return r.String()
	}
	if abs(helper.action) != abs(page.action) {
		t.Errorf("actions differ: helper %q, page %q", helper.action, page.action)
	}
	names := func(v url.Values) []string {
		var n []string
		for k := range v {
			n = append(n, k)
		}
		slices.Sort(n)
		return n
	}
	if hn, pn := names(helper.fields), names(page.fields); !slices.Equal(hn, pn) || !slices.Equal(hn, []string{"callbackUrl", "csrfToken"}) {
		t.Errorf("fields differ: helper %v, page %v", hn, pn)
	}
	if helper.fields.Get("csrfToken") != page.fields.Get("csrfToken") {
		t.Errorf("CSRF tokens differ")
	}
	if abs(helper.fields.Get("callbackUrl")) != abs(page.fields.Get("callbackUrl")) {
		t.Errorf("callback URLs differ: helper %q, page %q", helper.fields.Get("callbackUrl"), page.fields.Get("callbackUrl"))
	}
	for _, f := range []form{helper, page} {
		resp, err := c.PostForm(abs(f.action), f.fields)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || loc == nil || loc.Host != mustHost(op.Issuer()) {
			t.Errorf("posting %v: %d to %q, want 303 to the provider", f.fields, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
}

func mustHost(s string) string {
	u, _ := url.Parse(s)
	return u.Host
}
