package e2e

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/chromedp"
)

// TestSignInAndOutOverHTTPS runs the example behind a TLS-terminating
// proxy, its AUTH_URL on https, as a deployment does: the library then
// names every cookie with the __Host- prefix, and the same-origin check
// compares the browser's https Origin with the public origin. Chromium
// must accept the cookies (a __Host- cookie it refuses would break the
// sign-in at the callback) and the whole round trip must work: sign in
// through the development provider, which lives on the example's plain
// http port, so the callback arrives from another site, then sign out.
func TestSignInAndOutOverHTTPS(t *testing.T) {
	t.Parallel()
	ctx := newBrowser(t)
	// The proxy's certificate is httptest's own.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, security.SetIgnoreCertificateErrors, security.SetIgnoreCertificateErrorsParams{Ignore: true})
		return err
	})); err != nil {
		t.Fatal(err)
	}

	port := freePort(t)
	backend := &url.URL{Scheme: "http", Host: "127.0.0.1:" + port}
	// The proxy sends the backend's Host, as many do: the library reads
	// its public origin from AUTH_URL.
	proxy := httptest.NewUnstartedServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backend)
		r.SetXForwarded()
	}})
	// Chromium's first try of each connection refuses the certificate
	// before the override applies; the server's log of it is noise.
	proxy.Config.ErrorLog = log.New(io.Discard, "", 0)
	proxy.StartTLS()
	t.Cleanup(proxy.Close)
	site := proxy.URL // https://127.0.0.1:<proxy port>
	startExample(t, map[string]string{"ADDR": backend.Host, "AUTH_URL": site + "/auth"})

	load(t, ctx, "opening /private", chromedp.Navigate(site+"/private"))
	wantPath(t, ctx, "/auth/signin")
	resp := signInAsAlice(t, ctx)
	wantStatus(t, resp, 200)
	if u := wantPath(t, ctx, "/private"); u.Scheme != "https" {
		t.Fatalf("signed in on %s, want the https site", u)
	}
	mustBody(t, ctx, "Alice Example")

	jar := browserCookies(t, ctx, site+"/")
	var names []string
	for _, c := range jar {
		names = append(names, c.Name)
		if !strings.HasPrefix(c.Name, "__Host-") || !c.Secure || c.Path != "/" || strings.HasPrefix(c.Domain, ".") {
			t.Errorf("cookie %s (Secure %v, Path %q, Domain %q): want a __Host- cookie, Secure, Path=/, host-only", c.Name, c.Secure, c.Path, c.Domain)
		}
	}
	for _, want := range []string{"__Host-authjs.session-token", "__Host-authjs.csrf-token"} {
		if !strings.Contains(strings.Join(names, " ")+" ", want+" ") {
			t.Errorf("the browser holds %v, want %s among them", names, want)
		}
	}

	load(t, ctx, "opening the sign-out page", chromedp.Navigate(site+"/auth/signout"))
	resp = click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	wantStatus(t, resp, 200)
	wantBody(t, ctx, "You are not signed in.")
	for _, c := range browserCookies(t, ctx, site+"/") {
		if strings.HasPrefix(c.Name, "__Host-authjs.session-token") {
			t.Errorf("after signing out the browser still holds %s", c.Name)
		}
	}
}

// browserCookies returns the cookies the browser would send to rawURL.
func browserCookies(t *testing.T, ctx context.Context, rawURL string) []*network.Cookie {
	t.Helper()
	var jar []*network.Cookie
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{rawURL}})
		jar = res.Cookies
		return err
	}))
	if err != nil {
		t.Fatalf("reading the browser's cookies: %v", err)
	}
	return jar
}
