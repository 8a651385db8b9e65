// Package admin is the administration of a Gatehouse site's users: who is
// an administrator (a global role kept in the database, plus the users the
// configuration names), listing and searching users, banning and
// unbanning them, ending their sessions and deleting them with everything
// they own.
//
// The package holds the vocabulary (Config, Role, Ban, Status, Query,
// Event) and the storage contract (Store), which the built-in adapters
// implement (adapter/memory, adapter/sqlite, adapter/postgres, and
// adapter/redisstore over one of them). The routes under {base}/admin are
// served by the handler, switched on by gatehouse.Config.Admin =
// Enable(Config{…}).
package admin

import (
	"github.com/gatehouse-auth/gatehouse/internal/admincore"
	"time"
)

// Errors, for errors.Is. Store methods may wrap them, and return
// adapter.ErrNotFound for an unknown user.
var (
	// ErrInvalidRole: a role other than RoleUser and RoleAdmin.
	ErrInvalidRole = admincore.ErrInvalidRole
	// ErrProtected: the action may not target an administrator (banning,
	// deleting or demoting one named in Config, or banning another
	// administrator: demote first).
	ErrProtected = admincore.ErrProtected
	// ErrSelf: an administrator may not ban, delete or demote themselves
	// through the admin routes (it would lock the site out of its own
	// administration by a slip).
	ErrSelf = admincore.ErrSelf
)

// Role is a user's global role.
type Role = admincore.Role

// The global roles. A user without a stored role is RoleUser.
const (
	RoleUser  = admincore.RoleUser
	RoleAdmin = admincore.RoleAdmin
)

// DefaultPageSize and MaxPageSize bound ListUsers when Config leaves them
// zero.
const (
	DefaultPageSize = admincore.DefaultPageSize
	MaxPageSize     = admincore.MaxPageSize
)

// Config configures the admin routes, which Enable turns on
// (gatehouse.Config.Admin: admin.Enable(Config{…})).
// The zero value is usable: administrators are then only those whose
// stored role is RoleAdmin, and nobody can be made one but through the
// Store (or a Config naming a first administrator).
type Config = admincore.Config

// EmailChange is a message of an e-mail change, for
// Config.SendEmailChange.
type EmailChange = admincore.EmailChange

// EmailChangeMaxAge is how long an e-mail change link works.
const EmailChangeMaxAge = admincore.EmailChangeMaxAge

// DefaultImpersonationMaxAge is Config.ImpersonationMaxAge when zero.
const DefaultImpersonationMaxAge = admincore.DefaultImpersonationMaxAge

// Ban is a user's ban.
type Ban = admincore.Ban

// Status is what the Store keeps of a user besides the user record.
type Status = admincore.Status

// Query selects users for ListUsers.
type Query = admincore.Query

// Listed is one user in a page of ListUsers.
type Listed = admincore.Listed

// Page is one page of ListUsers. Next is the cursor of the next page, ""
// when this is the last.
type Page = admincore.Page

// Store keeps roles, bans and revocations, and lists and deletes users;
// an adapter implements it beside adapter.Adapter. Every method is safe
// for concurrent use and atomic on its own.
type Store = admincore.Store

// OwnerKeeper is a Store that keeps organizations too
// (organization.Store), as the built-in adapters do. With
// gatehouse.Config.Organizations set, the routes delete users through
// it, and gatehouse.New refuses an adapter that is not one.
type OwnerKeeper = admincore.OwnerKeeper

// Action names what an administrator did, in an Event.
type Action = admincore.Action

// The actions Events are told of.
const (
	ActionSetRole        = admincore.ActionSetRole
	ActionBan            = admincore.ActionBan
	ActionUnban          = admincore.ActionUnban
	ActionRevokeSessions = admincore.ActionRevokeSessions
	ActionDeleteUser     = admincore.ActionDeleteUser
	// ActionDeleteSelf: a user deleted their own account (ActorID is
	// TargetID).
	ActionDeleteSelf = admincore.ActionDeleteSelf
	// ActionImpersonate: the administrator (ActorID) began to see the
	// application as the user (TargetID); ActionStopImpersonating: they
	// stopped.
	ActionImpersonate       = admincore.ActionImpersonate
	ActionStopImpersonating = admincore.ActionStopImpersonating
	// ActionCreateUser: the administrator created the user (Role is
	// the role given); ActionSetPassword: they set the user's password
	// (the event never holds it); ActionRevokeSession: they ended one of
	// the user's sessions.
	ActionCreateUser    = admincore.ActionCreateUser
	ActionSetPassword   = admincore.ActionSetPassword
	ActionRevokeSession = admincore.ActionRevokeSession
)

// Event is one administrator action, for audit logs
// (gatehouse.Events.Admin).
type Event = admincore.Event

// RevocationTime returns t to the microsecond, rounded up: the form
// RevokedBefore is stored in. Sign-in times are kept to the microsecond,
// so a session signed in during the microsecond of a revocation is
// refused with it, and one signed in the next is not.
func RevocationTime(t time.Time) time.Time { return admincore.RevocationTime(t) }
