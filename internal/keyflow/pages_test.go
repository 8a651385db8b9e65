package keyflow_test

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

// pageAnswer is what a browser got: status, headers and body.
type pageAnswer struct {
	status int
	header http.Header
	body   string
}

// page sends what a browser's navigation or form sends (Accept:
// text/html): a GET, or a same-origin POST of form with the CSRF token.
func (b *browser) page(method, path string, form url.Values) pageAnswer {
	b.e.t.Helper()
	var body io.Reader
	if method == http.MethodPost {
		if form.Get("csrfToken") == "" {
			form.Set("csrfToken", b.token())
		}
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.e.srv.URL+path, body)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", b.e.srv.URL)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return pageAnswer{resp.StatusCode, resp.Header, string(raw)}
}

// shownKey finds the new key on a page.
var shownKey = regexp.MustCompile(`id="new-key"[^>]*value="(gh_[A-Za-z0-9]+_[A-Za-z0-9]+)"`)

// TestKeysPage walks a key through the page: made with a hostile name,
// a checkbox and an expiry in days; its key shown once, on the page the
// POST is redirected to (never in a URL, in clear in a cookie, or on a
// later GET, and not cached); rotated, shown once more; revoked.
func TestKeysPage(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.MachineAccess.MaxLifetime = 30 * 24 * time.Hour })
	_, b := e.user("ada@example.com", "report:read", "report:write")

	a := b.page(http.MethodGet, "/auth/api-keys", nil)
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET page = %d %s", a.status, a.header.Get("Content-Type"))
	}
	for _, want := range []string{`name="csrfToken"`, `type="checkbox" name="permissions" value="report:read"`,
		`value="report:write"`, `name="expiresInDays"`, `max="30"`, "You have no API keys yet."} {
		if !strings.Contains(a.body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n, forms := strings.Count(a.body, `name="csrfToken"`), strings.Count(a.body, "<form"); n != forms {
		t.Errorf("%d forms, %d with the CSRF token", forms, n)
	}

	const hostile = `<script>alert(1)</script>"'`
	key, post, a := b.formKey(t, "/auth/api-keys", url.Values{"name": {hostile}, "permissions": {"report:read"}, "expiresInDays": {"7"}})
	secret := key[strings.LastIndex(key, "_")+1:]
	if strings.Contains(a.body, "<script>alert") || !strings.Contains(a.body, html.EscapeString("<script>alert(1)</script>")) {
		t.Error("the key's name is not escaped")
	}
	if status, _ := e.withKey(http.MethodGet, "/api", key, nil); status != http.StatusOK {
		t.Fatalf("the key shown does not work: %d", status)
	}
	_, list := b.do(http.MethodGet, "/auth/api-keys", nil, nil)
	k := list["keys"].([]any)[0].(map[string]any)
	id := k["id"].(string)
	exp, _ := time.Parse(time.RFC3339, k["expires"].(string))
	if perms := k["permissions"].([]any); len(perms) != 1 || perms[0] != "report:read" || time.Until(exp) < 6*24*time.Hour || time.Until(exp) > 7*24*time.Hour {
		t.Errorf("made %v; want report:read alone, expiring in 7 days", k)
	}

	// Reloaded: the GET again, which neither makes a key nor shows one.
	a = b.page(http.MethodGet, "/auth/api-keys", nil)
	if strings.Contains(a.body, secret) || !strings.Contains(a.body, "gh_"+id) || strings.Contains(a.body, "<script>alert") {
		t.Fatalf("the page after: the secret %v, the start %v, an unescaped name %v",
			strings.Contains(a.body, secret), strings.Contains(a.body, "gh_"+id), strings.Contains(a.body, "<script>alert"))
	}
	if _, list = b.do(http.MethodGet, "/auth/api-keys", nil, nil); len(list["keys"].([]any)) != 1 {
		t.Errorf("%d keys after the page was reloaded; want 1", len(list["keys"].([]any)))
	}
	// The sealed cookie sent again (kept by a browser past its clearing)
	// is another user's: it shows nothing to anyone else.
	_, other := e.user("eve@example.com")
	su, _ := url.Parse(e.srv.URL)
	other.jar.SetCookies(su, []*http.Cookie{post})
	if a = other.page(http.MethodGet, "/auth/api-keys", nil); strings.Contains(a.body, secret) || strings.Contains(a.body, `id="new-key"`) {
		t.Error("another user's browser, sent the sealed cookie, shows the key")
	}

	rotated, _, _ := b.formKey(t, "/auth/api-keys/"+id+"/rotate", url.Values{})
	if rotated == key || !strings.HasPrefix(rotated, "gh_"+id+"_") {
		t.Fatalf("rotate showed %q; want a new key for %s", rotated, id)
	}
	if a = b.page(http.MethodGet, "/auth/api-keys", nil); strings.Contains(a.body, rotated[strings.LastIndex(rotated, "_")+1:]) {
		t.Error("a later GET shows the rotated secret")
	}
	m := []string{"", rotated}

	a = b.page(http.MethodPost, "/auth/api-keys/"+id+"/revoke", url.Values{})
	if a.status != http.StatusSeeOther || a.header.Get("Location") != e.srv.URL+"/auth/api-keys?done=revoked" {
		t.Fatalf("revoke = %d to %q; want 303 back to the page", a.status, a.header.Get("Location"))
	}
	if status, _ := e.withKey(http.MethodGet, "/api", m[1], nil); status != http.StatusUnauthorized {
		t.Errorf("the revoked key: %d", status)
	}
	a = b.page(http.MethodGet, "/auth/api-keys?done=revoked", nil)
	if !strings.Contains(a.body, "Key revoked.") || strings.Contains(a.body, "/revoke") || !strings.Contains(a.body, "revoked 20") {
		t.Errorf("the page after revoking lacks the notice or the revoked state, or offers a revoke")
	}
}

// formKey posts a page's form that makes a key (a creation or a
// rotation) and follows its redirect: the POST must answer 303 to the
// page, its Location free of the key, and set the sealed cookie (the
// key not in it in clear); the page then shows the key, not cached, and
// clears the cookie. It returns the key, the cookie and the page.
func (b *browser) formKey(t *testing.T, path string, form url.Values) (string, *http.Cookie, pageAnswer) {
	t.Helper()
	a := b.page(http.MethodPost, path, form)
	if a.status != http.StatusSeeOther || a.header.Get("Location") != b.e.srv.URL+"/auth/api-keys" {
		t.Fatalf("POST %s = %d to %q; want 303 to the page:\n%s", path, a.status, a.header.Get("Location"), a.body)
	}
	if shownKey.MatchString(a.body) {
		t.Error("the answer to the POST shows the key")
	}
	var sealed *http.Cookie
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.Name == "gatehouse.new-key" {
			sealed = c
		}
	}
	if sealed == nil || sealed.Value == "" || !sealed.HttpOnly || sealed.MaxAge <= 0 || sealed.MaxAge > 60 {
		t.Fatalf("the POST's cookie = %v; want gatehouse.new-key, HttpOnly, for a minute at most", sealed)
	}
	a = b.page(http.MethodGet, "/auth/api-keys", nil)
	m := shownKey.FindStringSubmatch(a.body)
	if a.status != http.StatusOK || m == nil {
		t.Fatalf("the page after the POST = %d, without the key:\n%s", a.status, a.body)
	}
	key := m[1]
	if a.header.Get("Cache-Control") != "no-store" {
		t.Errorf("the page with the key: Cache-Control %q", a.header.Get("Cache-Control"))
	}
	secret := key[strings.LastIndex(key, "_")+1:]
	if strings.Contains(sealed.Value, secret) || strings.Contains(a.header.Get("Location"), secret) {
		t.Errorf("the key is in clear in the cookie %q or a Location", sealed.Value)
	}
	cleared := false
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		cleared = cleared || c.Name == "gatehouse.new-key" && c.MaxAge < 0
	}
	if !cleared {
		t.Error("the page that shows the key does not clear its cookie")
	}
	return key, sealed, a
}

// TestKeysPageRefusals: every refusal of a form comes back to the page
// as a readable alert, in the page's language.
func TestKeysPageRefusals(t *testing.T) {
	e := newEnv(t, memory.New(), nil, func(c *testConfig) { c.MachineAccess.MaxKeys = 1 })
	_, b := e.user("ada@example.com", "report:read")
	b.newKey("first", "report:read", nil)
	for _, tc := range []struct {
		name string
		form url.Values
		code string
		say  string
	}{
		{"too many", url.Values{"name": {"second"}}, "too_many_keys", "You have as many keys as allowed"},
		{"more than held", url.Values{"name": {"x"}, "permissions": {"report:write"}}, "insufficient_permissions", "You cannot give a key permissions"},
		{"no name", url.Values{"name": {""}}, "invalid_name", "Give the key a name"},
		{"bad expiry", url.Values{"name": {"x"}, "expiresInDays": {"0"}}, "invalid_expiry", "Choose an expiry"},
		{"no CSRF token", url.Values{"name": {"x"}, "csrfToken": {"forged"}}, "csrf", "The form had expired"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := b.page(http.MethodPost, "/auth/api-keys", tc.form)
			want := e.srv.URL + "/auth/api-keys?failed=" + tc.code
			if a.status != http.StatusSeeOther || a.header.Get("Location") != want {
				t.Fatalf("= %d to %q; want 303 to %s", a.status, a.header.Get("Location"), want)
			}
			if a = b.page(http.MethodGet, "/auth/api-keys?failed="+tc.code, nil); !strings.Contains(a.body, `role="alert">`+tc.say) {
				t.Errorf("the page does not say %q", tc.say)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/auth/api-keys?failed=too_many_keys", nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Accept-Language", "de")
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(raw), "API-Schlüssel") || !strings.Contains(string(raw), "Widerrufen Sie zuerst einen") {
		t.Error("the German page is not in German")
	}
}

// TestKeysPageAnonymous: nobody gets no page, but the sign-in page that
// comes back to it, as the JSON route answers them 401; a form posted
// without a session goes to sign in too.
func TestKeysPageAnonymous(t *testing.T) {
	e := newEnv(t, memory.New(), nil, nil)
	b := e.browser()
	a := b.page(http.MethodGet, "/auth/api-keys", nil)
	want := "/auth/signin?" + url.Values{"callbackUrl": {e.srv.URL + "/auth/api-keys"}}.Encode()
	if a.status != http.StatusFound || a.header.Get("Location") != want || strings.Contains(a.body, "<form") {
		t.Errorf("GET = %d to %q; want 302 to %s", a.status, a.header.Get("Location"), want)
	}
	if status, out := b.do(http.MethodGet, "/auth/api-keys", nil, nil); status != http.StatusUnauthorized || out["error"] != "SessionRequired" {
		t.Errorf("JSON GET = %d %v; want 401", status, out)
	}
	a = b.page(http.MethodPost, "/auth/api-keys", url.Values{"name": {"x"}})
	if a.status != http.StatusSeeOther || a.header.Get("Location") != want {
		t.Errorf("POST = %d to %q; want 303 to %s", a.status, a.header.Get("Location"), want)
	}
}
