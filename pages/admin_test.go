package pages_test

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// adminPages are the admin pages with every form shown and the users'
// own text (names, addresses, a ban's reason, a device) hostile.
func adminPages(evil string) map[string]any {
	return map[string]any{
		"users": pages.AdminUsers{CSRFToken: "tok", ListURL: "/auth/admin/users", Search: evil, Role: "admin", Banned: true,
			Users:   []pages.AdminUserRow{{Name: evil, Email: evil, URL: "/auth/admin/users/1", Role: "admin", Banned: true}},
			NextURL: "/auth/admin/users?after=1", FirstURL: "/auth/admin/users", CreateURL: "/auth/admin/users", Password: true,
			Notice: evil, Error: evil},
		"user": pages.AdminUser{CSRFToken: "tok", ID: evil, Name: evil, Email: evil, Role: "user", Unverified: true,
			Ban:      &pages.AdminBan{Reason: evil, By: evil, At: "2026-01-01 00:00 UTC", Expires: "2026-02-01 00:00 UTC"},
			Accounts: []pages.AdminAccountRow{{Provider: evil, AccountID: evil}},
			Sessions: []pages.SessionRow{{ID: evil, Device: evil, Provider: evil, Expires: "2026-02-01"}}, RevokeSessionURL: "/r",
			RoleURL: "/role", BanURL: "/ban", UnbanURL: "/unban", RevokeSessionsURL: "/rs", PasswordURL: "/pw",
			ImpersonateURL: "/imp", DeleteURL: "/del", ListURL: "/auth/admin/users", Notice: evil},
	}
}

// TestAdminPagesEscape: what users typed (names, addresses) and what an
// administrator typed (a ban's reason, a search) is shown as text.
func TestAdminPagesEscape(t *testing.T) {
	evil := `<script>alert(1)</script>"'`
	checkEscaped(t, adminPages(evil))
}

// checkEscaped renders each page, named, whose fields hold a script tag,
// and fails unless every page shows it as text.
func checkEscaped(t *testing.T, named map[string]any) {
	t.Helper()
	for name, page := range named {
		rec := httptest.NewRecorder()
		if err := pages.Render(rec, 200, page); err != nil {
			t.Fatal(err)
		}
		if body := rec.Body.String(); strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
			t.Errorf("%s: not escaped:\n%s", name, body)
		}
	}
}

// TestAdminPagesForms: every POST form carries the CSRF token, the
// search form (a GET) does not, the delete form needs its checkbox, and
// each input has a label.
func TestAdminPagesForms(t *testing.T) {
	form := regexp.MustCompile(`(?s)<form[^>]*>.*?</form>`)
	for name, page := range adminPages("x") {
		rec := httptest.NewRecorder()
		if err := pages.RenderIn(rec, pages.Language{Tag: "de"}, 200, page); err != nil {
			t.Fatal(err)
		}
		body := rec.Body.String()
		forms := form.FindAllString(body, -1)
		if len(forms) < 2 {
			t.Fatalf("%s: %d forms", name, len(forms))
		}
		for _, f := range forms {
			post := strings.Contains(f, `method="post"`)
			if has := strings.Contains(f, `<input type="hidden" name="csrfToken" value="tok">`); has != post {
				t.Errorf("%s: a form (post %v) with CSRF field %v:\n%s", name, post, has, f)
			}
		}
		for _, id := range regexp.MustCompile(`<(?:input|select|textarea) id="([^"]+)"`).FindAllStringSubmatch(body, -1) {
			if !strings.Contains(body, `<label for="`+id[1]+`">`) {
				t.Errorf("%s: input %s has no label", name, id[1])
			}
		}
		if strings.Contains(body, "admin.") {
			t.Errorf("%s: a catalogue key shows instead of its German text", name)
		}
	}
	rec := httptest.NewRecorder()
	_ = pages.Render(rec, 200, adminPages("x")["user"])
	if !regexp.MustCompile(`<form action="/del" method="post">.*<input id="delete-confirm" name="confirm" type="checkbox" value="1" required>`).MatchString(rec.Body.String()) {
		t.Error("the delete form has no required confirmation")
	}
}
