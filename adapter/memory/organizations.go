package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// memberKey identifies a membership.
type memberKey struct{ org, user string }

// orgData is what the adapter keeps of organizations (organization.Store),
// under the adapter's mutex, as the SQL adapters keep it in their tables.
type orgData struct {
	orgs        map[string]organization.Organization
	members     map[memberKey]organization.Membership
	invitations map[string]organization.Invitation // by id
	roles       map[memberKey]organization.Role    // by (org, role name)
	active      map[string]activeOrg               // by session key
	teams       *teamData                          // teams.go, made on first use
}

// activeOrg is a database session's active organization.
type activeOrg struct {
	user, org string
	expires   time.Time
}

// orgsLocked returns the organization data, made on first use. m.mu must
// be held.
func (m *Adapter) orgsLocked() *orgData {
	if m.orgs == nil {
		m.orgs = &orgData{orgs: map[string]organization.Organization{}, members: map[memberKey]organization.Membership{},
			invitations: map[string]organization.Invitation{}, roles: map[memberKey]organization.Role{}, active: map[string]activeOrg{}}
	}
	return m.orgs
}

// deleteUserOrgs removes userID's memberships, as the SQL adapters'
// foreign keys do. m.mu must be held.
func (m *Adapter) deleteUserOrgs(userID string) {
	if m.orgs == nil {
		return
	}
	for k := range m.orgs.members {
		if k.user == userID {
			m.removeMemberLocked(k)
		}
	}
}

// removeMemberLocked removes a membership and its sessions' active
// organization. m.mu must be held.
func (m *Adapter) removeMemberLocked(k memberKey) {
	d := m.orgsLocked()
	delete(d.members, k)
	m.removeTeamMembersLocked(k)
	for key, a := range d.active {
		if a.user == k.user && a.org == k.org {
			delete(d.active, key)
		}
	}
}

func notFound(what, id string) error {
	return fmt.Errorf("memory: %s %q: %w", what, id, adapter.ErrNotFound)
}

// orgLimitLocked returns organization.ErrLimit when userID is a member
// of max organizations. m.mu must be held.
func (m *Adapter) orgLimitLocked(userID string, max int) error {
	n := 0
	for k := range m.orgsLocked().members {
		if k.user == userID {
			n++
		}
	}
	if n >= max {
		return fmt.Errorf("memory: %d organizations per user: %w", max, organization.ErrLimit)
	}
	return nil
}

// memberLimitLocked returns organization.ErrLimit when orgID's members
// and its invitations unexpired at now number max; except, an
// invitation's id, is not counted. m.mu must be held.
func (m *Adapter) memberLimitLocked(orgID, except string, max int, now time.Time) error {
	d := m.orgsLocked()
	n := 0
	for k := range d.members {
		if k.org == orgID {
			n++
		}
	}
	for id, x := range d.invitations {
		if x.OrganizationID == orgID && id != except && now.Before(x.Expires) {
			n++
		}
	}
	if n >= max {
		return fmt.Errorf("memory: %d members and invitations: %w", max, organization.ErrLimit)
	}
	return nil
}

// CreateOrganization stores o and its first member, unless the user is a
// member of max organizations (organization.Store).
func (m *Adapter) CreateOrganization(ctx context.Context, o organization.Organization, first organization.Membership, max int) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if _, ok := m.users[first.UserID]; !ok {
			return notFound("user", first.UserID)
		}
		if err := m.orgLimitLocked(first.UserID, max); err != nil {
			return err
		}
		if _, ok := d.orgs[o.ID]; ok {
			return fmt.Errorf("memory: organization %q: %w", o.ID, adapter.ErrConflict)
		}
		for _, x := range d.orgs {
			if x.Slug == o.Slug {
				return fmt.Errorf("memory: slug %q: %w", o.Slug, adapter.ErrConflict)
			}
		}
		o.CreatedAt = o.CreatedAt.UTC().Truncate(time.Microsecond)
		d.orgs[o.ID] = o
		first.OrganizationID = o.ID
		first.CreatedAt = first.CreatedAt.UTC().Truncate(time.Microsecond)
		d.members[memberKey{o.ID, first.UserID}] = first
		return nil
	})
}

// Organization returns the organization with the id (organization.Store).
func (m *Adapter) Organization(ctx context.Context, id string) (organization.Organization, error) {
	return lockedValue(ctx, m, func() (organization.Organization, error) {
		o, ok := m.orgsLocked().orgs[id]
		if !ok {
			return organization.Organization{}, notFound("organization", id)
		}
		return o, nil
	})
}

// UpdateOrganization stores o's name and slug (organization.Store).
func (m *Adapter) UpdateOrganization(ctx context.Context, o organization.Organization) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		old, ok := d.orgs[o.ID]
		if !ok {
			return notFound("organization", o.ID)
		}
		for _, x := range d.orgs {
			if x.Slug == o.Slug && x.ID != o.ID {
				return fmt.Errorf("memory: slug %q: %w", o.Slug, adapter.ErrConflict)
			}
		}
		old.Name, old.Slug = o.Name, o.Slug
		d.orgs[o.ID] = old
		return nil
	})
}

// DeleteOrganization removes the organization and all it holds
// (organization.Store).
func (m *Adapter) DeleteOrganization(ctx context.Context, id string) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if _, ok := d.orgs[id]; !ok {
			return notFound("organization", id)
		}
		delete(d.orgs, id)
		m.deleteTeamsLocked(id)
		for k := range d.members {
			if k.org == id {
				m.removeMemberLocked(k)
			}
		}
		for k, i := range d.invitations {
			if i.OrganizationID == id {
				delete(d.invitations, k)
			}
		}
		for k := range d.roles {
			if k.org == id {
				delete(d.roles, k)
			}
		}
		return nil
	})
}

// Organizations returns those userID is a member of (organization.Store).
func (m *Adapter) Organizations(ctx context.Context, userID string) ([]organization.Organization, error) {
	return lockedValue(ctx, m, func() ([]organization.Organization, error) {
		d := m.orgsLocked()
		member := func(id string, _ organization.Organization) bool {
			_, ok := d.members[memberKey{id, userID}]
			return ok
		}
		return collect(d.orgs, member, nil, func(a, b organization.Organization) int {
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
		}), nil
	})
}

// Membership returns userID's membership of orgID (organization.Store).
func (m *Adapter) Membership(ctx context.Context, orgID, userID string) (organization.Membership, error) {
	return lockedValue(ctx, m, func() (organization.Membership, error) {
		x, ok := m.orgsLocked().members[memberKey{orgID, userID}]
		if !ok {
			return organization.Membership{}, notFound("member", userID)
		}
		return x, nil
	})
}

// Members returns orgID's members (organization.Store).
func (m *Adapter) Members(ctx context.Context, orgID string) ([]organization.Membership, error) {
	return lockedValue(ctx, m, func() ([]organization.Membership, error) {
		of := func(k memberKey, _ organization.Membership) bool { return k.org == orgID }
		return collect(m.orgsLocked().members, of, nil, func(a, b organization.Membership) int {
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.UserID, b.UserID))
		}), nil
	})
}

// lastOwner reports whether k is orgID's only owner. m.mu must be held.
func (m *Adapter) lastOwner(k memberKey) bool {
	d := m.orgsLocked()
	if d.members[k].Role != organization.Owner {
		return false
	}
	for o, x := range d.members {
		if o.org == k.org && o.user != k.user && x.Role == organization.Owner {
			return false
		}
	}
	return true
}

// judgedLocked returns adapter.ErrConflict when a member of orgID that
// judged names no longer holds the role it gives (or is no longer a
// member). m.mu must be held.
func (m *Adapter) judgedLocked(orgID string, judged map[string]string) error {
	d := m.orgsLocked()
	for user, role := range judged {
		if x, ok := d.members[memberKey{orgID, user}]; !ok || x.Role != role {
			return fmt.Errorf("memory: member %q: role changed: %w", user, adapter.ErrConflict)
		}
	}
	return nil
}

// SetRole sets a member's role, never taking the last owner's, when the
// members judged hold the roles judged gives (organization.Store).
func (m *Adapter) SetRole(ctx context.Context, orgID, userID, role string, judged map[string]string) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		k := memberKey{orgID, userID}
		x, ok := d.members[k]
		if !ok {
			return notFound("member", userID)
		}
		if err := m.judgedLocked(orgID, judged); err != nil {
			return err
		}
		if role != organization.Owner && m.lastOwner(k) {
			return organization.ErrLastOwner
		}
		x.Role = role
		d.members[k] = x
		return nil
	})
}

// RemoveMembership removes a member, never the last owner, when the
// members judged hold the roles judged gives (organization.Store).
func (m *Adapter) RemoveMembership(ctx context.Context, orgID, userID string, judged map[string]string) error {
	return m.locked(ctx, func() error {
		k := memberKey{orgID, userID}
		if _, ok := m.orgsLocked().members[k]; !ok {
			return notFound("member", userID)
		}
		if err := m.judgedLocked(orgID, judged); err != nil {
			return err
		}
		if m.lastOwner(k) {
			return organization.ErrLastOwner
		}
		m.removeMemberLocked(k)
		return nil
	})
}

// invitableLocked checks, for an invitation of orgID to email with
// role, pending at now (except, an invitation's id, aside): that a custom
// role exists and that no other invitation to the address is pending.
// m.mu must be held.
func (m *Adapter) invitableLocked(orgID, except, email, role string, custom bool, now time.Time) error {
	d := m.orgsLocked()
	if _, ok := d.roles[memberKey{orgID, role}]; custom && !ok {
		return notFound("role", role)
	}
	for id, x := range d.invitations {
		if x.OrganizationID == orgID && id != except && x.Email == email && now.Before(x.Expires) {
			return fmt.Errorf("memory: invitation to %q: %w", email, adapter.ErrConflict)
		}
	}
	return nil
}

// CreateInvitation stores inv, unless its organization has no custom
// role of its name, has another pending invitation to its address, or
// has members and unexpired invitations numbering max
// (organization.Store).
func (m *Adapter) CreateInvitation(ctx context.Context, inv organization.Invitation, custom bool, max int) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if _, ok := d.orgs[inv.OrganizationID]; !ok {
			return notFound("organization", inv.OrganizationID)
		}
		for _, x := range d.invitations {
			if x.ID == inv.ID || x.TokenHash == inv.TokenHash {
				return fmt.Errorf("memory: invitation: %w", adapter.ErrConflict)
			}
		}
		if err := m.invitableLocked(inv.OrganizationID, "", inv.Email, inv.Role, custom, inv.CreatedAt); err != nil {
			return err
		}
		if err := m.memberLimitLocked(inv.OrganizationID, "", max, inv.CreatedAt); err != nil {
			return err
		}
		inv.Expires = inv.Expires.UTC().Truncate(time.Microsecond)
		inv.CreatedAt = inv.CreatedAt.UTC().Truncate(time.Microsecond)
		d.invitations[inv.ID] = inv
		return nil
	})
}

// Invitations returns orgID's invitations (organization.Store).
func (m *Adapter) Invitations(ctx context.Context, orgID string) ([]organization.Invitation, error) {
	return lockedValue(ctx, m, func() ([]organization.Invitation, error) {
		of := func(_ string, x organization.Invitation) bool { return x.OrganizationID == orgID }
		return collect(m.orgsLocked().invitations, of, nil, func(a, b organization.Invitation) int {
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
		}), nil
	})
}

// byToken returns the invitation with the token hash. m.mu must be held.
func (m *Adapter) byToken(tokenHash string) (organization.Invitation, bool) {
	for _, x := range m.orgsLocked().invitations {
		if x.TokenHash == tokenHash {
			return x, true
		}
	}
	return organization.Invitation{}, false
}

// InvitationByToken returns the invitation of the token hash
// (organization.Store).
func (m *Adapter) InvitationByToken(ctx context.Context, tokenHash string) (organization.Invitation, error) {
	return lockedValue(ctx, m, func() (organization.Invitation, error) {
		x, ok := m.byToken(tokenHash)
		if !ok {
			return organization.Invitation{}, notFound("invitation", "")
		}
		return x, nil
	})
}

// RenewInvitation replaces an invitation's token hash and expiry, as
// CreateInvitation checks it; one expired at now must fit under max
// again (organization.Store).
func (m *Adapter) RenewInvitation(ctx context.Context, orgID, id, tokenHash string, expires time.Time, custom bool, max int, now time.Time) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		x, ok := d.invitations[id]
		if !ok || x.OrganizationID != orgID {
			return notFound("invitation", id)
		}
		if err := m.invitableLocked(orgID, id, x.Email, x.Role, custom, now); err != nil {
			return err
		}
		if !now.Before(x.Expires) {
			if err := m.memberLimitLocked(orgID, id, max, now); err != nil {
				return err
			}
		}
		x.TokenHash, x.Expires = tokenHash, expires.UTC().Truncate(time.Microsecond)
		d.invitations[id] = x
		return nil
	})
}

// DeleteInvitation removes orgID's invitation id (organization.Store).
func (m *Adapter) DeleteInvitation(ctx context.Context, orgID, id string) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if x, ok := d.invitations[id]; !ok || x.OrganizationID != orgID {
			return notFound("invitation", id)
		}
		delete(d.invitations, id)
		return nil
	})
}

// invitationFor returns the invitation of the token hash, sent to email:
// not found (adapter.ErrNotFound) for none, organization.ErrWrongRecipient
// for one sent to another address. m.mu must be held.
func (m *Adapter) invitationFor(tokenHash, email string) (organization.Invitation, error) {
	x, ok := m.byToken(tokenHash)
	switch {
	case !ok:
		return organization.Invitation{}, notFound("invitation", "")
	case x.Email != email:
		return organization.Invitation{}, organization.ErrWrongRecipient
	}
	return x, nil
}

// AcceptInvitation uses an invitation, under the mutex: once, and within
// the limits (organization.Store).
func (m *Adapter) AcceptInvitation(ctx context.Context, tokenHash, email, userID string, maxOrgs, maxMembers int, now time.Time) (organization.Membership, error) {
	return lockedValue(ctx, m, func() (organization.Membership, error) {
		d := m.orgsLocked()
		x, err := m.invitationFor(tokenHash, email)
		switch {
		case err != nil:
			return organization.Membership{}, err
		case !now.Before(x.Expires):
			return organization.Membership{}, organization.ErrExpired
		}
		if _, ok := m.users[userID]; !ok {
			return organization.Membership{}, notFound("user", userID)
		}
		k := memberKey{x.OrganizationID, userID}
		if _, ok := d.members[k]; ok {
			return organization.Membership{}, fmt.Errorf("memory: member: %w", adapter.ErrConflict)
		}
		if err := m.orgLimitLocked(userID, maxOrgs); err != nil {
			return organization.Membership{}, err
		}
		members := 0
		for mk := range d.members {
			if mk.org == x.OrganizationID {
				members++
			}
		}
		if members >= maxMembers {
			return organization.Membership{}, fmt.Errorf("memory: %d members: %w", maxMembers, organization.ErrLimit)
		}
		delete(d.invitations, x.ID)
		mb := organization.Membership{OrganizationID: x.OrganizationID, UserID: userID, Role: x.Role, CreatedAt: now.UTC().Truncate(time.Microsecond)}
		d.members[k] = mb
		return mb, nil
	})
}

// DeclineInvitation deletes an invitation for email (organization.Store).
func (m *Adapter) DeclineInvitation(ctx context.Context, tokenHash, email string) (organization.Invitation, error) {
	return lockedValue(ctx, m, func() (organization.Invitation, error) {
		x, err := m.invitationFor(tokenHash, email)
		if err == nil {
			delete(m.orgsLocked().invitations, x.ID)
		}
		return x, err
	})
}

// Roles returns orgID's custom roles (organization.Store).
func (m *Adapter) Roles(ctx context.Context, orgID string) ([]organization.Role, error) {
	return lockedValue(ctx, m, func() ([]organization.Role, error) {
		of := func(k memberKey, _ organization.Role) bool { return k.org == orgID }
		cloned := func(r organization.Role) organization.Role { r.Permissions = slices.Clone(r.Permissions); return r }
		return collect(m.orgsLocked().roles, of, cloned, func(a, b organization.Role) int { return cmp.Compare(a.Name, b.Name) }), nil
	})
}

// CreateRole stores a custom role, unless orgID has max
// (organization.Store).
func (m *Adapter) CreateRole(ctx context.Context, orgID string, r organization.Role, max int) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if _, ok := d.orgs[orgID]; !ok {
			return notFound("organization", orgID)
		}
		k := memberKey{orgID, r.Name}
		if _, ok := d.roles[k]; ok {
			return fmt.Errorf("memory: role %q: %w", r.Name, adapter.ErrConflict)
		}
		n := 0
		for rk := range d.roles {
			if rk.org == orgID {
				n++
			}
		}
		if n >= max {
			return fmt.Errorf("memory: %d roles: %w", max, organization.ErrLimit)
		}
		r.BuiltIn, r.Permissions = false, slices.Clone(r.Permissions)
		d.roles[k] = r
		return nil
	})
}

// UpdateRole replaces a custom role's statements (organization.Store).
func (m *Adapter) UpdateRole(ctx context.Context, orgID string, r organization.Role) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		k := memberKey{orgID, r.Name}
		if _, ok := d.roles[k]; !ok {
			return notFound("role", r.Name)
		}
		r.BuiltIn, r.Permissions = false, slices.Clone(r.Permissions)
		d.roles[k] = r
		return nil
	})
}

// DeleteRole removes a custom role no member holds and no invitation
// unexpired at now names, with the expired invitations that name it
// (organization.Store).
func (m *Adapter) DeleteRole(ctx context.Context, orgID, name string, now time.Time) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		k := memberKey{orgID, name}
		if _, ok := d.roles[k]; !ok {
			return notFound("role", name)
		}
		for mk, x := range d.members {
			if mk.org == orgID && x.Role == name {
				return organization.ErrRoleInUse
			}
		}
		for _, x := range d.invitations {
			if x.OrganizationID == orgID && x.Role == name && now.Before(x.Expires) {
				return organization.ErrRoleInUse
			}
		}
		for id, x := range d.invitations {
			if x.OrganizationID == orgID && x.Role == name {
				delete(d.invitations, id)
			}
		}
		delete(d.roles, k)
		return nil
	})
}

// SetActiveOrganization records a session's active organization
// (organization.Store).
func (m *Adapter) SetActiveOrganization(ctx context.Context, sessionKey, userID, orgID string, expires time.Time) error {
	return m.locked(ctx, func() error {
		d := m.orgsLocked()
		if orgID == "" {
			delete(d.active, sessionKey)
			return nil
		}
		if _, ok := d.members[memberKey{orgID, userID}]; !ok {
			return notFound("member", userID)
		}
		now := time.Now()
		for k, a := range d.active {
			if now.After(a.expires) {
				delete(d.active, k)
			}
		}
		d.active[sessionKey] = activeOrg{user: userID, org: orgID, expires: expires}
		return nil
	})
}

// ActiveOrganization returns a session's active organization
// (organization.Store).
func (m *Adapter) ActiveOrganization(ctx context.Context, sessionKey string) (string, error) {
	return lockedValue(ctx, m, func() (string, error) {
		a, ok := m.orgsLocked().active[sessionKey]
		if !ok || time.Now().After(a.expires) {
			return "", nil
		}
		return a.org, nil
	})
}
