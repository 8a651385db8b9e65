package pages

// Invitation is the page an organization's invitation link opens: who
// invites the visitor to what, with Accept and Decline buttons for the
// invited address. Without Organization, the page shows Error alone (the
// link no longer works); with it, one of SignInURL (nobody is signed in),
// SignedInAs (someone else is) or the buttons, under Error if any.
type Invitation struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into both forms as the hidden csrfToken field.
	CSRFToken string
	// Organization is the organization's name; Inviter who invites (a
	// name or an address, "" when unknown); Email the invited address;
	// Role the role offered; Expires when the link stops working, as
	// shown.
	Organization, Inviter, Email, Role, Expires string
	// Token is the link's token, sent back by both forms as the hidden
	// token field.
	Token string
	// AcceptURL and DeclineURL are where the forms POST:
	// {base}/organizations/invitation/accept and .../decline.
	AcceptURL, DeclineURL string
	// SignInURL, when set, is a link to sign in that comes back to this
	// page; the buttons are not shown.
	SignInURL string
	// SignedInAs, when set, is the address of the signed-in user, who is
	// not the invited one: the page says so and links SignOutURL (which
	// comes back here) instead of showing the buttons.
	SignedInAs, SignOutURL string
	// Error, when set, is shown as an alert: why the link no longer
	// works (without Organization), or why an answer was refused.
	Error string
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

// Organization is an organization's settings page, as one of its members
// sees it: the members with their roles, the pending invitations and the
// roles. A form is shown only when the viewer's role allows its change
// (the routes check again).
type Organization struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Name is the organization's name, Slug its slug; Role the viewer's
	// role in it.
	Name, Slug, Role string
	// Notice, when set, says what just happened; Error what could not be
	// done.
	Notice, Error string
	// Link, when set, is an invitation link the viewer hands on to
	// LinkEmail themselves (no e-mail is sent).
	Link, LinkEmail string
	// Members are the organization's members.
	Members []MemberRow
	// Invitations are the pending invitations, shown with InviteURL.
	Invitations []InvitationRow
	// InviteURL, when set, is where the invite form POSTs its email and
	// role ({base}/organizations/{org}/invitations); InviteRoles are the
	// roles it offers, the first chosen.
	InviteURL   string
	InviteRoles []string
	// Roles are the organization's roles.
	Roles []RoleRow
	// RoleCreateURL, when set, is where the create-role form POSTs its
	// name and its "permission" fields
	// ({base}/organizations/{org}/roles).
	RoleCreateURL string
	// Grantable are the statements the viewer holds, by resource: the
	// only ones the role forms offer (the route refuses more).
	Grantable []PermissionGroup
	// UpdateURL, when set, is where the rename form POSTs its name and
	// slug ({base}/organizations/{org}/update).
	UpdateURL string
	// DeleteURL, when set, is where the delete form POSTs
	// ({base}/organizations/{org}/delete), behind a required
	// confirmation.
	DeleteURL string
	// SignInURL, when set, is a link to sign in again and come back, shown
	// under Error when the route asked for a fresh sign-in.
	SignInURL string
	// TeamsOn shows the Teams section (organization.Config.Teams): Teams
	// are the organization's teams, and TeamCreateURL, when set, is where
	// the create-team form POSTs its name
	// ({base}/organizations/{org}/teams).
	TeamsOn       bool
	Teams         []TeamRow
	TeamCreateURL string
	// LeaveURL, when set, is where the viewer's "Leave" form POSTs.
	LeaveURL string
	// ListURL, when set, links the viewer's organizations.
	ListURL string
}

// MemberRow is one member on the Organization page.
type MemberRow struct {
	// Name is the member's name, or address; Email their address.
	Name, Email string
	// Role is the member's role; You marks the viewer.
	Role string
	You  bool
	// RoleURL, when set, is where the change-role form POSTs its role,
	// one of Roles.
	RoleURL string
	Roles   []string
	// RemoveURL, when set, is where the remove form POSTs.
	RemoveURL string
}

// InvitationRow is one pending invitation on the Organization page.
type InvitationRow struct {
	// Email is the invited address, Role the role offered, Expires when
	// the link stops working, as shown.
	Email, Role, Expires string
	// CancelURL, when set, is where the cancel form POSTs; ResendURL
	// where the send-again form POSTs (a new link; the old one stops
	// working).
	CancelURL, ResendURL string
}

// TeamRow is one team on the Organization page.
type TeamRow struct {
	// Name is the team's name; Members its members.
	Name    string
	Members []TeamMemberRow
	// UpdateURL, when set, is where the rename form POSTs its name;
	// DeleteURL where the delete form POSTs.
	UpdateURL, DeleteURL string
	// AddURL, when set, is where the add-member form POSTs its userId,
	// one of Candidates: the organization's members not in the team.
	AddURL     string
	Candidates []TeamCandidate
}

// TeamMemberRow is one member of a team on the Organization page.
type TeamMemberRow struct {
	// Name is the member's name, or address.
	Name string
	// RemoveURL, when set, is where the form that takes them out of the
	// team POSTs.
	RemoveURL string
}

// TeamCandidate is a member of the organization that a team's
// add-member form offers.
type TeamCandidate struct {
	// ID is the user's id, the value sent; Name their name, or address.
	ID, Name string
}

// RoleRow is one role on the Organization page.
type RoleRow struct {
	// Name is the role's name; Permissions its statements
	// ("project:delete"); BuiltIn marks a role every organization has.
	Name        string
	Permissions []string
	BuiltIn     bool
	// UpdateURL, when set, is where the role's edit form POSTs its
	// "permission" fields, chosen from the page's Grantable; DeleteURL
	// where its delete form POSTs.
	UpdateURL, DeleteURL string
}

// PermissionGroup is the statements of one resource ("project") that a
// role form offers as checkboxes.
type PermissionGroup struct {
	// Resource is the statements' resource; Statements the statements
	// ("project:delete").
	Resource   string
	Statements []string
}

// Organizations is the organization switcher: the signed-in user's
// organizations, the active one marked and each other with a "Make
// active" button, and a form that creates one.
type Organizations struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Notice, when set, says what just happened; Error what could not be
	// done.
	Notice, Error string
	// List are the user's organizations.
	List []OrganizationRow
	// ActiveURL is where a "Make active" form POSTs its organizationId:
	// {base}/organizations/active.
	ActiveURL string
	// CreateURL, when set, is where the create form POSTs its name:
	// {base}/organizations.
	CreateURL string
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

// OrganizationRow is one organization on the Organizations page.
type OrganizationRow struct {
	// ID is sent by its "Make active" form; Name shown, linked to URL,
	// its settings page.
	ID, Name, URL string
	// Active marks the session's active organization.
	Active bool
}

// orgRules are the organization pages' own CSS rules.
var orgRules = []string{
	".notice { margin: 0 0 1.5rem; padding: .75rem 1rem; font-size: .9375rem; border: 1px solid var(--border); border-left: 4px solid var(--brand); border-radius: 8px; overflow-wrap: anywhere; }",
	"h2 { margin: 1.5rem 0 .75rem; font-size: 1rem; font-weight: 600; }",
	".row { padding: .75rem 0; border-top: 1px solid var(--border); }",
	".row p { margin: 0 0 .5rem; overflow-wrap: anywhere; }",
	".inline { display: flex; gap: .5rem; align-items: flex-end; flex-wrap: wrap; }",
	".inline > * { flex: 1 1 8rem; }",
	".inline .btn { width: auto; flex: 0 0 auto; }",
	"select { display: block; width: 100%; min-height: 2.75rem; padding: .5rem .75rem; font: inherit; color: var(--text); background: var(--input); border: 1px solid var(--border); border-radius: 8px; }",
	"select:focus-visible { outline-offset: 1px; border-color: var(--focus); }",
	".row form + form { margin-top: .5rem; }",
	".warning { margin: 0 0 1rem; padding: .75rem 1rem; border: 1px solid var(--border); border-left: 4px solid var(--err-text); border-radius: 8px; }",
}

func (value Invitation) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "org.invitationTitle"), orgRules, invitationContent(lang.Tag, p))
}

func (value Organization) document(lang Language) *document {
	p := &value
	// The role forms' checkboxes and Edit disclosures look like the keys
	// page's permissions and Rotate and Revoke.
	return newDocument(lang, p.Theme, p.Name, append(orgRules[:len(orgRules):len(orgRules)], keyRules...), organizationContent(lang.Tag, p))
}

func (value Organizations) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "org.listTitle"), orgRules, organizationsContent(lang.Tag, p))
}

// invitedText is the invitation's sentence: who invited whom to which
// organization, as which role.
func invitedText(tag string, v *Invitation) string {
	if v.Inviter != "" {
		return Text(tag, "org.invitedBy", v.Inviter, v.Organization, v.Role)
	}
	return Text(tag, "org.invitedTo", v.Organization, v.Role)
}
