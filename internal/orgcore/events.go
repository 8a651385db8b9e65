package orgcore

// ChangeKind names what a Change did.
type ChangeKind string

// The kinds of Change.
const (
	Created            ChangeKind = "organization.created"
	Updated            ChangeKind = "organization.updated"
	Deleted            ChangeKind = "organization.deleted"
	MemberRemoved      ChangeKind = "member.removed" // removed, or left (ActorID == UserID)
	RoleChanged        ChangeKind = "member.role_changed"
	RoleCreated        ChangeKind = "role.created"
	RoleUpdated        ChangeKind = "role.updated"
	RoleDeleted        ChangeKind = "role.deleted"
	Invited            ChangeKind = "invitation.sent" // sent or resent
	InvitationCanceled ChangeKind = "invitation.canceled"
	InvitationAccepted ChangeKind = "invitation.accepted" // UserID joined with Role
	InvitationDeclined ChangeKind = "invitation.declined"
	TeamCreated        ChangeKind = "team.created"
	TeamUpdated        ChangeKind = "team.updated" // renamed
	TeamDeleted        ChangeKind = "team.deleted"
	TeamMemberAdded    ChangeKind = "team.member_added"   // UserID added to TeamID
	TeamMemberRemoved  ChangeKind = "team.member_removed" // UserID removed from TeamID
)

// Change is one change made through the organization routes, as
// gatehouse.Events.Organization is told of it. It holds ids and names,
// never an invitation's token.
type Change struct {
	Kind           ChangeKind
	OrganizationID string
	// ActorID is the user who made the change.
	ActorID string
	// UserID is the member it concerns, when one does.
	UserID string
	// Role is the role given, created, updated or deleted.
	Role string
	// InvitationID and Email are the invitation's, for invitation kinds.
	InvitationID, Email string
	// TeamID is the team's, for team kinds.
	TeamID string
}
