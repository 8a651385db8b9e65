package orgcore

import (
	"context"
	"time"
)

// Store keeps organizations, memberships, invitations, custom roles and
// each database session's active organization; an adapter implements it
// (the built-in ones do: memory, SQLite, PostgreSQL, and redisstore
// through its primary). Every method is safe for concurrent use, across
// every process that shares the store.
//
// Lookups return adapter.ErrNotFound (wrapped) when there is nothing;
// writes that break a uniqueness rule return adapter.ErrConflict. The
// methods that take a limit of Config (max, maxOrgs, maxMembers) count
// and write in one transaction, and return ErrLimit (wrapped), changing
// nothing, when the write would exceed it: of concurrent calls, from
// every process, no more succeed than the limit allows. Every
// method that names an organization and something in it (a member, an
// invitation, a role) matches both: an id of another organization's
// invitation is not found. Deleting a user deletes their memberships;
// deleting an organization deletes everything in it.
type Store interface {
	// CreateOrganization stores o and its first member in one
	// transaction; ErrConflict when the slug or id is taken, ErrNotFound
	// when there is no such user. max is how many organizations one user
	// may be a member of (Config.MaxOrganizationsPerUser): ErrLimit when
	// first.UserID is a member of max already.
	CreateOrganization(ctx context.Context, o Organization, first Membership, max int) error
	// Organization returns the organization with the id.
	Organization(ctx context.Context, id string) (Organization, error)
	// UpdateOrganization stores o's name and slug; ErrConflict when the
	// slug is taken.
	UpdateOrganization(ctx context.Context, o Organization) error
	// DeleteOrganization removes the organization and all it holds.
	DeleteOrganization(ctx context.Context, id string) error
	// Organizations returns those userID is a member of, by creation.
	Organizations(ctx context.Context, userID string) ([]Organization, error)

	// Membership returns userID's membership of the organization.
	Membership(ctx context.Context, orgID, userID string) (Membership, error)
	// Members returns the organization's members, by joining time.
	Members(ctx context.Context, orgID string) ([]Membership, error)
	// SetRole sets a member's role. judged maps the user ids of the
	// members the Service judged the change on (the member's, and the
	// acting member's when another) to their roles as it read them: it
	// returns ErrConflict, changing nothing, when one of them is no
	// longer a member with that role, atomically with the write, so that
	// a change judged on a role that a concurrent call changes (an
	// administrator demoting a member just made an owner) fails. It
	// returns ErrLastOwner, changing nothing, when the member is the
	// organization's only owner and role is not owner: atomically, so
	// that of two concurrent demotions of the last two owners one fails.
	SetRole(ctx context.Context, orgID, userID, role string, judged map[string]string) error
	// RemoveMembership removes a member; judged as SetRole's
	// (ErrConflict), and ErrLastOwner, atomically as SetRole, when they
	// are the only owner. Their sessions' active organization is cleared
	// with it.
	RemoveMembership(ctx context.Context, orgID, userID string, judged map[string]string) error

	// CreateInvitation stores inv; ErrConflict when its id or token hash
	// is taken or the organization has an invitation to inv.Email
	// unexpired at inv.CreatedAt (one pending invitation per address),
	// ErrNotFound when there is no such organization. custom is whether
	// inv.Role is a custom role of the organization (not a built-in one,
	// which the Store does not know): ErrNotFound when the organization
	// has no such role, so that a role deleted meanwhile is never named.
	// max is how many members and pending invitations the organization
	// may have (Config.MaxMembers): ErrLimit when its members and its
	// invitations unexpired at inv.CreatedAt number max already. All of
	// it is checked atomically with the write.
	CreateInvitation(ctx context.Context, inv Invitation, custom bool, max int) error
	// Invitations returns the organization's invitations, expired ones
	// included, by creation.
	Invitations(ctx context.Context, orgID string) ([]Invitation, error)
	// InvitationByToken returns the invitation whose token hashes to
	// tokenHash.
	InvitationByToken(ctx context.Context, tokenHash string) (Invitation, error)
	// RenewInvitation gives the organization's invitation id a new token
	// hash and expiry: the old link stops working. custom is as
	// CreateInvitation's, for the invitation's role: ErrNotFound when it
	// is a custom role the organization no longer has. ErrConflict when
	// another invitation to its address is unexpired at now. max is as
	// CreateInvitation's: an invitation expired at now no longer counts
	// towards it, so renewing one is ErrLimit when the organization's
	// members and unexpired invitations number max already.
	RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time, custom bool, max int, now time.Time) error
	// DeleteInvitation removes the organization's invitation id.
	DeleteInvitation(ctx context.Context, orgID, id string) error
	// AcceptInvitation uses the invitation whose token hashes to
	// tokenHash, for the user userID whose address is email, at now: in
	// one transaction it deletes the invitation and makes the user a
	// member with its role, and returns the membership. Of concurrent
	// calls with one token at most one succeeds. ErrWrongRecipient when
	// the invitation is for another address, ErrExpired when it expired
	// (both keep it), ErrConflict when the user is already a member (the
	// invitation is kept), ErrNotFound when there is none (or it was
	// used). ErrLimit, keeping the invitation, when the user is a member
	// of maxOrgs organizations already (Config.MaxOrganizationsPerUser,
	// as CreateOrganization's max) or the organization has maxMembers
	// members already (Config.MaxMembers).
	AcceptInvitation(ctx context.Context, tokenHash, email, userID string, maxOrgs, maxMembers int, now time.Time) (Membership, error)
	// DeclineInvitation deletes and returns the invitation whose token
	// hashes to tokenHash when it is for email; ErrWrongRecipient when
	// not (it is kept).
	DeclineInvitation(ctx context.Context, tokenHash, email string) (Invitation, error)

	// Roles returns the organization's custom roles, by name.
	Roles(ctx context.Context, orgID string) ([]Role, error)
	// CreateRole stores a custom role; ErrConflict when the name exists,
	// ErrNotFound when there is no such organization. max is how many
	// custom roles the organization may have (Config.MaxRoles): ErrLimit
	// when it has max already.
	CreateRole(ctx context.Context, orgID string, r Role, max int) error
	// UpdateRole replaces the statements of the custom role r.Name.
	UpdateRole(ctx context.Context, orgID string, r Role) error
	// DeleteRole removes a custom role, and returns ErrRoleInUse,
	// atomically, when a member holds it or an invitation unexpired at
	// now names it (accepting it would make a member of a role that does
	// not exist). The expired invitations that name it are deleted with
	// it, atomically as well: renewed, they would name a role that does
	// not exist.
	DeleteRole(ctx context.Context, orgID, name string, now time.Time) error

	// SetActiveOrganization records the organization a database session
	// works in; sessionKey is the stored hash of its token, expires its
	// expiry. orgID "" clears it. ErrNotFound when userID is not a member
	// of orgID. Removing the membership clears it.
	SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error
	// ActiveOrganization returns the organization sessionKey's session
	// works in, "" for none.
	ActiveOrganization(ctx context.Context, sessionKey string) (string, error)
}
