// Package orgcore is package organization's types, rules and storage
// contract (Service, Config, Store, Change), which package organization
// re-exports. It is apart so that the organization routes
// (internal/orgflow) use it without importing package organization,
// whose Enable builds those routes: a program links the routes, and the
// invitation e-mails' templates, only when it calls organization.Enable.
package orgcore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/ident"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// Errors of this package; test with errors.Is.
var (
	// ErrNotFound: no such organization, member, invitation or role, or
	// one the acting user is not allowed to know of (a non-member asking
	// about an organization is told this, not ErrForbidden).
	ErrNotFound = errors.New("organization: not found")
	// ErrForbidden: the acting user is a member but their role lacks a
	// statement the change needs, or the change would hand out more than
	// they hold.
	ErrForbidden = errors.New("organization: not allowed")
	// ErrLastOwner: the change would leave the organization without an
	// owner.
	ErrLastOwner = errors.New("organization: an organization keeps at least one owner")
	// ErrConflict: the slug is taken, the user is already a member (of
	// the organization or the team), the role or team name exists.
	ErrConflict = errors.New("organization: conflict")
	// ErrInvalid: a name, slug, role or address that is not acceptable.
	ErrInvalid = errors.New("organization: invalid")
	// ErrExpired: the invitation has expired.
	ErrExpired = errors.New("organization: invitation expired")
	// ErrWrongRecipient: the invitation was sent to another address than
	// the signed-in user's.
	ErrWrongRecipient = errors.New("organization: the invitation is for another address")
	// ErrRoleInUse: a role that members hold cannot be deleted.
	ErrRoleInUse = errors.New("organization: the role is held by members")
	// ErrRoleChanged: a change to a member was judged on a role (theirs,
	// or the acting member's) that changed before it was written; nothing
	// changed. It is also an ErrConflict.
	ErrRoleChanged = fmt.Errorf("%w: a member's role changed meanwhile", ErrConflict)
)

// The library's own statements: what a role needs to manage its
// organization.
const (
	UpdateOrganization permission.Statement = "organization:update" // rename, change the slug
	DeleteOrganization permission.Statement = "organization:delete" // delete it, with a fresh sign-in
	InviteMember       permission.Statement = "member:invite"       // send, resend, list invitations
	RemoveMember       permission.Statement = "member:remove"       // remove another member
	UpdateMemberRole   permission.Statement = "member:update-role"  // change another member's role
	CancelInvitation   permission.Statement = "invitation:cancel"   // revoke a pending invitation
	CreateRole         permission.Statement = "role:create"         // define a custom role
	UpdateRole         permission.Statement = "role:update"         // change a custom role
	DeleteRole         permission.Statement = "role:delete"         // delete a custom role
)

// OrganizationStatements declares the statements above, for
// permission.Declared checks.
var OrganizationStatements = permission.Declared{
	"organization": {"update", "delete"},
	"member":       {"invite", "remove", "update-role"},
	"invitation":   {"cancel"},
	"role":         {"create", "update", "delete"},
}

// The built-in roles' names.
const (
	// Owner holds every statement, the application's and the library's.
	Owner = "owner"
	// Admin holds every statement but organization:delete.
	Admin = "admin"
	// Member holds none of the library's statements and none of the
	// application's, unless Config.Roles redefines it.
	Member = "member"
)

// Organization is a stored organization.
type Organization struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Slug      string    `json:"slug"` // unique, [a-z0-9-], 1 to 48
	CreatedAt time.Time `json:"createdAt"`
}

// Membership is a user's place in an organization.
type Membership struct {
	OrganizationID string    `json:"organizationId"`
	UserID         string    `json:"userId"`
	Role           string    `json:"role"`
	CreatedAt      time.Time `json:"createdAt"`
}

// Invitation is a pending invitation. Only the SHA-256 hash of its token
// is stored; the token itself is in the link sent to Email.
type Invitation struct {
	ID             string    `json:"id"`
	OrganizationID string    `json:"organizationId"`
	Email          string    `json:"email"` // normalised, lower case
	Role           string    `json:"role"`
	InviterID      string    `json:"inviterId"`
	TokenHash      string    `json:"-"`
	Expires        time.Time `json:"expires"`
	CreatedAt      time.Time `json:"createdAt"`
}

// Role is a named set of statements. Built-in roles (owner, admin,
// member and those of Config.Roles) are the same in every organization;
// custom roles belong to one organization and are stored.
type Role struct {
	Name        string         `json:"name"`
	Permissions permission.Set `json:"permissions"`
	BuiltIn     bool           `json:"builtIn"`
}

// Config configures organizations. Its zero value, used as
// *organization.Config in gatehouse.Config, means the feature is off
// (nil) or on with the defaults (a pointer to the zero Config).
type Config struct {
	// Statements are the application's own statements ("project":
	// {"create", "delete"}): roles may hold them and Handler.Can checks
	// them. They must not reuse the library's resources (organization,
	// member, invitation, role, and team when Teams is on).
	Statements permission.Declared
	// Roles adds roles defined in code, or redefines admin and member
	// (owner always holds every statement). Their statements must be
	// declared.
	Roles []Role
	// InvitationExpiry is how long an invitation link works. Default:
	// 48 hours.
	InvitationExpiry time.Duration
	// DisableCreate refuses POST {base}/organizations: the application
	// creates organizations itself (Service.Create). By default any
	// signed-in user may create organizations.
	DisableCreate bool
	// MaxOrganizationsPerUser is how many organizations one user may
	// create or join. Default: 100.
	MaxOrganizationsPerUser int
	// MaxMembers is how many members and pending invitations one
	// organization may have. Default: 1000.
	MaxMembers int
	// MaxRoles is how many custom roles one organization may have.
	// Default: 50.
	MaxRoles int
	// Teams turns on teams inside organizations (off by default).
	Teams TeamsConfig
	// SendInvitation sends an invitation's link to its address. It needs
	// gatehouse.Config.URL, so that the link does not take its host from
	// the request. Nil: the SMTP server of an e-mail provider sends it,
	// when there is one and Config.URL is set; else the link is answered,
	// in JSON, to the inviter alone, who hands it on, and accepting such a
	// link needs an account whose address is verified.
	SendInvitation func(ctx context.Context, m Message) error
	// Now is the clock. Default: time.Now.
	Now func() time.Time
}

// Message is an invitation to send by e-mail.
type Message struct {
	Invitation   Invitation
	Organization Organization
	// URL is the link that accepts it. It holds the token: send it to
	// Invitation.Email, never log it.
	URL string
}

// Defaults of Config.
const (
	DefaultInvitationExpiry = 48 * time.Hour
	DefaultMaxOrganizations = 100
	DefaultMaxMembers       = 1000
	DefaultMaxRoles         = 50
)

// roles returns the built-in roles of c: owner with all, admin with all
// but organization:delete, member with none, and c.Roles on top.
func (c Config) roles(all permission.Set) (map[string]Role, error) {
	out := map[string]Role{
		Owner:  {Name: Owner, Permissions: all, BuiltIn: true},
		Admin:  {Name: Admin, Permissions: slices.DeleteFunc(slices.Clone(all), func(s permission.Statement) bool { return s == DeleteOrganization }), BuiltIn: true},
		Member: {Name: Member, Permissions: permission.Set{}, BuiltIn: true},
	}
	for _, r := range c.Roles {
		if !validName(r.Name) || r.Name == Owner {
			return nil, fmt.Errorf("%w: role name %q (want [a-z0-9_-], 1 to 32, not owner)", ErrInvalid, r.Name)
		}
		if missing := all.Missing(r.Permissions); len(missing) > 0 {
			return nil, fmt.Errorf("%w: role %q: %w: %v", ErrInvalid, r.Name, permission.ErrUndeclared, missing)
		}
		r.BuiltIn = true
		out[r.Name] = r
	}
	return out, nil
}

// validName reports whether n is a role name: 1 to 32 of [a-z0-9_-].
func validName(n string) bool { return ident.Valid(n, 32, "-_") }

// validSlug reports whether s is a slug: 1 to 48 of [a-z0-9-], not
// starting or ending with '-'.
func validSlug(s string) bool {
	return ident.Valid(s, 48, "-") && s[0] != '-' && s[len(s)-1] != '-'
}
