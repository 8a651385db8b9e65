package orgflow

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/logclip"
	organization "github.com/gatehouse-auth/gatehouse/internal/orgcore"
)

// sent is the answer to an invitation sent or resent. Link is set only
// when no e-mail sender is configured: the inviter, who may invite, hands
// it on themselves.
type sent struct {
	Invitation organization.Invitation `json:"invitation"`
	Sent       bool                    `json:"sent"`
	Link       string                  `json:"link,omitempty"`
}

// link returns the URL that accepts the invitation of token. The token
// is in the query, as an e-mail sign-in link's is.
func (o *Routes) link(r *http.Request, token string) string {
	return o.host.URL(r, "organizations", "invitation") + "?" + url.Values{"token": {token}}.Encode()
}

// deliver sends the invitation, or answers its link to the inviter when
// there is no sender.
func (o *Routes) deliver(w http.ResponseWriter, r *http.Request, status int, inv organization.Invitation, token string) {
	out := sent{Invitation: inv}
	lnk := o.link(r, token)
	if o.cfg.Send == nil {
		out.Link = lnk
		httpx.WriteJSON(w, status, out)
		return
	}
	org, err := o.cfg.Service.Store().Organization(r.Context(), inv.OrganizationID)
	if err == nil {
		// In the language of the inviter's pages (the built-in sender).
		ctx := withLanguage(r.Context(), o.host.Lang(r).Tag)
		err = o.cfg.Send(ctx, organization.Message{Invitation: inv, Organization: org, URL: lnk})
	}
	if err != nil {
		// A sender's error may repeat the link (its token) or the address.
		o.cfg.Logger.Error("gatehouse: sending an invitation failed", "step", "organizations", "organization", inv.OrganizationID,
			"err", logclip.Scrub(err, lnk, "[link]", token, "[token]", inv.Email, "[email]"))
		unavailable(w)
		return
	}
	out.Sent = true
	httpx.WriteJSON(w, status, out)
}

// Invitations answers GET {base}/organizations/{org}/invitations (the
// pending ones; member:invite) and POST .../invitations {email, role}
// (send one).
func (o *Routes) Invitations(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "org")
	if r.Method == http.MethodGet {
		o.read(w, r, func(ctx context.Context, userID string) (any, error) {
			return o.cfg.Service.Invitations(ctx, userID, id)
		})
		return
	}
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	// The permission first: the limits count only invitations that may be
	// sent, so an outsider cannot use up an organization's.
	if _, _, err := o.cfg.Service.Authorize(r.Context(), id, u.id, organization.InviteMember); err != nil {
		o.fail(w, r, err)
		return
	}
	if !o.reserve(w, r, u.id, id) {
		return
	}
	inv, token, err := o.cfg.Service.Invite(r.Context(), u.id, id, form.Get("email"), form.Get("role"))
	if o.made(w, r, err, organization.Change{Kind: organization.Invited, OrganizationID: id, ActorID: u.id, Role: inv.Role, InvitationID: inv.ID, Email: inv.Email}) {
		o.deliver(w, r, http.StatusCreated, inv, token)
	}
}

// Invitation answers POST {base}/organizations/{org}/invitations/{id}/resend
// (a new link; the old one stops working) and .../cancel.
func (o *Routes) Invitation(w http.ResponseWriter, r *http.Request) {
	_, u, good := o.post(w, r)
	if !good {
		return
	}
	id, inv := chi.URLParam(r, "org"), chi.URLParam(r, "invitation")
	switch chi.URLParam(r, "action") {
	case "resend":
		if _, _, err := o.cfg.Service.Authorize(r.Context(), id, u.id, organization.InviteMember); err != nil {
			o.fail(w, r, err)
			return
		}
		if !o.reserve(w, r, u.id, id) {
			return
		}
		got, token, err := o.cfg.Service.Resend(r.Context(), u.id, id, inv)
		if o.made(w, r, err, organization.Change{Kind: organization.Invited, OrganizationID: id, ActorID: u.id, Role: got.Role, InvitationID: got.ID, Email: got.Email}) {
			o.deliver(w, r, http.StatusOK, got, token)
		}
	case "cancel":
		err := o.cfg.Service.Cancel(r.Context(), u.id, id, inv)
		if o.made(w, r, err, organization.Change{Kind: organization.InvitationCanceled, OrganizationID: id, ActorID: u.id, InvitationID: inv}) {
			ok(w, map[string]bool{"canceled": true})
		}
	default:
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	}
}

// shown is an invitation as its link shows it.
type shown struct {
	Organization string `json:"organization"` // its name
	Email        string `json:"email"`
	Role         string `json:"role"`
	Expires      string `json:"expires"`
}

// Show answers GET {base}/organizations/invitation?token=: what the
// invitation is, for whoever holds its link (the invited address). The
// answer is not cached and sends no Referer onwards: the URL holds the
// token. A browser gets the page with Accept and Decline (pages.go).
func (o *Routes) Show(w http.ResponseWriter, r *http.Request) {
	if httpx.AcceptsHTML(r) {
		o.invitationPage(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	inv, err := o.cfg.Service.Invitation(r.Context(), r.URL.Query().Get("token"))
	if err != nil {
		o.fail(w, r, err)
		return
	}
	org, err := o.cfg.Service.Store().Organization(r.Context(), inv.OrganizationID)
	if err != nil {
		o.fail(w, r, err)
		return
	}
	ok(w, shown{Organization: org.Name, Email: inv.Email, Role: inv.Role, Expires: inv.Expires.UTC().Format("2006-01-02T15:04:05Z")})
}

// Answer answers POST {base}/organizations/invitation/accept {token} and
// .../decline {token}. The signed-in user's stored address must be the
// invited one, and whoever holds the link cannot choose another. When the
// link was sent by e-mail (Config.Send), following it proves the address,
// as an e-mail sign-in link does: an unverified one is marked verified.
// When it was answered to the inviter instead, it proves nothing, and the
// user's address must be verified already.
func (o *Routes) Answer(w http.ResponseWriter, r *http.Request) {
	form, u, good := o.post(w, r)
	if !good {
		return
	}
	ctx := r.Context()
	user, err := o.cfg.Users.GetUser(ctx, u.id)
	if err != nil {
		o.fail(w, r, organization.ErrWrongRecipient)
		return
	}
	token := form.Get("token")
	switch chi.URLParam(r, "action") {
	case "accept":
		// A link answered to the inviter (no sender) proves nothing of the
		// address: the account must have proven it some other way.
		if o.cfg.Send == nil && user.EmailVerified == nil {
			httpx.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "wrong_recipient", "code": "unverified_address",
				"reason": "verify your e-mail address first"})
			return
		}
		m, err := o.cfg.Service.Accept(ctx, token, u.id, user.Email)
		if err == nil && o.cfg.Send != nil {
			o.verified(ctx, user.ID) // the link came to the address
		}
		if o.made(w, r, err, organization.Change{Kind: organization.InvitationAccepted, OrganizationID: m.OrganizationID, ActorID: u.id, UserID: u.id, Role: m.Role}) {
			ok(w, m)
		}
	case "decline":
		inv, err := o.cfg.Service.Decline(ctx, token, user.Email)
		if o.made(w, r, err, organization.Change{Kind: organization.InvitationDeclined, OrganizationID: inv.OrganizationID, ActorID: u.id, InvitationID: inv.ID, Email: inv.Email}) {
			ok(w, map[string]bool{"declined": true})
		}
	default:
		httpx.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	}
}

// verified marks the user's address verified, when it was not: the
// invitation link sent to it was followed by the user holding it.
func (o *Routes) verified(ctx context.Context, userID string) {
	u, err := o.cfg.Users.GetUser(ctx, userID)
	if err != nil || u.EmailVerified != nil {
		return
	}
	now := timeNow()
	u.EmailVerified = &now
	if _, err := o.cfg.Users.UpdateUser(ctx, u); err != nil && !errors.Is(err, context.Canceled) {
		o.cfg.Logger.Warn("gatehouse: marking an address verified after an invitation failed", "err", err)
	}
}

// timeNow is the clock of verified.
var timeNow = time.Now
