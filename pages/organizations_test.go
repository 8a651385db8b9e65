package pages_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// ExampleOrganization renders an organization's settings page in German,
// as GET {base}/organizations/{org} does for a browser: the owner sees a
// change-role and a remove form for the other member.
func ExampleOrganization() {
	page := pages.Organization{
		CSRFToken: "4b3c…",
		Name:      "Acme",
		Role:      "owner",
		Members: []pages.MemberRow{
			{Name: "Alice", Email: "alice@example.com", Role: "owner", You: true},
			{Name: "Bob", Email: "bob@example.com", Role: "member", RoleURL: "/auth/organizations/acme/members/bob/role",
				Roles: []string{"member", "admin", "owner"}, RemoveURL: "/auth/organizations/acme/members/bob/remove"},
		},
		ListURL: "/auth/organizations",
	}
	rec := httptest.NewRecorder()
	if err := pages.RenderIn(rec, pages.Language{Tag: "de"}, 200, page); err != nil {
		fmt.Println(err)
		return
	}
	body := rec.Body.String()
	fmt.Println(strings.Contains(body, `<label for="role-1">Rolle von Bob</label>`))
	fmt.Println(strings.Count(body, `<form action="/auth/organizations/acme/members/bob/`))
	// Output:
	// true
	// 2
}

// TestOrganizationPagesEscape: names, addresses and roles are members'
// input; the pages show them as text.
func TestOrganizationPagesEscape(t *testing.T) {
	evil := `<script>alert(1)</script>"'`
	checkEscaped(t, map[string]any{
		"organization": pages.Organization{Name: evil, Role: evil, Members: []pages.MemberRow{{Name: evil, Email: evil, Role: evil, RoleURL: "/r", Roles: []string{evil}}},
			InviteURL: "/i", InviteRoles: []string{evil}, Invitations: []pages.InvitationRow{{Email: evil, Role: evil}},
			Roles: []pages.RoleRow{{Name: evil, Permissions: []string{evil}}}, Notice: evil, Link: evil, LinkEmail: evil},
		"teams": pages.Organization{Name: evil, TeamsOn: true, TeamCreateURL: "/t", Teams: []pages.TeamRow{{Name: evil,
			Members: []pages.TeamMemberRow{{Name: evil, RemoveURL: "/r"}}, UpdateURL: "/u", AddURL: "/a", Candidates: []pages.TeamCandidate{{ID: evil, Name: evil}}}}},
		"organizations": pages.Organizations{List: []pages.OrganizationRow{{ID: evil, Name: evil, URL: "/o"}}, ActiveURL: "/a", Notice: evil},
		"invitation":    pages.Invitation{Organization: evil, Inviter: evil, Email: evil, Role: evil, Token: evil, AcceptURL: "/a", DeclineURL: "/d"},
	})
}

// TestTeamCreateHeading: the Teams section's create form has its own
// heading, in the page's language, right before it (as the roles
// section's has), and only when the form is there.
func TestTeamCreateHeading(t *testing.T) {
	for tag, heading := range map[string]string{"en": "Create a team", "de": "Team anlegen"} {
		for _, createURL := range []string{"/auth/organizations/acme/teams", ""} {
			page := pages.Organization{Name: "Acme", TeamsOn: true, TeamCreateURL: createURL,
				Teams: []pages.TeamRow{{Name: "Engineering"}}}
			rec := httptest.NewRecorder()
			if err := pages.RenderIn(rec, pages.Language{Tag: tag}, 200, page); err != nil {
				t.Fatal(err)
			}
			body := rec.Body.String()
			want := "<h2>" + heading + `</h2><form action="/auth/organizations/acme/teams" method="post">`
			if got := strings.Contains(body, want); got != (createURL != "") {
				t.Errorf("%s, create form %q: heading before it %v, want %v:\n%s", tag, createURL, got, createURL != "", body)
			}
		}
	}
}
