// Package organization is multi-tenant membership for Gatehouse:
// organizations with a unique slug, their members and each member's role,
// roles as sets of permission statements (three built in, more defined in
// code or by an organization's own admins at runtime), and invitations by
// e-mail with single-use tokens.
//
// Every change goes through a Service, which checks the acting user's
// membership and role first, with one function (Service.Authorize): a
// user who is not a member of an organization is told it does not exist,
// and a member may only do what their role's statements allow. Nobody
// hands out more than they hold (permission.Grant): not by inviting, by
// changing a member's role, or by editing a role. The last owner of an
// organization can neither leave, nor be removed, nor be demoted; the
// Store enforces this atomically.
//
// The library's own statements are OrganizationStatements; the
// application declares its own (Config.Statements), and roles may hold
// both.
//
// Config.Teams turns on teams: named groups of an organization's
// members (Team, TeamStore), managed with the statements of
// TeamStatements.
package organization

import (
	"github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// ChangeKind names what a Change did.
type ChangeKind = orgcore.ChangeKind

// The kinds of Change.
const (
	Created            = orgcore.Created
	Updated            = orgcore.Updated
	Deleted            = orgcore.Deleted
	MemberRemoved      = orgcore.MemberRemoved // removed, or left (ActorID == UserID)
	RoleChanged        = orgcore.RoleChanged
	RoleCreated        = orgcore.RoleCreated
	RoleUpdated        = orgcore.RoleUpdated
	RoleDeleted        = orgcore.RoleDeleted
	Invited            = orgcore.Invited // sent or resent
	InvitationCanceled = orgcore.InvitationCanceled
	InvitationAccepted = orgcore.InvitationAccepted // UserID joined with Role
	InvitationDeclined = orgcore.InvitationDeclined
)

// Change is one change made through the organization routes, as
// gatehouse.Events.Organization is told of it. It holds ids and names,
// never an invitation's token.
type Change = orgcore.Change

// Errors of this package; test with errors.Is.
var (
	// ErrNotFound: no such organization, member, invitation or role, or
	// one the acting user is not allowed to know of (a non-member asking
	// about an organization is told this, not ErrForbidden).
	ErrNotFound = orgcore.ErrNotFound
	// ErrForbidden: the acting user is a member but their role lacks a
	// statement the change needs, or the change would hand out more than
	// they hold.
	ErrForbidden = orgcore.ErrForbidden
	// ErrLastOwner: the change would leave the organization without an
	// owner.
	ErrLastOwner = orgcore.ErrLastOwner
	// ErrConflict: the slug is taken, the user is already a member (of
	// the organization or the team), the role or team name exists.
	ErrConflict = orgcore.ErrConflict
	// ErrInvalid: a name, slug, role or address that is not acceptable.
	ErrInvalid = orgcore.ErrInvalid
	// ErrExpired: the invitation has expired.
	ErrExpired = orgcore.ErrExpired
	// ErrWrongRecipient: the invitation was sent to another address than
	// the signed-in user's.
	ErrWrongRecipient = orgcore.ErrWrongRecipient
	// ErrRoleInUse: a role that members hold cannot be deleted.
	ErrRoleInUse = orgcore.ErrRoleInUse
	// ErrRoleChanged: a change to a member was judged on a role (theirs,
	// or the acting member's) that changed before it was written; nothing
	// changed. It is also an ErrConflict.
	ErrRoleChanged = orgcore.ErrRoleChanged
)

// The library's own statements: what a role needs to manage its
// organization.
const (
	UpdateOrganization = orgcore.UpdateOrganization // rename, change the slug
	DeleteOrganization = orgcore.DeleteOrganization // delete it, with a fresh sign-in
	InviteMember       = orgcore.InviteMember       // send, resend, list invitations
	RemoveMember       = orgcore.RemoveMember       // remove another member
	UpdateMemberRole   = orgcore.UpdateMemberRole   // change another member's role
	CancelInvitation   = orgcore.CancelInvitation   // revoke a pending invitation
	CreateRole         = orgcore.CreateRole         // define a custom role
	UpdateRole         = orgcore.UpdateRole         // change a custom role
	DeleteRole         = orgcore.DeleteRole         // delete a custom role
)

// OrganizationStatements declares the statements above, for
// permission.Declared checks.
var OrganizationStatements = orgcore.OrganizationStatements

// The built-in roles' names.
const (
	// Owner holds every statement, the application's and the library's.
	Owner = orgcore.Owner
	// Admin holds every statement but organization:delete.
	Admin = orgcore.Admin
	// Member holds none of the library's statements and none of the
	// application's, unless Config.Roles redefines it.
	Member = orgcore.Member
)

// Organization is a stored organization.
type Organization = orgcore.Organization

// Membership is a user's place in an organization.
type Membership = orgcore.Membership

// Invitation is a pending invitation. Only the SHA-256 hash of its token
// is stored; the token itself is in the link sent to Email.
type Invitation = orgcore.Invitation

// Role is a named set of statements. Built-in roles (owner, admin,
// member and those of Config.Roles) are the same in every organization;
// custom roles belong to one organization and are stored.
type Role = orgcore.Role

// Config configures organizations. Its zero value, used as
// *organization.Config in gatehouse.Config, means the feature is off
// (nil) or on with the defaults (a pointer to the zero Config).
type Config = orgcore.Config

// Message is an invitation to send by e-mail.
type Message = orgcore.Message

// Defaults of Config.
const (
	DefaultInvitationExpiry = orgcore.DefaultInvitationExpiry
	DefaultMaxOrganizations = orgcore.DefaultMaxOrganizations
	DefaultMaxMembers       = orgcore.DefaultMaxMembers
	DefaultMaxRoles         = orgcore.DefaultMaxRoles
)

// ErrLimit: a limit of Config (organizations per user, members, roles,
// teams, members per team) is reached.
var ErrLimit = orgcore.ErrLimit

// Service runs organizations on a Store, checking every change against
// the acting user's role. It is safe for concurrent use.
type Service = orgcore.Service

// New checks cfg and returns its Service on store.
func New(cfg Config, store Store) (*Service, error) { return orgcore.New(cfg, store) }

// HashToken returns the stored form of an invitation token: the hex
// SHA-256 of it. The token is 32 random bytes, so a fast hash is enough:
// there is nothing to guess (unlike a password).
func HashToken(token string) string { return orgcore.HashToken(token) }

// Slugify returns a slug made of name: lower-case letters and digits,
// other runs as one '-'. It may be empty (a name of no ASCII letters).
func Slugify(name string) string { return orgcore.Slugify(name) }

// View is an organization as one of its members sees it: every member
// sees the members and roles; the pending invitations only with
// member:invite.
type View = orgcore.View

// Store keeps organizations, memberships, invitations, custom roles and
// each database session's active organization; an adapter implements it
// (the built-in ones do: memory, SQLite, PostgreSQL, and redisstore
// through its primary). Every method is safe for concurrent use, across
// every process that shares the store.
//
// Lookups return adapter.ErrNotFound (wrapped) when there is nothing;
// writes that break a uniqueness rule return adapter.ErrConflict. Every
// method that names an organization and something in it (a member, an
// invitation, a role) matches both: an id of another organization's
// invitation is not found. Deleting a user deletes their memberships;
// deleting an organization deletes everything in it.
type Store = orgcore.Store
