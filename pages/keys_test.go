package pages_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// ExampleAPIKeys renders the keys page right after a key was made (the
// page its POST is redirected to): the key is shown this once, and the
// key listed shows only its start.
func ExampleAPIKeys() {
	page := pages.APIKeys{
		CSRFToken:  "4b3c…",
		Secret:     "gh_0123456789abcdef_s3cr3t",
		SecretName: "deploy",
		Keys: []pages.APIKeyRow{{Name: "deploy", Start: "gh_0123456789abcdef", Permissions: []string{"report:read"},
			Created: "2027-01-03 10:00 UTC", RotateURL: "/auth/api-keys/0123456789abcdef/rotate",
			RevokeURL: "/auth/api-keys/0123456789abcdef/revoke"}},
		CreateURL:   "/auth/api-keys",
		Permissions: []string{"report:read", "report:write"},
		MaxDays:     90,
	}
	rec := httptest.NewRecorder()
	if err := pages.Render(rec, 200, page); err != nil {
		fmt.Println(err)
		return
	}
	body := rec.Body.String()
	fmt.Println(strings.Count(body, "s3cr3t"), rec.Header().Get("Cache-Control"))
	fmt.Println(strings.Count(body, `type="checkbox" name="permissions"`))
	fmt.Println(strings.Contains(body, `<summary>Revoke deploy…</summary>`))
	// Output:
	// 1 no-store
	// 2
	// true
}

// TestAPIKeysPage: names and permissions are users' input, shown as
// text; the page without Secret shows no key field; each form carries
// the CSRF token; a revoked key offers no rotate or revoke.
func TestAPIKeysPage(t *testing.T) {
	evil := `<script>alert(1)</script>"'`
	page := pages.APIKeys{CSRFToken: "tok", Notice: evil, Error: evil, Secret: evil, SecretName: evil, CreateURL: "/c",
		Permissions: []string{evil}, Keys: []pages.APIKeyRow{
			{Name: evil, Start: evil, Organization: evil, Permissions: []string{evil}, Created: evil, RotateURL: "/r", RevokeURL: "/v"},
			{Name: "old", Start: "gh_old", Created: "then", Revoked: "later"}}}
	rec := httptest.NewRecorder()
	if err := pages.Render(rec, 200, page); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	if strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("not escaped:\n%s", body)
	}
	if forms, tokens := strings.Count(body, "<form"), strings.Count(body, `name="csrfToken" value="tok"`); forms != 3 || tokens != forms {
		t.Errorf("%d forms (want create, rotate and revoke of the live key), %d with the CSRF token", forms, tokens)
	}
	page.Secret = ""
	rec = httptest.NewRecorder()
	if err := pages.Render(rec, 200, page); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.Body.String(), `id="new-key"`) {
		t.Error("a key field without a key")
	}
}
