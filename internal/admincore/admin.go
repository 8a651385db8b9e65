// Package admincore is package admin's vocabulary and storage contract
// (Config, Role, Ban, Status, Query, Event, Store), which package admin
// re-exports. It is apart so that the admin routes (internal/adminflow)
// and the sessions' ban checks (internal/sessions) use it without
// importing package admin, whose Enable builds those routes: a program
// links the routes only when it calls admin.Enable.
package admincore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// Errors, for errors.Is. Store methods may wrap them, and return
// adapter.ErrNotFound for an unknown user.
var (
	// ErrInvalidRole: a role other than RoleUser and RoleAdmin.
	ErrInvalidRole = errors.New("admin: invalid role")
	// ErrProtected: the action may not target an administrator (banning,
	// deleting or demoting one named in Config, or banning another
	// administrator: demote first).
	ErrProtected = errors.New("admin: the user is an administrator")
	// ErrSelf: an administrator may not ban, delete or demote themselves
	// through the admin routes (it would lock the site out of its own
	// administration by a slip).
	ErrSelf = errors.New("admin: an administrator cannot do that to themselves")
)

// Role is a user's global role.
type Role string

// The global roles. A user without a stored role is RoleUser.
const (
	RoleUser  Role = "user"
	RoleAdmin Role = "admin"
)

// Valid reports whether r is one of the roles above.
func (r Role) Valid() bool { return r == RoleUser || r == RoleAdmin }

// DefaultPageSize and MaxPageSize bound ListUsers when Config leaves them
// zero.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// Config configures the admin routes, which Enable turns on
// (gatehouse.Config.Admin: admin.Enable(Config{…})).
// The zero value is usable: administrators are then only those whose
// stored role is RoleAdmin, and nobody can be made one but through the
// Store (or a Config naming a first administrator).
type Config struct {
	// UserIDs and Emails name administrators whatever their stored
	// role: the way to have a first one. They cannot be banned, deleted
	// or demoted through the routes. E-mail addresses are compared
	// case-insensitively, and only verified addresses count.
	UserIDs []string
	Emails  []string
	// PageSize is how many users a list returns when the request does
	// not say (DefaultPageSize when zero); MaxPageSize the most it may
	// ask for (the package's MaxPageSize when zero).
	PageSize, MaxPageSize int
	// ImpersonationMaxAge is how long an impersonation lasts before it
	// ends by itself: DefaultImpersonationMaxAge when zero.
	ImpersonationMaxAge time.Duration
	// SelfDelete lets a signed-in user delete their own account
	// (POST {base}/account/delete, with a fresh sign-in). An
	// administrator Config names cannot.
	SelfDelete bool
	// SendEmailChange, when set, turns on e-mail changes (POST
	// {base}/account/email): it sends the link that proves the new
	// address to that address, and a notice to the old one. The address
	// changes only when the link is followed.
	SendEmailChange func(ctx context.Context, m EmailChange) error
	// BeforeDelete, when set, is asked before a user is deleted, by an
	// administrator or by themselves; an error refuses the deletion (403
	// with code "refused"), and is logged, not shown. The application's
	// own rules belong here; the last owner of an organization is
	// refused without it (409 last_owner, with organizations on).
	BeforeDelete func(ctx context.Context, userID string) error
}

// EmailChange is a message of an e-mail change, for
// Config.SendEmailChange.
type EmailChange struct {
	// Notice is false for the message to the new address, which carries
	// URL, the single-use link that makes the change (it holds a token:
	// send it, never log it); true for the notice to the old address,
	// which has no URL.
	Notice bool
	// To is the address to send to; NewAddress the one asked for.
	To, NewAddress string
	URL            string
	// Expires is when the link stops working.
	Expires time.Time
}

// EmailChangeMaxAge is how long an e-mail change link works.
const EmailChangeMaxAge = time.Hour

// DefaultImpersonationMaxAge is Config.ImpersonationMaxAge when zero.
const DefaultImpersonationMaxAge = time.Hour

// ImpersonationAge returns how long an impersonation lasts.
func (c *Config) ImpersonationAge() time.Duration {
	if c == nil || c.ImpersonationMaxAge <= 0 {
		return DefaultImpersonationMaxAge
	}
	return c.ImpersonationMaxAge
}

// Named reports whether u is an administrator by Config (UserIDs, or a
// verified address in Emails).
func (c *Config) Named(u adapter.User) bool {
	if c == nil {
		return false
	}
	if slices.Contains(c.UserIDs, u.ID) {
		return true
	}
	if u.Email == "" || u.EmailVerified == nil {
		return false
	}
	return slices.ContainsFunc(c.Emails, func(e string) bool { return strings.EqualFold(e, u.Email) })
}

// IsAdmin reports whether u, whose stored status is st, is an
// administrator: named by c, or with the stored role RoleAdmin. It is
// the one rule of who is one: the admin routes let in only them (on
// every request), and an impersonation holds only while its
// administrator is one and its user is not (internal/sessions). A
// function, not a method: Config is package admin's, and this is not.
func IsAdmin(c *Config, u adapter.User, st Status) bool {
	return c.Named(u) || st.Role == RoleAdmin
}

// ReadIsAdmin reads whether the user userID is an administrator
// (IsAdmin) from users and store: false for an unknown user, an error
// when either cannot be read.
func ReadIsAdmin(ctx context.Context, c *Config, users adapter.Adapter, store Store, userID string) (bool, error) {
	u, err := users.GetUser(ctx, userID)
	if errors.Is(err, adapter.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if c.Named(u) { // whatever the store holds: no need to read it
		return true, nil
	}
	st, err := store.UserStatus(ctx, userID)
	if err != nil {
		return false, err
	}
	return IsAdmin(c, u, st), nil
}

// Limit returns the page size for a request that asked for n (0: not
// said), within the configured bounds.
func (c *Config) Limit(n int) int {
	def, maxN := DefaultPageSize, MaxPageSize
	if c != nil && c.PageSize > 0 {
		def = c.PageSize
	}
	if c != nil && c.MaxPageSize > 0 {
		maxN = c.MaxPageSize
	}
	if n <= 0 {
		n = def
	}
	return min(n, maxN)
}

// Ban is a user's ban.
type Ban struct {
	// Reason is the administrator's note; shown to the user only when
	// ShowReason is set.
	Reason     string
	ShowReason bool
	// Expires is when the ban lifts by itself; zero for never.
	Expires time.Time
	// By is the id of the administrator who banned; At when.
	By string
	At time.Time
}

// Refusal is the error of a banned user's sign-in (the Err of the Banned
// error): what the error page may show them. Reason is the ban's reason
// only when the administrator chose to show it (Ban.ShowReason).
type Refusal struct {
	UserID  string
	Reason  string
	Expires time.Time
}

func (r *Refusal) Error() string { return fmt.Sprintf("user %q is banned", r.UserID) }

// Refusal returns the error of the user's sign-in refused by b.
func (b *Ban) Refusal(userID string) *Refusal {
	r := &Refusal{UserID: userID, Expires: b.Expires}
	if b.ShowReason {
		r.Reason = b.Reason
	}
	return r
}

// Active reports whether the ban holds at now.
func (b *Ban) Active(now time.Time) bool {
	return b != nil && (b.Expires.IsZero() || now.Before(b.Expires))
}

// Status is what the Store keeps of a user besides the user record.
type Status struct {
	// Role is the stored role; RoleUser when none was set.
	Role Role
	// Ban is the user's ban, nil when never banned or unbanned since.
	// An expired ban is returned as it is (Ban.Active tells).
	Ban *Ban
	// RevokedBefore is the time before which every session of the user
	// was ended (RevokeSessions, a ban): JWT sessions and cookie-cache
	// copies signed in before it are refused. Zero for none. It is a
	// whole microsecond (RevocationTime).
	RevokedBefore time.Time
}

// Refuses reports whether a session of the user signed in at signedIn
// must be refused at now: the user is banned, or their sessions were
// revoked after it began. A zero signedIn (a session that does not say)
// is refused when there was any revocation.
func (s Status) Refuses(signedIn, now time.Time) bool {
	if s.Ban.Active(now) {
		return true
	}
	return !s.RevokedBefore.IsZero() && signedIn.Before(s.RevokedBefore)
}

// Query selects users for ListUsers.
type Query struct {
	// Search matches users whose e-mail address or name contains it,
	// ignoring ASCII case; "" matches everyone.
	Search string
	// Role, when not "", keeps only users with that role.
	Role Role
	// BannedOnly keeps only users whose ban is active at Now.
	BannedOnly bool
	// After is the cursor: only users whose id sorts after it (a page's
	// Next). Users are listed in the order of their ids.
	After string
	// Limit is the most users returned; the Store may cap it. At least 1.
	Limit int
	// Now is when BannedOnly is judged; the Store uses the current time
	// when zero.
	Now time.Time
}

// Listed is one user in a page of ListUsers.
type Listed struct {
	User   adapter.User
	Status Status
}

// Page is one page of ListUsers. Next is the cursor of the next page, ""
// when this is the last.
type Page struct {
	Users []Listed
	Next  string
}

// Store keeps roles, bans and revocations, and lists and deletes users;
// an adapter implements it beside adapter.Adapter. Every method is safe
// for concurrent use and atomic on its own.
type Store interface {
	// ListUsers returns one page of the users Query selects.
	ListUsers(ctx context.Context, q Query) (Page, error)
	// UserStatus returns the user's Status (RoleUser and nothing else
	// for a user with nothing stored), adapter.ErrNotFound for an unknown
	// user (a JWT session of a deleted user ends with it). It is read on
	// every read of a JWT session or cookie-cache copy: keep it to one
	// indexed lookup.
	UserStatus(ctx context.Context, userID string) (Status, error)
	// SetUserRole stores the user's role; adapter.ErrNotFound for an unknown
	// user, ErrInvalidRole for an invalid role.
	SetUserRole(ctx context.Context, userID string, role Role) error
	// BanUser stores the user's ban (replacing any) and moves
	// RevokedBefore to RevocationTime(b.At) (never back);
	// adapter.ErrNotFound for an unknown user.
	BanUser(ctx context.Context, userID string, b Ban) error
	// UnbanUser removes the user's ban; no ban is no error.
	UnbanUser(ctx context.Context, userID string) error
	// RevokeSessions moves the user's RevokedBefore to
	// RevocationTime(at) (never back);
	// adapter.ErrNotFound for an unknown user. The caller deletes the
	// database sessions (adapter.SessionRevoker).
	RevokeSessions(ctx context.Context, userID string, at time.Time) error
	// PurgeUser deletes the user with everything stored of them: accounts,
	// sessions, passkeys, password, two-factor secret, status, and the
	// e-mail verification tokens of their address. adapter.ErrNotFound
	// for an unknown user.
	PurgeUser(ctx context.Context, userID string) error
}

// OwnerKeeper is a Store that keeps organizations too
// (organization.Store), as the built-in adapters do. With
// gatehouse.Config.Organizations set, the routes delete users through
// it, and gatehouse.New refuses an adapter that is not one.
type OwnerKeeper interface {
	// PurgeUnlessLastOwner is PurgeUser, except that it deletes nothing
	// and returns organization.ErrLastOwner (wrapped) when the user is
	// the only owner of an organization. The check and the deletion are
	// one atomic step, as organization.Store's SetRole and
	// RemoveMembership are: of a deletion and a concurrent demotion or
	// removal of the organization's other owner, one fails.
	PurgeUnlessLastOwner(ctx context.Context, userID string) error
}

// Action names what an administrator did, in an Event.
type Action string

// The actions Events are told of.
const (
	ActionSetRole        Action = "set-role"
	ActionBan            Action = "ban"
	ActionUnban          Action = "unban"
	ActionRevokeSessions Action = "revoke-sessions"
	ActionDeleteUser     Action = "delete-user"
	// ActionDeleteSelf: a user deleted their own account (ActorID is
	// TargetID).
	ActionDeleteSelf Action = "delete-self"
	// ActionImpersonate: the administrator (ActorID) began to see the
	// application as the user (TargetID); ActionStopImpersonating: they
	// stopped.
	ActionImpersonate       Action = "impersonate"
	ActionStopImpersonating Action = "stop-impersonating"
	// ActionCreateUser: the administrator created the user (Role is
	// the role given); ActionSetPassword: they set the user's password
	// (the event never holds it); ActionRevokeSession: they ended one of
	// the user's sessions.
	ActionCreateUser    Action = "create-user"
	ActionSetPassword   Action = "set-password"
	ActionRevokeSession Action = "revoke-session"
)

// Event is one administrator action, for audit logs
// (gatehouse.Events.Admin).
type Event struct {
	Action Action
	// ActorID is the administrator; TargetID the user acted upon.
	ActorID, TargetID string
	// At is when; IP the client's address (through the trusted proxies,
	// as every rate limit sees it) and UserAgent its User-Agent header.
	At        time.Time
	IP        string
	UserAgent string
	// Role is the new role (ActionSetRole, ActionCreateUser); Ban the
	// ban (ActionBan);
	// Sessions how many database sessions were deleted
	// (ActionRevokeSessions, ActionBan, ActionRevokeSession,
	// ActionSetPassword).
	Role     Role
	Ban      *Ban
	Sessions int
}

// RevocationTime returns t to the microsecond, rounded up: the form
// RevokedBefore is stored in. Sign-in times are kept to the microsecond,
// so a session signed in during the microsecond of a revocation is
// refused with it, and one signed in the next is not.
func RevocationTime(t time.Time) time.Time {
	s := t.Truncate(time.Microsecond)
	if s.Before(t) {
		s = s.Add(time.Microsecond)
	}
	return s.Round(0).UTC()
}
