package orgflow

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// The team routes, under {base}/organizations/{org}/teams: JSON, and a
// browser's form from the settings page is answered with a redirect back
// to it (Form). With Config.Teams off they answer 404 before anything else, as a path
// that does not exist, and the Service they would call never reaches
// the Store.

// teamsOff answers 404 and reports true when teams are off.
func (o *Routes) teamsOff(w http.ResponseWriter) bool {
	if o.cfg.Service.Config().Teams.Enabled {
		return false
	}
	httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	return true
}

// Teams answers GET {base}/organizations/{org}/teams (the organization's
// teams, to any member) and POST .../teams {name} (create one:
// team:create).
func (o *Routes) Teams(w http.ResponseWriter, r *http.Request) {
	if o.teamsOff(w) {
		return
	}
	id := chi.URLParam(r, "org")
	if r.Method == http.MethodGet {
		o.read(w, r, func(ctx context.Context, userID string) (any, error) { return o.cfg.Service.Teams(ctx, userID, id) })
		return
	}
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	t, err := o.cfg.Service.CreateTeam(r.Context(), u.id, id, form.Get("name"))
	if o.made(w, r, err, organization.Change{Kind: organization.TeamCreated, OrganizationID: id, ActorID: u.id, TeamID: t.ID}) {
		httpx.WriteJSON(w, http.StatusCreated, t)
	}
}

// UpdateTeam answers POST {base}/organizations/{org}/teams/{team}/update
// {name}: rename it (team:update).
func (o *Routes) UpdateTeam(w http.ResponseWriter, r *http.Request) {
	if o.teamsOff(w) {
		return
	}
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	id, team := chi.URLParam(r, "org"), chi.URLParam(r, "team")
	t, err := o.cfg.Service.RenameTeam(r.Context(), u.id, id, team, form.Get("name"))
	if o.made(w, r, err, organization.Change{Kind: organization.TeamUpdated, OrganizationID: id, ActorID: u.id, TeamID: team}) {
		ok(w, t)
	}
}

// DeleteTeam answers POST {base}/organizations/{org}/teams/{team}/delete:
// delete it with its members, who stay in the organization
// (team:delete).
func (o *Routes) DeleteTeam(w http.ResponseWriter, r *http.Request) {
	if o.teamsOff(w) {
		return
	}
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id, team := chi.URLParam(r, "org"), chi.URLParam(r, "team")
	err := o.cfg.Service.DeleteTeam(r.Context(), u.id, id, team)
	if o.made(w, r, err, organization.Change{Kind: organization.TeamDeleted, OrganizationID: id, ActorID: u.id, TeamID: team}) {
		ok(w, map[string]bool{"deleted": true})
	}
}

// TeamMembers answers GET {base}/organizations/{org}/teams/{team}/members
// (the team's members, to any member of the organization) and POST
// .../members {userId} (add a member of the organization: team:update).
func (o *Routes) TeamMembers(w http.ResponseWriter, r *http.Request) {
	if o.teamsOff(w) {
		return
	}
	id, team := chi.URLParam(r, "org"), chi.URLParam(r, "team")
	if r.Method == http.MethodGet {
		o.read(w, r, func(ctx context.Context, userID string) (any, error) {
			return o.cfg.Service.TeamMembers(ctx, userID, id, team)
		})
		return
	}
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	member := form.Get("userId")
	m, err := o.cfg.Service.AddTeamMember(r.Context(), u.id, id, team, member)
	if o.made(w, r, err, organization.Change{Kind: organization.TeamMemberAdded, OrganizationID: id, ActorID: u.id, UserID: member, TeamID: team}) {
		httpx.WriteJSON(w, http.StatusCreated, m)
	}
}

// RemoveTeamMember answers POST
// {base}/organizations/{org}/teams/{team}/members/{user}/remove: take
// them out of the team, not the organization (team:update).
func (o *Routes) RemoveTeamMember(w http.ResponseWriter, r *http.Request) {
	if o.teamsOff(w) {
		return
	}
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id, team, member := chi.URLParam(r, "org"), chi.URLParam(r, "team"), chi.URLParam(r, "user")
	err := o.cfg.Service.RemoveTeamMember(r.Context(), u.id, id, team, member)
	if o.made(w, r, err, organization.Change{Kind: organization.TeamMemberRemoved, OrganizationID: id, ActorID: u.id, UserID: member, TeamID: team}) {
		ok(w, map[string]bool{"removed": true})
	}
}
