package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/organization"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Organizations (docs/organizations.md): the example's statements, a
// "developer" role that reads projects but does not delete them, teams,
// and, in development, the organization Acme: Alice (of the development
// provider) its owner and in its team Engineering, Bob a developer, each
// made a member at their sign-in. /projects/delete is for those whose
// active organization lets them.
var orgConfig = organization.Config{
	Statements: permission.Declared{"project": {"read", "delete"}},
	Roles:      []organization.Role{{Name: "developer", Permissions: permission.MustSet("project:read")}},
	Teams:      organization.TeamsConfig{Enabled: true},
}

// acmeID is the development organization's id.
const acmeID = "acme"

// organizations turns organizations on in cfg and, in development, adds
// Alice and Bob to Acme when they sign in. Invitations go to the
// development outbox when there is one; with AUTH_EMAIL_SERVER, through
// it (the e-mail provider's server).
func organizations(cfg *gatehouse.Config, dev bool, mail *mailer) {
	oc := orgConfig
	if mail != nil && mail.box != nil {
		oc.SendInvitation = func(_ context.Context, m organization.Message) error {
			mail.box.add(m.Invitation.Email, "Join "+m.Organization.Name, m.URL)
			return nil
		}
	}
	cfg.Organizations = organization.Enable(oc)
	store, ok := cfg.Adapter.(organization.Store)
	if !dev || !ok || !adapter.Supports[organization.Store](cfg.Adapter) {
		return
	}
	svc, err := organization.New(oc, store)
	if err != nil {
		panic(err) // orgConfig is the program's
	}
	cfg.Events.SignIn = func(ctx context.Context, u profile.User, _ *account.Account, _ bool) {
		if err := joinAcme(ctx, svc, cfg.Adapter, u); err != nil {
			slog.Warn("example: adding to Acme failed", "user", u.Email, "err", err)
		}
	}
}

// joinAcme makes Alice Acme's owner (creating it, with its team
// Engineering, Alice in it) and Bob a developer of it (invited by Alice,
// once she exists).
func joinAcme(ctx context.Context, svc *organization.Service, users adapter.Adapter, u profile.User) error {
	store := svc.Store()
	switch u.Email {
	case "alice@example.com":
		now := time.Now()
		o := organization.Organization{ID: acmeID, Name: "Acme", Slug: "acme", CreatedAt: now}
		first := organization.Membership{OrganizationID: acmeID, UserID: u.ID, Role: organization.Owner, CreatedAt: now}
		err := store.CreateOrganization(ctx, o, first, svc.Config().MaxOrganizationsPerUser)
		if errors.Is(err, adapter.ErrConflict) {
			return nil // made at an earlier sign-in
		}
		if err != nil {
			return err
		}
		team, err := svc.CreateTeam(ctx, u.ID, acmeID, "Engineering")
		if err != nil {
			return err
		}
		_, err = svc.AddTeamMember(ctx, u.ID, acmeID, team.ID, u.ID)
		return err
	case "bob@example.com":
		if _, err := store.Membership(ctx, acmeID, u.ID); err == nil {
			return nil
		}
		alice, err := users.GetUserByEmail(ctx, "alice@example.com")
		if err != nil {
			return errors.New("acme is made when Alice first signs in")
		}
		_, token, err := svc.Invite(ctx, alice.ID, acmeID, u.Email, "developer")
		if err != nil {
			return err
		}
		_, err = svc.Accept(ctx, token, u.ID, u.Email)
		return err
	}
	return nil
}

// deleteProject stands for an action of the application that needs
// project:delete in the active organization.
func deleteProject(auth *gatehouse.Handler) http.Handler {
	return auth.RequirePermission("project:delete")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "You may delete projects in your active organization.\n")
	}))
}
