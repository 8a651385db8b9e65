package orgflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
	"github.com/gatehouse-auth/gatehouse/internal/plugin"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/permission"
)

// The built-in pages of the organization routes. A browser's navigation
// (Accept: text/html) to GET {base}/organizations, GET
// {base}/organizations/{org} or the invitation link gets a page; a
// program gets the JSON on the same URL. The pages' forms POST to the
// JSON routes, which Form wraps: the route runs as it is, and its answer
// becomes a redirect (303) back to the page, which says what happened.

// PageHost is what the pages need of the handler.
type PageHost interface {
	plugin.PageHost
	// Lang returns the language of r's pages, that of the invitations
	// r sends too.
	Lang(r *http.Request) pages.Language
}

// done are the notices of the pages, by the ?done= value a form's
// redirect adds. Only these are shown: the query is the browser's.
var done = map[string]string{
	"created": "org.doneCreated", "updated": "org.doneUpdated", "deleted": "org.doneDeleted", "left": "org.doneLeft",
	"removed": "org.doneRemoved", "role": "org.doneRole", "roleCreated": "org.doneRoleCreated",
	"roleUpdated": "org.doneRoleUpdated", "roleDeleted": "org.doneRoleDeleted", "invited": "org.doneInvited",
	"resent": "org.doneResent", "canceled": "org.doneCanceled", "joined": "org.doneJoined",
	"declined": "org.doneDeclined", "active": "org.doneActive",
	"teamCreated": "org.doneTeamCreated", "teamUpdated": "org.doneTeamUpdated", "teamDeleted": "org.doneTeamDeleted",
	"teamMemberAdded": "org.doneTeamMemberAdded", "teamMemberRemoved": "org.doneTeamMemberRemoved",
}

// failed are the alerts of the pages, by the ?failed= value: the code of
// the route's refusal. Another code is shown as org.errOther.
var failed = map[string]string{
	"not_found": "org.errNotFound", "forbidden": "org.errForbidden", "last_owner": "org.errLastOwner",
	"role_in_use": "org.errRoleInUse", "role_changed": "org.errRoleChanged", "conflict": "org.errConflict", "invalid": "org.errInvalid",
	"limit": "org.errLimit", "expired": "org.errExpired", "wrong_recipient": "org.errWrongRecipient",
	"unverified_address": "org.errUnverified", "csrf": "org.errForm", "cross_site": "org.errForm",
	string(autherr.TooManyRequests): "org.errTooMany", "fresh_sign_in": "org.errFresh",
}

// status returns the notice and the alert that r's query asks for.
func (o *Routes) status(r *http.Request) (notice, alert string) {
	return plugin.PageStatus(o.host, r, done, failed, "org.errOther")
}

// pageUser returns the signed-in user for a page: nobody is sent to sign
// in and back to back (a route under the base path); a store that is down
// gets the error page.
func (o *Routes) pageUser(w http.ResponseWriter, r *http.Request, back ...string) (signedIn, bool) {
	id, at, err := o.current(w, r)
	switch {
	case err != nil:
		o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
		return signedIn{}, false
	case id == "":
		o.host.Redirect(w, r, o.signInURL(r, o.host.URL(r, back...)))
		return signedIn{}, false
	}
	return signedIn{id, at}, true
}

// current returns the signed-in user's id ("" for none) and when they
// signed in, for an answer that is not to be cached.
func (o *Routes) current(w http.ResponseWriter, r *http.Request) (string, time.Time, error) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	return o.host.CurrentUser(ctx, r)
}

// signInURL is the sign-in page, coming back to back.
func (o *Routes) signInURL(r *http.Request, back string) string {
	return o.host.URL(r, "signin") + "?" + url.Values{"callbackUrl": {back}}.Encode()
}

// failPage answers err of the organization Service on a page: what the
// JSON route would say, as the error page for a store that is down, or
// the list of the user's organizations with the alert.
func (o *Routes) failPage(w http.ResponseWriter, r *http.Request, err error) {
	for _, a := range answers() {
		if errors.Is(err, a.err) {
			o.host.Redirect(w, r, o.host.URL(r, "organizations")+"?failed="+a.code)
			return
		}
	}
	o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
}

// listPage renders GET {base}/organizations for a browser: the switcher.
func (o *Routes) listPage(w http.ResponseWriter, r *http.Request) {
	u, good := o.pageUser(w, r, "organizations")
	if !good {
		return
	}
	ctx := r.Context()
	list, err := o.cfg.Service.Organizations(ctx, u.id)
	if err != nil {
		o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
		return
	}
	active, err := o.Active(ctx, r)
	if err != nil {
		o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
		return
	}
	p := pages.Organizations{Theme: o.cfg.Theme, CSRFToken: o.host.CSRFToken(w, r), ActiveURL: o.host.URL(r, "organizations", "active"),
		HomeURL: o.host.Origin(r) + "/"}
	p.Notice, p.Error = o.status(r)
	if !o.cfg.Service.Config().DisableCreate {
		p.CreateURL = o.host.URL(r, "organizations")
	}
	for _, org := range list {
		p.List = append(p.List, pages.OrganizationRow{ID: org.ID, Name: org.Name, URL: o.host.URL(r, "organizations", url.PathEscape(org.ID)),
			Active: org.ID == active})
	}
	o.host.Render(w, r, http.StatusOK, p)
}

// orgPage renders GET {base}/organizations/{org} for a browser: the
// settings page, its forms shown only where the viewer's role allows
// the change (the routes check again).
func (o *Routes) orgPage(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "org")
	u, good := o.pageUser(w, r, "organizations", id)
	if !good {
		return
	}
	notice, alert := o.status(r)
	o.renderOrg(w, r, u.id, id, http.StatusOK, notice, alert, nil)
}

// renderOrg renders orgID's settings page for userID with the notice, the
// alert and, when not nil, a link to hand on.
func (o *Routes) renderOrg(w http.ResponseWriter, r *http.Request, userID, orgID string, status int, notice, alert string, link *sent) {
	ctx := r.Context()
	v, err := o.cfg.Service.Get(ctx, userID, orgID)
	if err != nil {
		o.failPage(w, r, err)
		return
	}
	esc := url.PathEscape(orgID)
	here := o.host.URL(r, "organizations", esc)
	p := pages.Organization{Theme: o.cfg.Theme, CSRFToken: o.host.CSRFToken(w, r), Name: v.Organization.Name, Slug: v.Organization.Slug,
		Role: v.Role, Notice: notice, Error: alert, ListURL: o.host.URL(r, "organizations"), LeaveURL: o.host.URL(r, "organizations", esc, "leave")}
	if link != nil {
		p.Link, p.LinkEmail = link.Link, link.Invitation.Email
	}
	if r.URL.Query().Get("failed") == "fresh_sign_in" {
		p.SignInURL = o.signInURL(r, here)
	}
	if v.Permissions.Has(organization.UpdateOrganization) {
		p.UpdateURL = o.host.URL(r, "organizations", esc, "update")
	}
	if v.Permissions.Has(organization.DeleteOrganization) {
		p.DeleteURL = o.host.URL(r, "organizations", esc, "delete")
	}
	if v.Permissions.Has(organization.CreateRole) {
		p.RoleCreateURL = o.host.URL(r, "organizations", esc, "roles")
	}
	if p.RoleCreateURL != "" || v.Permissions.Has(organization.UpdateRole) {
		p.Grantable = groups(v.Permissions)
	}
	held := map[string]permission.Set{}
	var grantable []string // the roles the viewer may hand out
	for _, role := range v.Roles {
		held[role.Name] = role.Permissions
		row := pages.RoleRow{Name: role.Name, Permissions: role.Permissions.Strings(), BuiltIn: role.BuiltIn}
		if permission.Grant(v.Permissions, role.Permissions) == nil {
			grantable = append(grantable, role.Name)
			// A custom role is changed only by whoever holds all of it
			// (the route's check): nobody edits a role above their own.
			roleURL := func(action string) string {
				return o.host.URL(r, "organizations", esc, "roles", url.PathEscape(role.Name), action)
			}
			if !role.BuiltIn && v.Permissions.Has(organization.UpdateRole) {
				row.UpdateURL = roleURL("update")
			}
			if !role.BuiltIn && v.Permissions.Has(organization.DeleteRole) {
				row.DeleteURL = roleURL("delete")
			}
		}
		p.Roles = append(p.Roles, row)
	}
	for _, m := range v.Members {
		row := pages.MemberRow{Name: m.UserID, Email: m.UserID, Role: m.Role, You: m.UserID == userID}
		if user, err := o.cfg.Users.GetUser(ctx, m.UserID); err == nil {
			row.Email = user.Email
			row.Name = cmpOr(user.Name, user.Email)
		}
		// Nobody acts on a member who holds more than they do.
		over := !row.You && permission.Grant(v.Permissions, held[m.Role]) == nil
		if over && v.Permissions.Has(organization.UpdateMemberRole) {
			row.RoleURL, row.Roles = o.host.URL(r, "organizations", esc, "members", url.PathEscape(m.UserID), "role"), grantable
		}
		if over && v.Permissions.Has(organization.RemoveMember) {
			row.RemoveURL = o.host.URL(r, "organizations", esc, "members", url.PathEscape(m.UserID), "remove")
		}
		p.Members = append(p.Members, row)
	}
	if v.Permissions.Has(organization.InviteMember) {
		p.InviteURL, p.InviteRoles = o.host.URL(r, "organizations", esc, "invitations"), inviteRoles(grantable)
		for _, inv := range v.Invitations {
			row := pages.InvitationRow{Email: inv.Email, Role: inv.Role, Expires: inv.Expires.UTC().Format(day)}
			row.ResendURL = o.host.URL(r, "organizations", esc, "invitations", url.PathEscape(inv.ID), "resend")
			if v.Permissions.Has(organization.CancelInvitation) {
				row.CancelURL = o.host.URL(r, "organizations", esc, "invitations", url.PathEscape(inv.ID), "cancel")
			}
			p.Invitations = append(p.Invitations, row)
		}
	}
	if o.cfg.Service.Config().Teams.Enabled {
		if err := o.teamRows(ctx, r, userID, orgID, v, &p); err != nil {
			o.failPage(w, r, err)
			return
		}
	}
	o.host.Render(w, r, status, p)
}

// teamRows fills in the Teams section of p, orgID's page as v shows it
// to userID: each team with its members, and the forms the viewer's
// statements allow (the routes check again).
func (o *Routes) teamRows(ctx context.Context, r *http.Request, userID, orgID string, v organization.View, p *pages.Organization) error {
	teams, err := o.cfg.Service.Teams(ctx, userID, orgID)
	if err != nil {
		return err
	}
	esc := url.PathEscape(orgID)
	names := map[string]string{} // the members' names, by id; p.Members are v.Members'
	for i, m := range v.Members {
		names[m.UserID] = p.Members[i].Name
	}
	p.TeamsOn = true
	if v.Permissions.Has(organization.CreateTeam) {
		p.TeamCreateURL = o.host.URL(r, "organizations", esc, "teams")
	}
	update, del := v.Permissions.Has(organization.UpdateTeam), v.Permissions.Has(organization.DeleteTeam)
	for _, t := range teams {
		members, err := o.cfg.Service.TeamMembers(ctx, userID, orgID, t.ID)
		if err != nil {
			return err
		}
		teamURL := func(parts ...string) string {
			return o.host.URL(r, append([]string{"organizations", esc, "teams", url.PathEscape(t.ID)}, parts...)...)
		}
		row := pages.TeamRow{Name: t.Name}
		in := map[string]bool{}
		for _, m := range members {
			in[m.UserID] = true
			mr := pages.TeamMemberRow{Name: cmpOr(names[m.UserID], m.UserID)}
			if update {
				mr.RemoveURL = teamURL("members", url.PathEscape(m.UserID), "remove")
			}
			row.Members = append(row.Members, mr)
		}
		if update {
			row.UpdateURL, row.AddURL = teamURL("update"), teamURL("members")
			for _, m := range v.Members {
				if !in[m.UserID] {
					row.Candidates = append(row.Candidates, pages.TeamCandidate{ID: m.UserID, Name: names[m.UserID]})
				}
			}
		}
		if del {
			row.DeleteURL = teamURL("delete")
		}
		p.Teams = append(p.Teams, row)
	}
	return nil
}

// groups returns held, the viewer's statements, by resource in the
// order of held (sorted): what a role form may offer.
func groups(held permission.Set) []pages.PermissionGroup {
	var out []pages.PermissionGroup
	for _, st := range held {
		if n := len(out); n == 0 || out[n-1].Resource != st.Resource() {
			out = append(out, pages.PermissionGroup{Resource: st.Resource()})
		}
		g := &out[len(out)-1]
		g.Statements = append(g.Statements, string(st))
	}
	return out
}

// day is how the pages show a time.
const day = "2006-01-02 15:04 UTC"

// inviteRoles puts "member", the default role of an invitation, first.
func inviteRoles(roles []string) []string {
	out := make([]string, 0, len(roles))
	for _, r := range roles {
		if r == organization.Member {
			out = append([]string{r}, out...)
		} else {
			out = append(out, r)
		}
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// invitationPage renders the invitation link's page for a browser. The
// token stays in the page's forms and in the sign-in link that comes
// back here; the page sends no Referer.
func (o *Routes) invitationPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	ctx := r.Context()
	token := r.URL.Query().Get("token")
	p := pages.Invitation{Theme: o.cfg.Theme, HomeURL: o.host.Origin(r) + "/"}
	inv, err := o.cfg.Service.Invitation(ctx, token)
	var org organization.Organization
	if err == nil {
		org, err = o.cfg.Service.Store().Organization(ctx, inv.OrganizationID)
	}
	if err != nil {
		if !errors.Is(err, organization.ErrNotFound) && !errors.Is(err, organization.ErrExpired) && !errors.Is(err, organization.ErrInvalid) {
			o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
			return
		}
		p.Error = o.host.Text(r, "org.errLink")
		o.host.Render(w, r, http.StatusNotFound, p)
		return
	}
	p.Organization, p.Email, p.Role, p.Expires = org.Name, inv.Email, inv.Role, inv.Expires.UTC().Format(day)
	if inviter, err := o.cfg.Users.GetUser(ctx, inv.InviterID); err == nil {
		p.Inviter = cmpOr(inviter.Name, inviter.Email)
	}
	_, p.Error = o.status(r)
	here := o.link(r, token)
	userID, _, err := o.host.CurrentUser(ctx, r)
	switch {
	case err != nil:
		o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
		return
	case userID == "":
		p.SignInURL = o.signInURL(r, here)
	default:
		user, err := o.cfg.Users.GetUser(ctx, userID)
		if err != nil {
			o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", err))
			return
		}
		if !organization.ForRecipient(inv, user.Email) {
			p.SignedInAs = user.Email
			p.SignOutURL = o.host.URL(r, "signout") + "?" + url.Values{"callbackUrl": {here}}.Encode()
			break
		}
		p.CSRFToken, p.Token = o.host.CSRFToken(w, r), token
		p.AcceptURL, p.DeclineURL = o.host.URL(r, "organizations", "invitation", "accept"), o.host.URL(r, "organizations", "invitation", "decline")
	}
	o.host.Render(w, r, http.StatusOK, p)
}

// formBody is what the Form reads of a route's JSON answer.
type formBody struct {
	Error, Code, ID, OrganizationID, Link string
	Invitation                            organization.Invitation
}

// Form wraps next, one of the POST routes, for the pages' forms: a
// browser's form (Accept: text/html) runs the route as it is, and is
// answered with a redirect (303) to the page it belongs to, with ?done=
// or ?failed= saying what happened, instead of the JSON. Its cookies (a
// JWT session rewritten with the active organization) are kept. An
// invitation link answered to the inviter (no sender) is shown on the
// organization's page rather than put in a URL. A program's request is
// served by next alone.
func (o *Routes) Form(next http.HandlerFunc) http.HandlerFunc {
	return httpx.FormAnswer(next, func(w http.ResponseWriter, r *http.Request, st int, body formBody) {
		page, what := o.formPage(r, body.ID, body.OrganizationID)
		switch {
		case st/100 == 2 && body.Link != "":
			u, good := o.pageUser(w, r, "organizations")
			if good {
				o.renderOrg(w, r, u.id, chi.URLParam(r, "org"), st, o.host.Text(r, done[what]), "",
					&sent{Invitation: body.Invitation, Link: body.Link})
			}
		case st/100 == 2:
			o.host.Redirect(w, r, withQuery(page.ok, "done", what))
		case st == http.StatusUnauthorized:
			o.host.Redirect(w, r, o.signInURL(r, page.fail))
		case st >= 500:
			o.host.Fail(w, r, autherr.New(autherr.AdapterError, "adapter", "", "organizations", nil))
		default:
			o.host.Redirect(w, r, withQuery(page.fail, "failed", cmpOr(body.Code, body.Error)))
		}
	})
}

// targets are the pages a form returns to: ok after the change, fail
// after a refusal.
type targets struct{ ok, fail string }

// formPage returns the pages r's form returns to, and what it does (a key
// of done). created is the id of an organization just made; joined the
// organization of an invitation just accepted.
func (o *Routes) formPage(r *http.Request, created, joined string) (targets, string) {
	list := o.host.URL(r, "organizations")
	org := chi.URLParam(r, "org")
	here := o.host.URL(r, "organizations", url.PathEscape(org))
	path := r.URL.Path
	switch {
	case chi.URLParam(r, "team") != "" || strings.HasSuffix(path, "/teams"):
		return targets{here, here}, teamDone(r)
	case strings.HasSuffix(path, "/organizations/active"):
		return targets{list, list}, "active"
	case strings.HasSuffix(path, "/organizations/invitation/accept"):
		back := o.link(r, r.PostForm.Get("token"))
		return targets{o.host.URL(r, "organizations", url.PathEscape(joined)), back}, "joined"
	case strings.HasSuffix(path, "/organizations/invitation/decline"):
		return targets{list, o.link(r, r.PostForm.Get("token"))}, "declined"
	case org == "":
		return targets{o.host.URL(r, "organizations", url.PathEscape(created)), list}, "created"
	case strings.HasSuffix(path, "/delete") && chi.URLParam(r, "role") == "":
		return targets{list, here}, "deleted"
	case strings.HasSuffix(path, "/leave"):
		return targets{list, here}, "left"
	case strings.HasSuffix(path, "/remove"):
		return targets{here, here}, "removed"
	case strings.HasSuffix(path, "/role"):
		return targets{here, here}, "role"
	case strings.HasSuffix(path, "/update") && chi.URLParam(r, "role") == "":
		return targets{here, here}, "updated"
	case chi.URLParam(r, "role") != "":
		return targets{here, here}, map[string]string{"update": "roleUpdated", "delete": "roleDeleted"}[chi.URLParam(r, "action")]
	case strings.HasSuffix(path, "/roles"):
		return targets{here, here}, "roleCreated"
	case strings.HasSuffix(path, "/resend"):
		return targets{here, here}, "resent"
	case strings.HasSuffix(path, "/cancel"):
		return targets{here, here}, "canceled"
	}
	return targets{here, here}, "invited"
}

// teamDone returns what r's team form does (a key of done).
func teamDone(r *http.Request) string {
	path := r.URL.Path
	switch {
	case strings.HasSuffix(path, "/teams"):
		return "teamCreated"
	case strings.HasSuffix(path, "/members"):
		return "teamMemberAdded"
	case strings.HasSuffix(path, "/remove"):
		return "teamMemberRemoved"
	case strings.HasSuffix(path, "/delete"):
		return "teamDeleted"
	}
	return "teamUpdated"
}

// withQuery returns u with key=value added to its query.
func withQuery(u, key, value string) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + url.Values{key: {value}}.Encode()
}
