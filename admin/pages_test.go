package admin_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/admin"
)

// page gets u as a browser's navigation (Accept: text/html).
func (b *browser) page(u string) (*http.Response, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept", "text/html")
	resp := b.Do(req)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// submit posts a page's form as a browser does (Accept: text/html), with
// the CSRF token the page holds.
func (b *browser) submit(u, body string, form url.Values) *http.Response {
	b.t.Helper()
	m := regexp.MustCompile(`name="csrfToken" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		b.t.Fatalf("no CSRF field on the page:\n%s", body)
	}
	form.Set("csrfToken", m[1])
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	p, _ := url.Parse(u)
	req.Header.Set("Origin", p.Scheme+"://"+p.Host)
	return b.Do(req)
}

// land gets the page a form's redirect resp points to.
func (b *browser) land(resp *http.Response) string {
	b.t.Helper()
	resp.Body.Close()
	loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
	if err != nil {
		b.t.Fatal(err)
	}
	_, body := b.page(loc.String())
	return body
}

// TestAdminPages: a browser gets the list and the user's page as HTML,
// the JSON stays for a program; a user who is not an administrator gets
// 404, nobody signed in is sent to sign in; the pages' forms ban and
// unban through the routes and come back with a notice, a refusal comes
// back with an alert, a deletion needs its confirmation box, and names
// are escaped.
func TestAdminPages(t *testing.T) {
	t.Parallel()
	s, ad := adminSite(t)
	bob := signedInAs(t, s, "bob")
	ctx := context.Background()
	evil, err := s.db.CreateUser(ctx, adapter.User{Email: "evil@example.com", Name: `<img src=x onerror=alert(1)>`})
	if err != nil {
		t.Fatal(err)
	}
	list := s.url + "/auth/admin/users"
	resp, body := ad.page(list + "?search=evil")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") || strings.Contains(body, "<img src=x") || strings.Contains(body, "bob@example.com") {
		t.Fatalf("the list searched for evil: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if code, v := ad.adminGet(s, "users?search=evil"); code != http.StatusOK || len(v["users"].([]any)) != 1 {
		t.Errorf("the JSON list: %d %v", code, v)
	}
	if resp, _ := bob.page(list); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a user gets the list page: %d; want 404", resp.StatusCode)
	}
	if resp, _ := bob.page(list + "/" + evil.ID); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a user gets a user's page: %d; want 404", resp.StatusCode)
	}
	if resp, _ := newBrowser(t).page(list); resp.StatusCode/100 != 3 || !strings.Contains(resp.Header.Get("Location"), "/auth/signin") {
		t.Errorf("nobody: %d to %s; want the sign-in page", resp.StatusCode, resp.Header.Get("Location"))
	}

	bobID := s.userID("bob@example.com")
	userURL := list + "/" + bobID
	_, body = ad.page(userURL)
	for _, f := range regexp.MustCompile(`(?s)<form action="([^"]+)" method="post"`).FindAllStringSubmatch(body, -1) {
		if !strings.HasPrefix(f[1], userURL+"/") {
			t.Errorf("a form of bob's page posts to %s", f[1])
		}
	}
	if n, m := strings.Count(body, `method="post"`), strings.Count(body, `name="csrfToken"`); n < 6 || n != m {
		t.Errorf("bob's page has %d forms and %d CSRF fields", n, m)
	}
	resp = ad.submit(userURL+"/ban", body, url.Values{"reason": {"spam"}, "expiresIn": {"3600"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != userURL+"?done=ban" {
		t.Fatalf("ban from the page: %d to %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	body = ad.land(resp)
	if !strings.Contains(body, "The user was banned") || !strings.Contains(body, "Reason: spam") || !strings.Contains(body, "Lift the ban") {
		t.Errorf("bob's page after the ban:\n%s", body)
	}
	if st, _ := s.store.UserStatus(ctx, bobID); st.Ban == nil || st.Ban.Reason != "spam" || st.Ban.Expires.IsZero() {
		t.Errorf("the stored ban: %+v", st.Ban)
	}
	if bob.private(s) {
		t.Error("bob's session survived the ban")
	}
	_, body = ad.page(list + "?banned=1")
	if !strings.Contains(body, "bob@example.com") || strings.Contains(body, "evil@example.com") {
		t.Errorf("the banned filter:\n%s", body)
	}
	_, body = ad.page(userURL)
	if resp := ad.submit(userURL+"/delete", body, url.Values{}); resp.Header.Get("Location") != userURL+"?failed=confirm" {
		t.Errorf("a deletion without the box: %d to %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	me := s.userID("admin@example.com")
	if _, own := ad.page(list + "/" + me); strings.Contains(own, `method="post"`) {
		t.Error("the administrator's own page offers actions on them")
	}
	if resp := ad.submit(list+"/"+me+"/ban", body, url.Values{}); resp.Header.Get("Location") != list+"/"+me+"?failed=self" {
		t.Errorf("a refused form: %d to %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, body = ad.page(userURL)
	resp = ad.submit(userURL+"/unban", body, url.Values{})
	if body := ad.land(resp); !strings.Contains(body, "The ban was lifted") {
		t.Errorf("after unban:\n%s", body)
	}
	if st, _ := s.store.UserStatus(ctx, bobID); st.Ban != nil {
		t.Errorf("still banned: %+v", st.Ban)
	}
	// A non-administrator's form is 404 too, and changes nothing.
	bob.mustSignIn(s, "oidc", "bob") // signed out by the ban
	body = `name="csrfToken" value="` + bob.csrf(s) + `"`
	if resp := bob.submit(list+"/"+evil.ID+"/role", body, url.Values{"role": {"admin"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a user's form: %d; want 404", resp.StatusCode)
	}
	if resp := bob.submit(list+"/"+evil.ID+"/role", `name="csrfToken" value="wrong"`, url.Values{"role": {"admin"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a user's form with a wrong token: %d; want 404", resp.StatusCode)
	}
	if st, _ := s.store.UserStatus(ctx, evil.ID); st.Role != admin.RoleUser {
		t.Errorf("evil's role: %s", st.Role)
	}
	// Create from the list page: back on the new user's page.
	_, body = ad.page(list)
	resp = ad.submit(list, body, url.Values{"email": {"dora@example.com"}, "name": {"Dora"}})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "?done=create") {
		t.Fatalf("create from the page: %d to %s", resp.StatusCode, loc)
	}
	if body := ad.land(resp); !strings.Contains(body, "The user was created") || !strings.Contains(body, "dora@example.com") {
		t.Errorf("the new user's page:\n%s", body)
	}
}
