package orgflow_test

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// raw returns the page at path as a browser gets it, not unescaped.
func (c *client) raw(path string) string {
	c.s.t.Helper()
	req, _ := http.NewRequest("GET", c.s.srv.URL+path, nil)
	req.Header.Set("Accept", "text/html")
	resp, err := c.c.Do(req)
	if err != nil {
		c.s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// customRole returns the permissions of org's role name as c sees them,
// and whether there is one.
func customRole(c *client, org, name string) ([]string, bool) {
	for _, r := range c.view(org).Roles {
		if r.Name == name {
			return r.Permissions.Strings(), true
		}
	}
	return nil, false
}

// TestSettingsForms: the rename, delete, resend and custom-role forms of
// the settings page are shown only to a member whose role allows them
// (the routes' checks), a role form offers only the statements its
// editor holds, and each form posts to its route and comes back with
// what happened.
func TestSettingsForms(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	owner := s.user("owner@example.com", 0)
	org := owner.create("Acme")
	admin := owner.join(org, "admin@example.com", organization.Admin)
	member := owner.join(org, "member@example.com", organization.Member)
	carol := owner.join(org, "carol@example.com", organization.Member)
	inv, _ := owner.invite(org, "later@example.com", organization.Member)
	base := "/auth/organizations/" + org
	update, del, roles := base+"/update", base+"/delete", base+"/roles"
	resend := base + "/invitations/" + inv.ID + "/resend"

	// The owner's create-role form makes a role and comes back.
	st, loc, _ := owner.browse("POST", roles, url.Values{"name": {"viewer"}, "permission": {"project:read", "project:delete"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=roleCreated" {
		t.Fatalf("create a role: %d %q", st, loc)
	}
	if got, _ := customRole(owner, org, "viewer"); !slices.Equal(got, []string{"project:delete", "project:read"}) {
		t.Fatalf("the role created: %v", got)
	}
	st, loc, _ = owner.browse("POST", roles, url.Values{"name": {"editor"}, "permission": {"role:create", "role:update", "project:read"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=roleCreated" {
		t.Fatalf("create a second role: %d %q", st, loc)
	}
	if st, loc, _ = owner.browse("POST", base+"/members/"+carol.id+"/role", url.Values{"role": {"editor"}}); st != http.StatusSeeOther || !strings.HasSuffix(loc, "?done=role") {
		t.Fatalf("give carol the role: %d %q", st, loc)
	}
	viewer := func(action string) string { return roles + "/viewer/" + action }
	editor := func(action string) string { return roles + "/editor/" + action }

	_, _, page := owner.browse("GET", base, nil)
	got := forms(s, page)
	for _, want := range []string{update, del, roles, resend, viewer("update"), viewer("delete"), editor("update"), editor("delete")} {
		if !has(got, want) {
			t.Errorf("the owner's page lacks the form %s: %v", want, got)
		}
	}
	if has(got, roles+"/admin/update") || has(got, roles+"/member/delete") || !strings.Contains(page, `name="permission" value="organization:delete"`) ||
		!strings.Contains(page, `value="acme"`) || !strings.Contains(page, `id="delete-confirm" name="confirm" type="checkbox" value="1" required`) {
		t.Errorf("the owner's page: built-in roles are not edited; every statement is offered; the slug is filled in; delete is confirmed: %v\n%s", got, page)
	}

	_, _, page = admin.browse("GET", base, nil)
	got = forms(s, page)
	for _, want := range []string{update, roles, resend, viewer("update"), viewer("delete")} {
		if !has(got, want) {
			t.Errorf("the admin's page lacks the form %s: %v", want, got)
		}
	}
	if has(got, del) || strings.Contains(page, `value="organization:delete"`) {
		t.Errorf("the admin's page offers deleting the organization: %v", got)
	}

	// carol's role may create and update roles, and holds only three
	// statements: the forms offer those, and not the role above hers.
	_, _, page = carol.browse("GET", base, nil)
	got = forms(s, page)
	if !has(got, roles) || !has(got, editor("update")) || has(got, viewer("update")) || has(got, editor("delete")) ||
		has(got, update) || has(got, del) || has(got, resend) {
		t.Errorf("carol's page: forms %v", got)
	}
	if n := strings.Count(page, `name="permission"`); n != 6 || strings.Contains(page, `value="project:delete"`) {
		t.Errorf("carol's role forms offer %d checkboxes, want her 3 statements in each of 2 forms:\n%s", n, page)
	}

	_, _, page = member.browse("GET", base, nil)
	got = forms(s, page)
	for _, not := range []string{update, del, roles, resend, viewer("update"), viewer("delete"), editor("update")} {
		if has(got, not) {
			t.Errorf("the member's page has the form %s", not)
		}
	}
	if strings.Contains(page, `name="permission"`) || strings.Contains(page, "delete-confirm") {
		t.Errorf("the member's page has role or delete fields:\n%s", page)
	}

	// Edit a role's permissions.
	st, loc, _ = owner.browse("POST", viewer("update"), url.Values{"permission": {"project:read"}})
	if got, _ := customRole(owner, org, "viewer"); st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=roleUpdated" || !slices.Equal(got, []string{"project:read"}) {
		t.Fatalf("update a role: %d %q %v", st, loc, got)
	}
	// A role in use is not deleted; the page says why.
	st, loc, _ = owner.browse("POST", editor("delete"), url.Values{})
	if _, still := customRole(owner, org, "editor"); st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=role_in_use" || !still {
		t.Fatalf("delete a role in use: %d %q", st, loc)
	}
	if _, _, page = owner.browse("GET", base+"?failed=role_in_use", nil); !strings.Contains(page, `role="alert">Members still hold that role.`) {
		t.Errorf("no alert for a role in use:\n%s", page)
	}
	st, loc, _ = owner.browse("POST", viewer("delete"), url.Values{})
	if _, still := customRole(owner, org, "viewer"); st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=roleDeleted" || still {
		t.Fatalf("delete a role: %d %q", st, loc)
	}

	// Resend: without a sender, the new link is shown on the page.
	st, _, page = admin.browse("POST", resend, url.Values{})
	if st != http.StatusOK || !strings.Contains(page, "Invitation sent again.") || !strings.Contains(page, `id="invitation-link"`) {
		t.Fatalf("resend: %d\n%s", st, page)
	}

	// Rename, with a hostile name: it is escaped on the page.
	hostile := `<img src=x onerror=alert(1)>`
	st, loc, _ = admin.browse("POST", update, url.Values{"name": {hostile}, "slug": {"acme-corp"}})
	if v := owner.view(org); st != http.StatusSeeOther || loc != s.srv.URL+base+"?done=updated" || v.Organization.Name != hostile || v.Organization.Slug != "acme-corp" {
		t.Fatalf("rename: %d %q %+v", st, loc, v.Organization)
	}
	if page := owner.raw(base); strings.Contains(page, "<img") || !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("the hostile name is not escaped:\n%s", page)
	}
	if st, loc, _ = member.browse("POST", update, url.Values{"name": {"Mine"}}); st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=forbidden" {
		t.Fatalf("a member's crafted rename: %d %q", st, loc)
	}
}

// TestDeleteForm: deleting an organization from its page asks for a
// fresh sign-in, and the refusal comes back with a link to sign in
// again; a fresh owner's form deletes it and lands on the switcher.
func TestDeleteForm(t *testing.T) {
	s := newSite(t, memory.New(), false, &organization.Config{})
	stale := s.user("stale@example.com", 48*time.Hour)
	org := stale.create("Old")
	base := "/auth/organizations/" + org
	st, loc, _ := stale.browse("POST", base+"/delete", url.Values{"confirm": {"1"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+base+"?failed=fresh_sign_in" {
		t.Fatalf("a stale sign-in's delete: %d %q", st, loc)
	}
	_, _, page := stale.browse("GET", base+"?failed=fresh_sign_in", nil)
	signIn := s.srv.URL + "/auth/signin?" + url.Values{"callbackUrl": {s.srv.URL + base}}.Encode()
	if !strings.Contains(page, `role="alert">Sign in again to do that.`) || !strings.Contains(page, `href="`+signIn+`">Sign in again`) {
		t.Fatalf("the refusal does not offer signing in again:\n%s", page)
	}
	if _, _, page = stale.browse("GET", base, nil); strings.Contains(page, ">Sign in again<") {
		t.Errorf("the sign-in link is shown without the refusal")
	}

	owner := s.user("owner@example.com", 0)
	org = owner.create("Acme")
	base = "/auth/organizations/" + org
	st, loc, _ = owner.browse("POST", base+"/delete", url.Values{"confirm": {"1"}})
	if st != http.StatusSeeOther || loc != s.srv.URL+"/auth/organizations?done=deleted" {
		t.Fatalf("delete: %d %q", st, loc)
	}
	var v map[string]any
	if st := owner.get(base, &v); st != http.StatusNotFound {
		t.Fatalf("the deleted organization: %d", st)
	}
}
