package orgcore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/permission"
)

func TestNewRefuses(t *testing.T) {
	store := memory.New()
	for name, cfg := range map[string]orgcore.Config{
		"the library's resource": {Statements: permission.Declared{"member": {"ban"}}},
		"an invalid statement":   {Statements: permission.Declared{"Project": {"read"}}},
		"an undeclared role":     {Roles: []orgcore.Role{{Name: "x", Permissions: permission.MustSet("project:read")}}},
		"a role named owner":     {Roles: []orgcore.Role{{Name: "owner"}}},
		"an invalid role name":   {Roles: []orgcore.Role{{Name: "Dev Ops"}}},
	} {
		if _, err := orgcore.New(cfg, store); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
	if _, err := orgcore.New(orgcore.Config{}, nil); err == nil {
		t.Error("no store: New succeeded")
	}
}

func TestBuiltInRoles(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	svc, err := orgcore.New(orgcore.Config{Statements: permission.Declared{"project": {"delete"}}}, store)
	if err != nil {
		t.Fatal(err)
	}
	owner, _ := store.CreateUser(ctx, adapter.User{Email: "o@example.com"})
	org, err := svc.Create(ctx, owner.ID, "Acme", "acme")
	if err != nil {
		t.Fatal(err)
	}
	v, err := svc.Get(ctx, owner.ID, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]permission.Set{}
	for _, r := range v.Roles {
		roles[r.Name] = r.Permissions
	}
	if !roles["owner"].Has("project:delete") || !roles["owner"].Has(orgcore.DeleteOrganization) {
		t.Errorf("owner: %v", roles["owner"])
	}
	if roles["admin"].Has(orgcore.DeleteOrganization) || !roles["admin"].Has("project:delete") || !roles["admin"].Has(orgcore.InviteMember) {
		t.Errorf("admin: %v", roles["admin"])
	}
	if len(roles["member"]) != 0 {
		t.Errorf("member: %v", roles["member"])
	}
	if _, err := svc.Create(ctx, owner.ID, "Acme again", "acme"); !errors.Is(err, orgcore.ErrConflict) {
		t.Errorf("a taken slug: %v", err)
	}
	if _, err := svc.Create(ctx, owner.ID, "", ""); !errors.Is(err, orgcore.ErrInvalid) {
		t.Errorf("no name: %v", err)
	}
	if _, err := svc.Create(ctx, owner.ID, "x", "Bad Slug"); !errors.Is(err, orgcore.ErrInvalid) {
		t.Errorf("a bad slug: %v", err)
	}
	outsider, _ := store.CreateUser(ctx, adapter.User{Email: "x@example.com"})
	if _, err := svc.Get(ctx, outsider.ID, org.ID); !errors.Is(err, orgcore.ErrNotFound) {
		t.Errorf("an outsider reads: %v", err)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{"Acme Inc.": "acme-inc", "  --Ünï Çode 42 ": "n-ode-42", "日本": ""} {
		if got := orgcore.Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	svc, err := orgcore.New(orgcore.Config{Statements: permission.Declared{"project": {"read"}},
		MaxOrganizationsPerUser: 1, MaxMembers: 2, MaxRoles: 1}, store)
	if err != nil {
		t.Fatal(err)
	}
	owner, _ := store.CreateUser(ctx, adapter.User{Email: "o@example.com"})
	org, err := svc.Create(ctx, owner.ID, "Acme", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, owner.ID, "Second", ""); !errors.Is(err, orgcore.ErrLimit) {
		t.Errorf("a second organization: %v", err)
	}
	if _, _, err := svc.Invite(ctx, owner.ID, org.ID, "a@example.com", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Invite(ctx, owner.ID, org.ID, "b@example.com", ""); !errors.Is(err, orgcore.ErrLimit) {
		t.Errorf("a third member or invitation: %v", err)
	}
	if _, err := svc.CreateRole(ctx, owner.ID, org.ID, "reader", []string{"project:read"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateRole(ctx, owner.ID, org.ID, "reader2", []string{"project:read"}); !errors.Is(err, orgcore.ErrLimit) {
		t.Errorf("a second custom role: %v", err)
	}
}
