package orgcore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gatehouse-auth/gatehouse/adapter"
	emailaddress "github.com/gatehouse-auth/gatehouse/internal/address"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// ErrLimit: a limit of Config (organizations per user, members, roles,
// teams, members per team) is reached.
var ErrLimit = errors.New("organization: limit reached")

// Service runs organizations on a Store, checking every change against
// the acting user's role. It is safe for concurrent use.
type Service struct {
	cfg      Config
	store    Store
	declared permission.Declared // the application's statements and the library's
	all      permission.Set
	builtIn  map[string]Role
	teams    TeamStore // nil when Config.Teams is off
}

// New checks cfg and returns its Service on store.
func New(cfg Config, store Store) (*Service, error) {
	if store == nil {
		return nil, errors.New("organization: a Store is required")
	}
	declared := maps.Clone(OrganizationStatements)
	if cfg.Teams.Enabled {
		maps.Copy(declared, TeamStatements)
	}
	for res, actions := range cfg.Statements {
		if _, ours := declared[res]; ours {
			return nil, fmt.Errorf("%w: Statements: the resource %q is the library's", ErrInvalid, res)
		}
		declared[res] = actions
	}
	all, err := declared.All()
	if err != nil {
		return nil, fmt.Errorf("organization: Statements: %w", err)
	}
	builtIn, err := cfg.roles(all)
	if err != nil {
		return nil, err
	}
	positiveOr(&cfg.InvitationExpiry, DefaultInvitationExpiry)
	positiveOr(&cfg.MaxOrganizationsPerUser, DefaultMaxOrganizations)
	positiveOr(&cfg.MaxMembers, DefaultMaxMembers)
	positiveOr(&cfg.MaxRoles, DefaultMaxRoles)
	positiveOr(&cfg.Teams.MaxTeams, DefaultMaxTeams)
	positiveOr(&cfg.Teams.MaxMembersPerTeam, DefaultMaxMembersPerTeam)
	teams, err := teamStore(cfg.Teams, store)
	if err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg, store: store, declared: declared, all: all, builtIn: builtIn, teams: teams}, nil
}

// Config returns the Service's configuration with its defaults.
func (s *Service) Config() Config { return s.cfg }

// Store returns the Service's Store.
func (s *Service) Store() Store { return s.store }

// storeErr maps the Store's adapter errors to this package's.
func storeErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, adapter.ErrNotFound) && !errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	case errors.Is(err, adapter.ErrConflict) && !errors.Is(err, ErrConflict):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	}
	return err
}

// Authorize is the one check every organization action makes: it returns
// userID's membership of orgID and the statements their role holds, or
// ErrNotFound when they are not a member (the organization's existence is
// not told to outsiders), or ErrForbidden naming what of want the role
// lacks.
func (s *Service) Authorize(ctx context.Context, orgID, userID string, want ...permission.Statement) (Membership, permission.Set, error) {
	if orgID == "" || userID == "" {
		return Membership{}, nil, ErrNotFound
	}
	m, err := s.store.Membership(ctx, orgID, userID)
	if err != nil {
		return Membership{}, nil, storeErr(err)
	}
	r, err := s.role(ctx, orgID, m.Role)
	if err != nil {
		return Membership{}, nil, err
	}
	if missing := r.Permissions.Missing(want); len(missing) > 0 {
		return m, r.Permissions, fmt.Errorf("%w: the role %q lacks %s", ErrForbidden, m.Role, strings.Join(missing.Strings(), ", "))
	}
	return m, r.Permissions, nil
}

// Can reports whether userID's role in orgID holds every statement of
// want; false, not an error, when they are not a member.
func (s *Service) Can(ctx context.Context, orgID, userID string, want ...permission.Statement) (bool, error) {
	_, _, err := s.Authorize(ctx, orgID, userID, want...)
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrForbidden) {
		return false, nil
	}
	return err == nil, err
}

// role returns the role name of orgID: built in, or custom. A name that
// is neither (a role of Config.Roles removed from the code) holds
// nothing.
func (s *Service) role(ctx context.Context, orgID, name string) (Role, error) {
	if r, ok := s.builtIn[name]; ok {
		return r, nil
	}
	r, err := s.customRole(ctx, orgID, name)
	if errors.Is(err, ErrNotFound) {
		return Role{Name: name, Permissions: permission.Set{}}, nil
	}
	// Statements the application no longer declares are not held.
	r.Permissions = s.all.Intersect(r.Permissions)
	return r, err
}

// Roles returns the roles of orgID a member may see: the built-in ones,
// then the organization's own.
func (s *Service) Roles(ctx context.Context, actor, orgID string) ([]Role, error) {
	if _, _, err := s.Authorize(ctx, orgID, actor); err != nil {
		return nil, err
	}
	return s.roles(ctx, orgID)
}

func (s *Service) roles(ctx context.Context, orgID string) ([]Role, error) {
	out := slices.SortedFunc(maps.Values(s.builtIn), func(a, b Role) int { return strings.Compare(a.Name, b.Name) })
	custom, err := s.store.Roles(ctx, orgID)
	if err != nil {
		return nil, storeErr(err)
	}
	return append(out, custom...), nil
}

// newID returns 16 random bytes, base64url (22 characters: the active
// organization's id is in every JWT session cookie).
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// HashToken returns the stored form of an invitation token: the hex
// SHA-256 of it. The token is 32 random bytes, so a fast hash is enough:
// there is nothing to guess (unlike a password).
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// newToken returns a new invitation token, 32 random bytes base64url,
// and its hash.
func newToken() (string, string) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	t := base64.RawURLEncoding.EncodeToString(b[:])
	return t, HashToken(t)
}

// cleanName checks an organization's display name: 1 to 100 characters
// after trimming, none of them control characters.
func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 || strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", fmt.Errorf("%w: name (1 to 100 characters, no control characters)", ErrInvalid)
	}
	return name, nil
}

// Slugify returns a slug made of name: lower-case letters and digits,
// other runs as one '-'. It may be empty (a name of no ASCII letters).
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
			if b.Len() >= 48 {
				break
			}
		} else {
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// checkSlug returns slug, or one made of name when slug is empty, checked.
func checkSlug(slug, name string) (string, error) {
	if slug == "" {
		slug = Slugify(name)
	}
	if !validSlug(slug) {
		return "", fmt.Errorf("%w: slug (1 to 48 of a-z, 0-9 and '-')", ErrInvalid)
	}
	return slug, nil
}

// positiveOr sets *v, a limit or a duration of Config, to def when it is
// not above zero.
func positiveOr[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// found returns the item of list, read from the store, that wanted
// accepts: the store's error err (storeErr), or an error wrapping
// ErrNotFound, of what, when none is.
func found[T any](list []T, err error, wanted func(T) bool, what string) (T, error) {
	var none T
	if err != nil {
		return none, storeErr(err)
	}
	if i := slices.IndexFunc(list, wanted); i >= 0 {
		return list[i], nil
	}
	return none, fmt.Errorf("%w: %s", ErrNotFound, what)
}

// Create makes an organization with userID its owner. The slug is made
// of the name when empty. A user who is a member of
// Config.MaxOrganizationsPerUser organizations already is ErrLimit.
func (s *Service) Create(ctx context.Context, userID, name, slug string) (Organization, error) {
	name, err := cleanName(name)
	if err != nil {
		return Organization{}, err
	}
	if slug, err = checkSlug(slug, name); err != nil {
		return Organization{}, err
	}
	now := s.cfg.Now().UTC().Truncate(time.Microsecond)
	o := Organization{ID: newID(), Name: name, Slug: slug, CreatedAt: now}
	first := Membership{OrganizationID: o.ID, UserID: userID, Role: Owner, CreatedAt: now}
	if err := s.store.CreateOrganization(ctx, o, first, s.cfg.MaxOrganizationsPerUser); err != nil {
		return Organization{}, storeErr(err)
	}
	return o, nil
}

// Organizations returns those userID is a member of.
func (s *Service) Organizations(ctx context.Context, userID string) ([]Organization, error) {
	list, err := s.store.Organizations(ctx, userID)
	return list, storeErr(err)
}

// View is an organization as one of its members sees it: every member
// sees the members and roles; the pending invitations only with
// member:invite.
type View struct {
	Organization Organization   `json:"organization"`
	Role         string         `json:"role"`        // the viewer's
	Permissions  permission.Set `json:"permissions"` // the viewer's
	Members      []Membership   `json:"members"`
	Roles        []Role         `json:"roles"`
	Invitations  []Invitation   `json:"invitations,omitempty"`
}

// Get returns orgID as actor sees it.
func (s *Service) Get(ctx context.Context, actor, orgID string) (View, error) {
	m, perms, err := s.Authorize(ctx, orgID, actor)
	if err != nil {
		return View{}, err
	}
	v := View{Role: m.Role, Permissions: perms}
	if v.Organization, err = s.store.Organization(ctx, orgID); err != nil {
		return View{}, storeErr(err)
	}
	if v.Members, err = s.store.Members(ctx, orgID); err != nil {
		return View{}, storeErr(err)
	}
	if v.Roles, err = s.roles(ctx, orgID); err != nil {
		return View{}, err
	}
	if perms.Has(InviteMember) {
		if v.Invitations, err = s.pending(ctx, orgID); err != nil {
			return View{}, err
		}
	}
	return v, nil
}

// Update renames orgID and sets its slug (kept when slug is empty); it
// needs organization:update.
func (s *Service) Update(ctx context.Context, actor, orgID, name, slug string) (Organization, error) {
	if _, _, err := s.Authorize(ctx, orgID, actor, UpdateOrganization); err != nil {
		return Organization{}, err
	}
	o, err := s.store.Organization(ctx, orgID)
	if err != nil {
		return Organization{}, storeErr(err)
	}
	if name != "" {
		if o.Name, err = cleanName(name); err != nil {
			return Organization{}, err
		}
	}
	if slug != "" {
		if o.Slug, err = checkSlug(slug, ""); err != nil {
			return Organization{}, err
		}
	}
	return o, storeErr(s.store.UpdateOrganization(ctx, o))
}

// Delete removes orgID and everything in it; it needs
// organization:delete (the owner's alone among the built-in roles). The
// routes also ask for a fresh sign-in.
func (s *Service) Delete(ctx context.Context, actor, orgID string) error {
	if _, _, err := s.Authorize(ctx, orgID, actor, DeleteOrganization); err != nil {
		return err
	}
	return storeErr(s.store.DeleteOrganization(ctx, orgID))
}

// Leave takes actor out of orgID; ErrLastOwner for its last owner.
func (s *Service) Leave(ctx context.Context, actor, orgID string) error {
	m, _, err := s.Authorize(ctx, orgID, actor)
	if err != nil {
		return err
	}
	return judgedErr(s.store.RemoveMembership(ctx, orgID, actor, map[string]string{actor: m.Role}))
}

// judgedErr is storeErr for a Store's change of a member judged on
// roles read before it: its ErrConflict means one of them changed
// meanwhile, and the change, judged on what is no longer so, was not
// made.
func judgedErr(err error) error {
	if errors.Is(err, adapter.ErrConflict) {
		return fmt.Errorf("%w; reload and try again: %w", ErrRoleChanged, err)
	}
	return storeErr(err)
}

// outranks checks that actor, holding perms, may act on a member whose
// role holds theirs: nobody removes or changes the role of someone who
// holds more than they do (an admin cannot demote an owner).
func outranks(perms, theirs permission.Set) error {
	if err := permission.Grant(perms, theirs); err != nil {
		return fmt.Errorf("%w: the member holds more than you: %w", ErrForbidden, err)
	}
	return nil
}

// overMember checks that actor holds want in orgID and every statement
// of the member userID's role, and returns the actor's statements and
// the roles, by user id, that the check read: the Store's change takes
// them, and makes no change when either has changed meanwhile (the
// member was made an owner, the actor demoted).
func (s *Service) overMember(ctx context.Context, actor, orgID, userID string, want permission.Statement) (permission.Set, map[string]string, error) {
	m, perms, err := s.Authorize(ctx, orgID, actor, want)
	if err != nil {
		return nil, nil, err
	}
	target, err := s.store.Membership(ctx, orgID, userID)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	if userID == actor && target.Role != m.Role { // changed between the two reads
		return nil, nil, judgedErr(adapter.ErrConflict)
	}
	r, err := s.role(ctx, orgID, target.Role)
	if err != nil {
		return nil, nil, err
	}
	judged := map[string]string{actor: m.Role, userID: target.Role}
	return perms, judged, outranks(perms, r.Permissions)
}

// overRole is overMember for orgID's custom role name.
func (s *Service) overRole(ctx context.Context, actor, orgID, name string, want permission.Statement) (permission.Set, error) {
	_, perms, err := s.Authorize(ctx, orgID, actor, want)
	if err != nil {
		return nil, err
	}
	old, err := s.customRole(ctx, orgID, name)
	if err != nil {
		return nil, err
	}
	return perms, outranks(perms, old.Permissions)
}

// Remove takes the member userID out of orgID: member:remove, and the
// member's role must not hold more than the actor's. Removing oneself is
// Leave. ErrConflict when the member's role or the actor's changes
// while the request runs: the check was made on the roles as they were.
func (s *Service) Remove(ctx context.Context, actor, orgID, userID string) error {
	if userID == actor {
		return s.Leave(ctx, actor, orgID)
	}
	_, judged, err := s.overMember(ctx, actor, orgID, userID, RemoveMember)
	if err != nil {
		return err
	}
	return judgedErr(s.store.RemoveMembership(ctx, orgID, userID, judged))
}

// SetRole gives the member userID of orgID the role: member:update-role,
// and the actor must hold every statement of both the member's current
// role and the new one. Demoting the last owner is ErrLastOwner;
// ErrConflict, as for Remove, when the member's role or the actor's
// changes while the request runs.
func (s *Service) SetRole(ctx context.Context, actor, orgID, userID, role string) error {
	perms, judged, err := s.overMember(ctx, actor, orgID, userID, UpdateMemberRole)
	if err != nil {
		return err
	}
	next, err := s.existingRole(ctx, orgID, role)
	if err != nil {
		return err
	}
	if err := permission.Grant(perms, next.Permissions); err != nil {
		return fmt.Errorf("%w: %w", ErrForbidden, err)
	}
	return judgedErr(s.store.SetRole(ctx, orgID, userID, role, judged))
}

// existingRole returns the built-in or custom role name of orgID, or
// ErrInvalid when there is none.
func (s *Service) existingRole(ctx context.Context, orgID, name string) (Role, error) {
	if r, ok := s.builtIn[name]; ok {
		return r, nil
	}
	r, err := s.customRole(ctx, orgID, name)
	if errors.Is(err, ErrNotFound) {
		return Role{}, fmt.Errorf("%w: no role %q", ErrInvalid, name)
	}
	return r, err
}

// checkRole checks a custom role's name and statements for actor, who
// holds perms: a valid name that is not built in, declared statements,
// and none the actor does not hold.
func (s *Service) checkRole(name string, statements []string, perms permission.Set) (Role, error) {
	if !validName(name) {
		return Role{}, fmt.Errorf("%w: role name %q (want [a-z0-9_-], 1 to 32)", ErrInvalid, name)
	}
	if _, ok := s.builtIn[name]; ok {
		return Role{}, fmt.Errorf("%w: %q is a built-in role", ErrConflict, name)
	}
	set, err := permission.NewSet(statements...)
	if err != nil {
		return Role{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := s.declared.Check(set); err != nil {
		return Role{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := permission.Grant(perms, set); err != nil {
		return Role{}, fmt.Errorf("%w: %w", ErrForbidden, err)
	}
	return Role{Name: name, Permissions: set}, nil
}

// CreateRole defines a custom role of orgID: role:create, declared
// statements, none that actor does not hold. An organization has at most
// Config.MaxRoles custom roles (ErrLimit).
func (s *Service) CreateRole(ctx context.Context, actor, orgID, name string, statements []string) (Role, error) {
	_, perms, err := s.Authorize(ctx, orgID, actor, CreateRole)
	if err != nil {
		return Role{}, err
	}
	r, err := s.checkRole(name, statements, perms)
	if err != nil {
		return Role{}, err
	}
	return r, storeErr(s.store.CreateRole(ctx, orgID, r, s.cfg.MaxRoles))
}

// UpdateRole replaces the statements of orgID's custom role name:
// role:update, and actor must hold every statement of the role as it is
// and as it will be.
func (s *Service) UpdateRole(ctx context.Context, actor, orgID, name string, statements []string) (Role, error) {
	perms, err := s.overRole(ctx, actor, orgID, name, UpdateRole)
	if err != nil {
		return Role{}, err
	}
	r, err := s.checkRole(name, statements, perms)
	if err != nil {
		return Role{}, err
	}
	return r, storeErr(s.store.UpdateRole(ctx, orgID, r))
}

// DeleteRole removes orgID's custom role name: role:delete, actor must
// hold its statements, and no member may hold it nor pending invitation
// name it (ErrRoleInUse).
func (s *Service) DeleteRole(ctx context.Context, actor, orgID, name string) error {
	if _, err := s.overRole(ctx, actor, orgID, name, DeleteRole); err != nil {
		return err
	}
	return storeErr(s.store.DeleteRole(ctx, orgID, name, s.cfg.Now()))
}

// customRole returns orgID's stored role name, ErrNotFound for none.
func (s *Service) customRole(ctx context.Context, orgID, name string) (Role, error) {
	custom, err := s.store.Roles(ctx, orgID)
	return found(custom, err, func(r Role) bool { return r.Name == name }, fmt.Sprintf("role %q", name))
}

// pending returns orgID's invitations that have not expired.
func (s *Service) pending(ctx context.Context, orgID string) ([]Invitation, error) {
	list, err := s.store.Invitations(ctx, orgID)
	if err != nil {
		return nil, storeErr(err)
	}
	now := s.cfg.Now()
	return slices.DeleteFunc(list, func(i Invitation) bool { return !now.Before(i.Expires) }), nil
}

// Invitations returns orgID's pending invitations; member:invite.
func (s *Service) Invitations(ctx context.Context, actor, orgID string) ([]Invitation, error) {
	if _, _, err := s.Authorize(ctx, orgID, actor, InviteMember); err != nil {
		return nil, err
	}
	return s.pending(ctx, orgID)
}

// Invite invites the address to orgID with the role: member:invite, and
// actor must hold every statement of the role. It returns the invitation
// and its token, which goes in the link to the address and nowhere else.
// A pending invitation to the same address is ErrConflict (resend it);
// an organization whose members and pending invitations number
// Config.MaxMembers is ErrLimit.
func (s *Service) Invite(ctx context.Context, actor, orgID, address, role string) (Invitation, string, error) {
	_, perms, err := s.Authorize(ctx, orgID, actor, InviteMember)
	if err != nil {
		return Invitation{}, "", err
	}
	addr, err := emailaddress.Normalize(address)
	if err != nil {
		return Invitation{}, "", fmt.Errorf("%w: address: %w", ErrInvalid, err)
	}
	if role == "" {
		role = Member
	}
	r, err := s.existingRole(ctx, orgID, role)
	if err != nil {
		return Invitation{}, "", err
	}
	if err := permission.Grant(perms, r.Permissions); err != nil {
		return Invitation{}, "", fmt.Errorf("%w: %w", ErrForbidden, err)
	}
	token, hash := newToken()
	now := s.cfg.Now().UTC().Truncate(time.Microsecond)
	inv := Invitation{ID: newID(), OrganizationID: orgID, Email: addr, Role: role, InviterID: actor, TokenHash: hash,
		Expires: now.Add(s.cfg.InvitationExpiry), CreatedAt: now}
	// The store checks, with the write, that the address has no pending
	// invitation and that a custom role still exists: checked here
	// before, a concurrent invitation or deletion of the role could
	// come in between.
	if err := s.store.CreateInvitation(ctx, inv, s.custom(role), s.cfg.MaxMembers); err != nil {
		return Invitation{}, "", s.invitationErr(ctx, err, inv)
	}
	return inv, token, nil
}

// custom reports whether the role name, one that exists, is a custom
// role: the Store checks that it still does when it writes.
func (s *Service) custom(name string) bool {
	_, builtIn := s.builtIn[name]
	return !builtIn
}

// invitationErr is storeErr for the Store's CreateInvitation and
// RenewInvitation of inv: its ErrConflict is another pending invitation
// to the address (the ids and token hashes are random); its ErrNotFound
// may be inv's custom role, deleted meanwhile, which is answered as
// Invite answers a role that does not exist.
func (s *Service) invitationErr(ctx context.Context, err error, inv Invitation) error {
	switch {
	case errors.Is(err, adapter.ErrConflict):
		return fmt.Errorf("%w: %s is already invited (resend the invitation): %w", ErrConflict, inv.Email, err)
	case errors.Is(err, adapter.ErrNotFound) && s.custom(inv.Role):
		if _, rerr := s.existingRole(ctx, inv.OrganizationID, inv.Role); errors.Is(rerr, ErrInvalid) {
			return rerr
		}
	}
	return storeErr(err)
}

// invitation returns orgID's invitation id.
func (s *Service) invitation(ctx context.Context, orgID, id string) (Invitation, error) {
	list, err := s.store.Invitations(ctx, orgID)
	return found(list, err, func(i Invitation) bool { return i.ID == id }, "invitation")
}

// Resend gives orgID's invitation id a new token and expiry, and returns
// them: the old link stops working. It needs member:invite and the
// invitation's role's statements. An expired invitation counts again
// towards Config.MaxMembers once resent (ErrLimit when it does not fit),
// and is ErrConflict when the address has another pending invitation.
func (s *Service) Resend(ctx context.Context, actor, orgID, id string) (Invitation, string, error) {
	_, perms, err := s.Authorize(ctx, orgID, actor, InviteMember)
	if err != nil {
		return Invitation{}, "", err
	}
	inv, err := s.invitation(ctx, orgID, id)
	if err != nil {
		return Invitation{}, "", err
	}
	r, err := s.existingRole(ctx, orgID, inv.Role)
	if err != nil {
		return Invitation{}, "", err
	}
	if err := permission.Grant(perms, r.Permissions); err != nil {
		return Invitation{}, "", fmt.Errorf("%w: %w", ErrForbidden, err)
	}
	token, hash := newToken()
	now := s.cfg.Now().UTC().Truncate(time.Microsecond)
	inv.TokenHash, inv.Expires = hash, now.Add(s.cfg.InvitationExpiry)
	if err := s.store.RenewInvitation(ctx, orgID, id, hash, inv.Expires, s.custom(inv.Role), s.cfg.MaxMembers, now); err != nil {
		return Invitation{}, "", s.invitationErr(ctx, err, inv)
	}
	return inv, token, nil
}

// Cancel revokes orgID's invitation id: invitation:cancel.
func (s *Service) Cancel(ctx context.Context, actor, orgID, id string) error {
	if _, _, err := s.Authorize(ctx, orgID, actor, CancelInvitation); err != nil {
		return err
	}
	return storeErr(s.store.DeleteInvitation(ctx, orgID, id))
}

// Invitation returns the invitation of token, for the page that asks
// whether to accept it; ErrExpired when it has expired.
func (s *Service) Invitation(ctx context.Context, token string) (Invitation, error) {
	inv, err := s.store.InvitationByToken(ctx, HashToken(token))
	if err != nil {
		return Invitation{}, storeErr(err)
	}
	if !s.cfg.Now().Before(inv.Expires) {
		return Invitation{}, ErrExpired
	}
	return inv, nil
}

// Accept uses the invitation of token for the user userID, whose stored
// address is address: the address must be the invited one (the invited
// address cannot be changed by whoever holds the link), the invitation
// unexpired and unused. It is single-use: of concurrent accepts one
// succeeds. Joining is ErrLimit when the user is a member of
// Config.MaxOrganizationsPerUser organizations already, or the
// organization has Config.MaxMembers members.
func (s *Service) Accept(ctx context.Context, token, userID, address string) (Membership, error) {
	addr, err := emailaddress.Normalize(address)
	if err != nil || userID == "" {
		return Membership{}, ErrWrongRecipient
	}
	m, err := s.store.AcceptInvitation(ctx, HashToken(token), addr, userID, s.cfg.MaxOrganizationsPerUser, s.cfg.MaxMembers, s.cfg.Now())
	return m, storeErr(err)
}

// ForRecipient reports whether inv is for the user whose stored address
// is address, as Accept and Decline judge it: the address, normalized
// (NFKC, lower case), is the invited one. The invitation page asks it, so
// that it offers Accept to the users Accept takes, and to no other.
func ForRecipient(inv Invitation, address string) bool {
	addr, err := emailaddress.Normalize(address)
	return err == nil && addr == inv.Email
}

// Decline deletes the invitation of token, for the user whose address is
// address; ErrWrongRecipient when it is for another.
func (s *Service) Decline(ctx context.Context, token, address string) (Invitation, error) {
	addr, err := emailaddress.Normalize(address)
	if err != nil {
		return Invitation{}, ErrWrongRecipient
	}
	inv, err := s.store.DeclineInvitation(ctx, HashToken(token), addr)
	return inv, storeErr(err)
}
