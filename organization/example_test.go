package organization_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// An owner invites a developer; the developer may delete projects, not
// the organization, and cannot hand out more than their role holds.
func ExampleService() {
	ctx := context.Background()
	store := memory.New()
	svc, err := organization.New(organization.Config{
		Statements: permission.Declared{"project": {"read", "delete"}},
		Roles:      []organization.Role{{Name: "developer", Permissions: permission.MustSet("project:read", "project:delete")}},
	}, store)
	if err != nil {
		panic(err)
	}
	ada, _ := store.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	bob, _ := store.CreateUser(ctx, adapter.User{Email: "bob@example.com"})

	acme, _ := svc.Create(ctx, ada.ID, "Acme Inc.", "")
	_, token, _ := svc.Invite(ctx, ada.ID, acme.ID, "Bob@Example.com", "developer")
	m, _ := svc.Accept(ctx, token, bob.ID, "bob@example.com")
	fmt.Println(acme.Slug, m.Role)

	ok, _ := svc.Can(ctx, acme.ID, bob.ID, "project:delete")
	fmt.Println("bob may delete projects:", ok)
	ok, _ = svc.Can(ctx, acme.ID, bob.ID, organization.DeleteOrganization)
	fmt.Println("bob may delete the organization:", ok)

	_, err = svc.CreateRole(ctx, bob.ID, acme.ID, "deleter", []string{"organization:delete"})
	fmt.Println(errors.Is(err, organization.ErrForbidden))
	err = svc.Leave(ctx, ada.ID, acme.ID)
	fmt.Println(errors.Is(err, organization.ErrLastOwner))
	// Output:
	// acme-inc developer
	// bob may delete projects: true
	// bob may delete the organization: false
	// true
	// true
}

// With teams on, an owner makes a team and puts a member in it; the
// member may see the team but not make one, and leaving the
// organization takes them out of its teams.
func ExampleService_teams() {
	ctx := context.Background()
	store := memory.New()
	svc, err := organization.New(organization.Config{Teams: organization.TeamsConfig{Enabled: true, MaxTeams: 10}}, store)
	if err != nil {
		panic(err)
	}
	ada, _ := store.CreateUser(ctx, adapter.User{Email: "ada@example.com"})
	bob, _ := store.CreateUser(ctx, adapter.User{Email: "bob@example.com"})
	acme, _ := svc.Create(ctx, ada.ID, "Acme Inc.", "")
	_, token, _ := svc.Invite(ctx, ada.ID, acme.ID, "bob@example.com", organization.Member)
	_, _ = svc.Accept(ctx, token, bob.ID, "bob@example.com")

	eng, _ := svc.CreateTeam(ctx, ada.ID, acme.ID, "Engineering")
	_, _ = svc.AddTeamMember(ctx, ada.ID, acme.ID, eng.ID, bob.ID)
	members, _ := svc.TeamMembers(ctx, bob.ID, acme.ID, eng.ID)
	fmt.Println(eng.Name, len(members), members[0].UserID == bob.ID)

	_, err = svc.CreateTeam(ctx, bob.ID, acme.ID, "Bob's")
	fmt.Println(errors.Is(err, organization.ErrForbidden))

	_ = svc.Leave(ctx, bob.ID, acme.ID)
	members, _ = svc.TeamMembers(ctx, ada.ID, acme.ID, eng.ID)
	fmt.Println(len(members))
	// Output:
	// Engineering 1 true
	// true
	// 0
}
