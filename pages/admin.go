package pages

// AdminUsers is the administrators' list of users ({base}/admin/users
// for a browser): a search form with the role and banned filters, one
// row per user linked to their page, links to the next and the first
// page, and a form that creates a user.
type AdminUsers struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into the create form as the hidden csrfToken field.
	CSRFToken string
	// Notice, when set, says what just happened; Error what could not be
	// done.
	Notice, Error string
	// ListURL is where the search form GETs its search, role and banned
	// fields: {base}/admin/users.
	ListURL string
	// Search, Role ("", "user" or "admin") and Banned are the filters in
	// force, shown in the form.
	Search, Role string
	Banned       bool
	// Users are this page's users.
	Users []AdminUserRow
	// NextURL, when set, links the next page; FirstURL, when set, the
	// first (on a later page).
	NextURL, FirstURL string
	// CreateURL, when set, is where the create form POSTs its name,
	// email, role and, with Password, password: {base}/admin/users.
	CreateURL string
	Password  bool
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

// AdminUserRow is one user on the AdminUsers page.
type AdminUserRow struct {
	// Name and Email are the user's; URL their page.
	Name, Email, URL string
	// Role is "user" or "admin"; Banned marks a ban in force.
	Role   string
	Banned bool
}

// AdminUser is one user's page for an administrator
// ({base}/admin/users/{id} for a browser): the user, their linked
// accounts and sessions, and a form per action the administrator may
// take. An action's form is shown only when its URL is set (the routes
// check again).
type AdminUser struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Notice, when set, says what just happened; Error what could not be
	// done.
	Notice, Error string
	// ID, Name and Email are the user's; Role "user" or "admin".
	ID, Name, Email, Role string
	// Named marks an administrator the configuration names; Unverified
	// an address not confirmed.
	Named, Unverified bool
	// Ban is the ban in force, nil for none.
	Ban *AdminBan
	// Accounts are the user's linked accounts.
	Accounts []AdminAccountRow
	// Sessions are the user's sessions (database sessions only), each
	// ended by a form that POSTs its ID to RevokeSessionURL.
	Sessions         []SessionRow
	RevokeSessionURL string
	// The actions' URLs: RoleURL (role: "user" or "admin"), BanURL
	// (reason, showReason, expiresIn), UnbanURL, RevokeSessionsURL,
	// PasswordURL (password), ImpersonateURL and DeleteURL (confirm,
	// which the page's checkbox sends as "1").
	RoleURL, BanURL, UnbanURL, RevokeSessionsURL string
	PasswordURL, ImpersonateURL, DeleteURL       string
	// ListURL, when set, links the list of users.
	ListURL string
}

// AdminBan is a ban as the AdminUser page shows it.
type AdminBan struct {
	// Reason is the administrator's note, ShowReason whether the user
	// sees it; By who banned, At when, Expires when it lifts ("" for
	// never), as shown.
	Reason     string
	ShowReason bool
	By, At     string
	Expires    string
}

// AdminAccountRow is one linked account on the AdminUser page.
type AdminAccountRow struct {
	// Provider is the provider's id; AccountID the user's id there.
	Provider, AccountID string
}

// banDurations are the choices of the ban form's expiresIn, in seconds
// ("" for until unbanned), with their catalogue keys.
var banDurations = []struct{ Seconds, Key string }{
	{"", "admin.banForever"}, {"3600", "admin.banHour"}, {"86400", "admin.banDay"},
	{"604800", "admin.banWeek"}, {"2592000", "admin.banMonth"},
}

// adminRules are the admin pages' own CSS rules, beside orgRules.
var adminRules = []string{
	".check { display: flex; gap: .5rem; align-items: flex-start; margin: 0 0 1rem; }",
	".check input { width: 1.25rem; height: 1.25rem; margin: 0; flex: 0 0 auto; }",
	".check label { margin: 0; font-weight: 400; }",
	"textarea { display: block; width: 100%; min-height: 4.5rem; padding: .5rem .75rem; font: inherit; color: var(--text); background: var(--input); border: 1px solid var(--border); border-radius: 8px; }",
	"textarea:focus-visible { outline-offset: 1px; border-color: var(--focus); }",
	".pill { display: inline-block; padding: 0 .375rem; font-size: .75rem; border: 1px solid var(--border); border-radius: 4px; }",
	".pager { display: flex; gap: .5rem; justify-content: space-between; margin: 1rem 0; }",
}

func (value AdminUsers) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "admin.usersTitle"), append(orgRules[:len(orgRules):len(orgRules)], adminRules...),
		adminUsersContent(lang.Tag, p))
}

func (value AdminUser) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, displayName(p.Name, p.Email), append(orgRules[:len(orgRules):len(orgRules)], adminRules...),
		adminUserContent(lang.Tag, p))
}

// banLine is the ban's sentence: since when, by whom, until when.
func banLine(tag string, b *AdminBan) string {
	s := Text(tag, "admin.bannedSince", b.At, b.By)
	if b.Expires != "" {
		s += " " + Text(tag, "admin.bannedUntil", b.Expires)
	}
	return s
}

// roleText is a global role's name as the pages show it.
func roleText(tag, role string) string {
	if role == "admin" {
		return Text(tag, "admin.roleAdmin")
	}
	return Text(tag, "admin.roleUser")
}
