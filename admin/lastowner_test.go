package admin_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/admin"
	"github.com/gatehouse-auth/gatehouse/organization"
)

// joinOrg makes the user with the address a member of org with role,
// through an invitation accepted in the store.
func joinOrg(t *testing.T, s organization.Store, org, userID, addr, role string) {
	t.Helper()
	ctx := context.Background()
	hash := organization.HashToken("join-" + org + userID)
	if err := s.CreateInvitation(ctx, organization.Invitation{ID: "inv-" + org + userID, OrganizationID: org, Email: addr, Role: role,
		TokenHash: hash, Expires: time.Now().Add(time.Hour), CreatedAt: time.Now()}, false, organization.DefaultMaxMembers); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcceptInvitation(ctx, hash, addr, userID, organization.DefaultMaxOrganizations, organization.DefaultMaxMembers, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// TestDeleteLastOwner: with organizations on, neither an administrator
// (JSON route and page form) nor the user themselves can delete the only
// owner of an organization (409 last_owner, the code of the organization
// routes), and nothing of theirs is deleted; once another member is an
// owner, both can. On every built-in store.
func TestDeleteLastOwner(t *testing.T) {
	for _, st := range builtinStores {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			db := st.open(t)
			s := newSite(t, newOP(t), db, func(c *gatehouse.Config) {
				c.Admin = admin.Enable(admin.Config{SelfDelete: true})
				c.Organizations = organization.Enable(organization.Config{})
			})
			orgs := db.(organization.Store)
			ctx := context.Background()
			ad := signedInAdmin(t, s)
			bob, carol := newBrowser(t), newBrowser(t)
			bob.mustSignIn(s, "oidc", "bob")
			carol.mustSignIn(s, "oidc", "carol")
			me, bobID, carolID := s.userID("admin@example.com"), s.userID("bob@example.com"), s.userID("carol@example.com")
			acme := organization.Organization{ID: "acme", Name: "Acme", Slug: "acme", CreatedAt: time.Now()}
			if err := orgs.CreateOrganization(ctx, acme, organization.Membership{OrganizationID: "acme", UserID: bobID,
				Role: organization.Owner, CreatedAt: time.Now()}, organization.DefaultMaxOrganizations); err != nil {
				t.Fatal(err)
			}
			joinOrg(t, orgs, "acme", carolID, "carol@example.com", organization.Member)
			selfDelete := func(b *browser) (int, map[string]any) {
				return decode(t, b.post(s.url+"/auth/account/delete", url.Values{"csrfToken": {b.csrf(s)}}))
			}

			// Bob owns acme alone: refused both ways, nothing of his gone.
			if code, v := ad.adminPost(s, bobID, "delete", nil); code != http.StatusConflict || v["code"] != "last_owner" {
				t.Errorf("the administrator deletes acme's only owner: %d %v; want 409 last_owner", code, v)
			}
			if code, v := selfDelete(bob); code != http.StatusConflict || v["code"] != "last_owner" {
				t.Errorf("acme's only owner deletes himself: %d %v; want 409 last_owner", code, v)
			}
			userURL := s.url + "/auth/admin/users/" + url.PathEscape(bobID)
			_, body := ad.page(userURL)
			resp := ad.submit(userURL+"/delete", body, url.Values{"confirm": {"1"}})
			if loc := resp.Header.Get("Location"); loc != userURL+"?failed=last_owner" {
				t.Errorf("the page's delete form went to %q; want back with failed=last_owner", loc)
			}
			if body := ad.land(resp); !strings.Contains(body, "only owner of an organization") {
				t.Errorf("the page does not say why the deletion was refused:\n%s", body)
			}
			if !bob.private(s) {
				t.Error("a refused deletion ended bob's session")
			}
			if m, err := orgs.Membership(ctx, "acme", bobID); err != nil || m.Role != organization.Owner {
				t.Errorf("after the refusals bob's membership is %+v, %v", m, err)
			}

			// Carol made an owner: bob deletes himself.
			if err := orgs.SetRole(ctx, "acme", carolID, organization.Owner, map[string]string{carolID: organization.Member}); err != nil {
				t.Fatal(err)
			}
			if code, v := selfDelete(bob); code != http.StatusOK || v["deleted"] != bobID {
				t.Fatalf("bob, one of two owners, deletes himself: %d %v", code, v)
			}
			// Now carol owns acme alone, until the administrator is one too.
			if code, v := ad.adminPost(s, carolID, "delete", nil); code != http.StatusConflict || v["code"] != "last_owner" {
				t.Errorf("the administrator deletes acme's only owner: %d %v; want 409 last_owner", code, v)
			}
			joinOrg(t, orgs, "acme", me, "admin@example.com", organization.Owner)
			if code, v := ad.adminPost(s, carolID, "delete", nil); code != http.StatusOK || v["deleted"] != carolID {
				t.Fatalf("the administrator deletes one of two owners: %d %v", code, v)
			}
			for _, id := range []string{bobID, carolID} {
				if _, err := db.GetUser(ctx, id); err == nil {
					t.Errorf("user %s is still stored", id)
				}
			}
			list, err := orgs.Members(ctx, "acme")
			if err != nil || len(list) != 1 || list[0].UserID != me || list[0].Role != organization.Owner {
				t.Errorf("acme's members are %+v, %v; want the administrator, owner", list, err)
			}
		})
	}
}
