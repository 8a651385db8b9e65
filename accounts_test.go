package gatehouse_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// linkedApp is an app with two OpenID providers, dev and corp, and an
// adapter; unlinked records Events.UnlinkAccount.
func linkedApp(t *testing.T) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	return linkedAppWith(t, nil)
}

// linkedAppWith is linkedApp with more configuration.
func linkedAppWith(t *testing.T, more func(*gatehouse.Config)) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	corp := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(corp.Close)
	st = openStore(t, "memory")
	var mu sync.Mutex
	unlinked = &[]string{}
	a, _ = newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp", Type: providers.TypeOIDC, Issuer: corp.Issuer(),
			ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		})
		cfg.Events.UnlinkAccount = func(_ context.Context, u profile.User, acct account.Account) {
			mu.Lock()
			defer mu.Unlock()
			*unlinked = append(*unlinked, u.Email+" "+acct.Provider)
		}
		if more != nil {
			more(cfg)
		}
	})
	return a, st, unlinked
}

func (b *browser) accounts(a *app) (int, []map[string]any) { return b.getList(a, "/auth/accounts") }

// getList GETs path at the app and decodes a JSON list of objects.
func (b *browser) getList(a *app, path string) (int, []map[string]any) {
	b.t.Helper()
	resp := b.get(a.url + path)
	defer resp.Body.Close()
	var out []map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (b *browser) unlink(a *app, provider string) (int, string) {
	b.t.Helper()
	resp := b.post(a.url+"/auth/accounts/unlink/"+provider, url.Values{"csrfToken": {b.csrf(a)}})
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestAccountLinks: GET {base}/accounts lists the signed-in user's linked
// providers; POST {base}/accounts/unlink/{provider} removes one, but never
// the last way to sign in; the event is told.
func TestAccountLinks(t *testing.T) {
	a, st, unlinked := linkedApp(t)
	b := newBrowser(t)
	if code, _ := b.accounts(a); code != http.StatusUnauthorized {
		t.Fatalf("accounts without a session: %d", code)
	}
	signedIn(t, a, b)
	if code, list := b.accounts(a); code != http.StatusOK || len(list) != 1 || list[0]["provider"] != "dev" || list[0]["name"] != "Development" {
		t.Fatalf("accounts: %d %v", code, list)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusConflict || !json.Valid([]byte(body)) {
		t.Fatalf("unlinking the last account: %d %s", code, body)
	}
	// Link corp: a sign-in with it while signed in, started by this session.
	b.signIn(a, "corp", "/")
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("after linking corp: %v", list)
	}
	if code, body := b.unlink(a, "nobody"); code != http.StatusNotFound {
		t.Fatalf("unlinking an unknown provider: %d %s", code, body)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusOK {
		t.Fatalf("unlinking dev: %d %s", code, body)
	}
	if _, list := b.accounts(a); len(list) != 1 || list[0]["provider"] != "corp" {
		t.Fatalf("after unlinking dev: %v", list)
	}
	if len(*unlinked) != 1 || (*unlinked)[0] != "alice@example.com dev" {
		t.Fatalf("UnlinkAccount events: %q", *unlinked)
	}
	if _, err := st.raw.GetAccount(context.Background(), "dev", "alice"); err == nil {
		t.Fatal("the dev account is still stored")
	}
	// The token is not in the listing.
	resp := b.get(a.url + "/auth/accounts")
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{"access_token", "refresh_token", "accessToken", "id_token"} {
		if strings.Contains(strings.ToLower(string(raw)), strings.ToLower(secret)) {
			t.Fatalf("the listing shows %s: %s", secret, raw)
		}
	}
}

// TestUnlinkRefusesCrossSite: a form on another site cannot unlink.
func TestUnlinkRefusesCrossSite(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	resp := b.crossSitePost(a.url+"/auth/accounts/unlink/dev", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site unlink: %d", resp.StatusCode)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("accounts after the refused unlink: %v", list)
	}
}

// TestConcurrentUnlinks: of two unlinks at once of the user's last two
// accounts, one wins; the user keeps a way to sign in.
func TestConcurrentUnlinks(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	csrf := b.csrf(a)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i, prov := range []string{"dev", "corp"} {
		wg.Go(func() {
			resp := b.post(a.url+"/auth/accounts/unlink/"+prov, url.Values{"csrfToken": {csrf}})
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	if _, list := b.accounts(a); len(list) != 1 {
		t.Fatalf("codes %v, accounts left %v", codes, list)
	}
}

// page GETs u as a browser navigation (Accept: text/html) and returns
// the answer with its body.
func (b *browser) page(u string) (*http.Response, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	resp := b.do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// submit POSTs form to u as a browser's form does (Accept: text/html).
func (b *browser) submit(u string, form url.Values) (*http.Response, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html,*/*;q=0.8")
	resp := b.do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// pageForm finds the form on page whose action ends with suffix and
// returns its absolute action and its hidden fields.
func pageForm(t *testing.T, a *app, page, suffix string) (string, url.Values) {
	t.Helper()
	for _, m := range regexp.MustCompile(`(?s)<form action="([^"]*)" method="post">(.*?)</form>`).FindAllStringSubmatch(page, -1) {
		action := html.UnescapeString(m[1])
		if !strings.HasSuffix(action, suffix) {
			continue
		}
		form := url.Values{}
		for _, f := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`).FindAllStringSubmatch(m[2], -1) {
			form.Set(f[1], html.UnescapeString(f[2]))
		}
		if !strings.HasPrefix(action, "http") {
			action = a.url + action
		}
		return action, form
	}
	t.Fatalf("no form posting to …%s on the page:\n%s", suffix, page)
	return "", nil
}

// TestAccountsPage: a browser opening GET {base}/accounts gets the built-in
// page (signed out: sent to sign in and back); it links another provider
// from the page's own form (a sign-in started by this session), unlinks
// one with a form (303 back to the page, which says so), and is shown
// the page with the refusal (409) for the last way to sign in. The JSON
// answer says canUnlink. LinkAccount and UnlinkAccount are told.
func TestAccountsPage(t *testing.T) {
	var mu sync.Mutex
	var linked []string
	a, _, unlinked := linkedAppWith(t, func(cfg *gatehouse.Config) {
		cfg.Events.LinkAccount = func(_ context.Context, u profile.User, acct account.Account) {
			mu.Lock()
			defer mu.Unlock()
			linked = append(linked, u.Email+" "+acct.Provider)
		}
	})
	b := newBrowser(t)
	resp, _ := b.page(a.url + "/auth/accounts")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || loc != "/auth/signin?callbackUrl="+url.QueryEscape(a.url+"/auth/accounts") && loc != a.url+"/auth/signin?callbackUrl="+url.QueryEscape(a.url+"/auth/accounts") {
		t.Fatalf("the page without a session: %d to %q", resp.StatusCode, loc)
	}

	signedIn(t, a, b)
	resp, page := b.page(a.url + "/auth/accounts")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{"<h1>Linked accounts</h1>", "<strong>Development</strong>", "cannot be unlinked", "<span>Link Corp</span>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "/accounts/unlink/") || strings.Contains(page, "Link Development") {
		t.Errorf("the page offers to unlink the last way, or to link a linked provider:\n%s", page)
	}
	if _, list := b.accounts(a); len(list) != 1 || list[0]["canUnlink"] != false {
		t.Fatalf("JSON with one account: %v", list)
	}

	// Link Corp with the page's own form: a sign-in started by this
	// session, back to the page, which says so.
	action, form := pageForm(t, a, page, "/signin/corp")
	if form.Get("csrfToken") == "" || form.Get("callbackUrl") != a.url+"/auth/accounts?linked=corp" {
		t.Fatalf("the link form sends %v", form)
	}
	resp = b.follow(b.post(action, form))
	resp.Body.Close()
	if resp.Request.URL.String() != a.url+"/auth/accounts?linked=corp" {
		t.Fatalf("linking landed on %s (hops %v)", resp.Request.URL, b.hops)
	}
	_, page = b.page(a.url + "/auth/accounts?linked=corp")
	if !strings.Contains(page, `role="status">Linked Corp.</p>`) || strings.Count(page, ">Unlink</button>") != 2 || strings.Contains(page, "Link another account") {
		t.Fatalf("the page after linking:\n%s", page)
	}
	if _, list := b.accounts(a); len(list) != 2 || list[0]["canUnlink"] != true || list[1]["canUnlink"] != true {
		t.Fatalf("JSON with two accounts: %v", list)
	}

	// Unlink Development with its form: first the question, naming what
	// remains; nothing is unlinked yet.
	action, form = pageForm(t, a, page, "/accounts/unlink/dev")
	resp, page = b.submit(action, form)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Unlink Development?</h2>") ||
		!strings.Contains(page, "You can still sign in with: Corp.") || !strings.Contains(page, `name="confirm" value="yes"`) {
		t.Fatalf("unlink from the page asks first: %d\n%s", resp.StatusCode, page)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("the question unlinked: %v", list)
	}
	// The confirmation's form: 303 back to the page.
	action, form = pageForm(t, a, page, "/accounts/unlink/dev")
	if form.Get("confirm") != "yes" {
		t.Fatalf("the first unlink form on the question is not the confirmation: %v", form)
	}
	resp, _ = b.submit(action, form)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "/auth/accounts?unlinked=dev") {
		t.Fatalf("unlink from the page: %d to %q", resp.StatusCode, loc)
	}
	_, page = b.page(a.url + "/auth/accounts?unlinked=dev")
	if !strings.Contains(page, `role="status">Unlinked Development.</p>`) || !strings.Contains(page, "<strong>Corp</strong>") ||
		strings.Contains(page, "<strong>Development</strong>") || strings.Contains(page, ">Unlink</button>") || !strings.Contains(page, "<span>Link Development</span>") {
		t.Fatalf("the page after unlinking:\n%s", page)
	}

	// The last way: refused, the page shown with the alert.
	resp, page = b.submit(a.url+"/auth/accounts/unlink/corp", url.Values{"csrfToken": {b.csrf(a)}})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(page, `role="alert">Corp was not unlinked: it is your only way to sign in.`) {
		t.Fatalf("unlinking the last way from the page: %d\n%s", resp.StatusCode, page)
	}
	resp, page = b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {b.csrf(a)}})
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(page, `role="alert">That account is not linked`) {
		t.Fatalf("unlinking what is not linked from the page: %d\n%s", resp.StatusCode, page)
	}

	// The notice says only what the list confirms.
	for _, q := range []string{"?linked=dev", "?unlinked=corp", "?linked=%3Cb%3Ex", "?unlinked=nobody"} {
		if _, page := b.page(a.url + "/auth/accounts" + q); strings.Contains(page, `role="status"`) {
			t.Errorf("%s shows a notice", q)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// As Auth.js: the first sign-in links its account too.
	if len(linked) != 2 || linked[0] != "alice@example.com dev" || linked[1] != "alice@example.com corp" {
		t.Errorf("LinkAccount events: %q", linked)
	}
	if len(*unlinked) != 1 || (*unlinked)[0] != "alice@example.com dev" {
		t.Errorf("UnlinkAccount events: %q", *unlinked)
	}
}

// TestAccountsPageFormChecks: the page's forms get the same checks as the
// JSON routes: without the CSRF token, or from another site, nothing is
// unlinked; signed out, a form is sent to sign in.
func TestAccountsPageFormChecks(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	if resp, _ := b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {b.csrf(a)}}); resp.StatusCode != http.StatusSeeOther ||
		!strings.Contains(resp.Header.Get("Location"), "/auth/signin?callbackUrl=") {
		t.Fatalf("a signed-out form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	// Without the token (or a stale one): the page again, a fresh token in its forms.
	resp, page := b.submit(a.url+"/auth/accounts/unlink/dev", url.Values{"csrfToken": {"stale"}})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(page, `role="alert">Nothing was unlinked: the form had expired.`) {
		t.Fatalf("a form with a stale token: %d\n%s", resp.StatusCode, page)
	}
	if _, form := pageForm(t, a, page, "/accounts/unlink/dev"); form.Get("csrfToken") != b.csrf(a) {
		t.Fatalf("the page after a stale form carries the token %q", form.Get("csrfToken"))
	}
	// From another site: sent to the sign-in page's banner, as a cross-site
	// sign-out is; nothing of the accounts.
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/accounts/unlink/dev", strings.NewReader(url.Values{"csrfToken": {b.csrf(a)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp = b.do(req)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "code=cross_site") {
		t.Fatalf("a cross-site form: %d to %q", resp.StatusCode, loc)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("accounts after the refused forms: %v", list)
	}
}
