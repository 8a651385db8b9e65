package adminflow

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/address"
	admin "github.com/gatehouse-auth/gatehouse/internal/admincore"
	"github.com/gatehouse-auth/gatehouse/internal/autherr"
	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/internal/logclip"
)

// An e-mail change is a verification token whose identifier names the
// user and the new address, so that the link changes that user's address
// to that one and nothing else; UseVerificationToken makes it single-use.
// Stored is the SHA-256 of a 256-bit random token: a copy of the table
// gives no usable link.

// changeIdentifier is the verification token identifier of a change.
func changeIdentifier(userID, address string) string {
	return "gatehouse email change\x00" + userID + "\x00" + address
}

// tokenHash is how a change token is stored.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ChangeEmail answers POST {base}/account/email {csrfToken, email}: the
// signed-in user (with a fresh sign-in) asks to change their address.
// The new address gets a link, the old one a notice; nothing changes
// until the link is followed. The answer is the same whether or not the
// address is taken by someone else (then nothing is sent): it does not
// tell who has an account. 404 without admin.Config.SendEmailChange.
func (s *Routes) ChangeEmail(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Admin == nil || s.cfg.Admin.SendEmailChange == nil {
		s.cfg.NotFound(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	id, form, ok := s.freshUser(ctx, w, r, "account_email") // self.go
	if !ok {
		return
	}
	addr, err := address.Normalize(form.Get("email"))
	if err != nil {
		fail(w, http.StatusBadRequest, autherr.EmailSignInError, "invalid_email")
		return
	}
	u, err := s.cfg.Adapter.GetUser(ctx, id)
	if err != nil {
		s.unavailable(w, "account_email", err)
		return
	}
	if addr == u.Email {
		fail(w, http.StatusBadRequest, autherr.EmailSignInError, "same_email")
		return
	}
	sent := map[string]bool{"sent": true}
	switch _, err := s.cfg.Adapter.GetUserByEmail(ctx, addr); {
	case err == nil:
		httpx.WriteJSON(w, http.StatusOK, sent) // taken: nothing sent, the same answer
		return
	case !errors.Is(err, adapter.ErrNotFound):
		s.unavailable(w, "account_email", err)
		return
	}
	token := rand.Text() + rand.Text() // 2 × 130 bits
	expires := time.Now().Add(admin.EmailChangeMaxAge)
	if err := s.cfg.Adapter.CreateVerificationToken(ctx, adapter.VerificationToken{
		Identifier: changeIdentifier(id, addr), TokenHash: tokenHash(token), Expires: expires}); err != nil {
		s.unavailable(w, "account_email", err)
		return
	}
	link := s.host.URL(r, "account", "email", "confirm") + "?" + url.Values{"user": {id}, "email": {addr}, "token": {token}}.Encode()
	send := s.cfg.Admin.SendEmailChange
	if err := send(ctx, admin.EmailChange{To: addr, NewAddress: addr, URL: link, Expires: expires}); err != nil {
		s.cfg.Logger.Error("gatehouse: sending an e-mail change link failed", "step", "account_email",
			"err", logclip.Scrub(err, link, "[link]", token, "[token]", addr, "[email]"))
		fail(w, http.StatusInternalServerError, autherr.EmailSignin, "send_failed")
		return
	}
	if u.Email != "" {
		if err := send(ctx, admin.EmailChange{Notice: true, To: u.Email, NewAddress: addr, Expires: expires}); err != nil {
			s.cfg.Logger.Error("gatehouse: sending an e-mail change notice failed", "step", "account_email",
				"err", logclip.Scrub(err, u.Email, "[email]", addr, "[email]"))
		}
	}
	httpx.WriteJSON(w, http.StatusOK, sent)
}

// ConfirmEmail answers GET {base}/account/email/confirm?user&email&token,
// the link ChangeEmail sent: once, before it expires, it makes email the
// user's address, verified now.
func (s *Routes) ConfirmEmail(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Admin == nil || s.cfg.Admin.SendEmailChange == nil {
		s.cfg.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	q := r.URL.Query()
	userID, addr, token := q.Get("user"), q.Get("email"), q.Get("token")
	ctx, cancel := context.WithTimeout(r.Context(), httpx.StoreTimeout)
	defer cancel()
	vt, err := s.cfg.Adapter.UseVerificationToken(ctx, changeIdentifier(userID, addr), tokenHash(token))
	switch {
	case errors.Is(err, adapter.ErrNotFound), err == nil && time.Now().After(vt.Expires):
		fail(w, http.StatusForbidden, autherr.Verification, "invalid_token")
		return
	case err != nil:
		s.unavailable(w, "account_email", err)
		return
	}
	u, err := s.cfg.Adapter.GetUser(ctx, userID)
	if errors.Is(err, adapter.ErrNotFound) {
		fail(w, http.StatusForbidden, autherr.Verification, "invalid_token")
		return
	}
	if err != nil {
		s.unavailable(w, "account_email", err)
		return
	}
	now := time.Now()
	u.Email, u.EmailVerified = addr, &now
	switch _, err := s.cfg.Adapter.UpdateUser(ctx, u); {
	case errors.Is(err, adapter.ErrConflict):
		fail(w, http.StatusConflict, autherr.Verification, "email_in_use") // taken since the link was sent
		return
	case err != nil:
		s.unavailable(w, "account_email", err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"email": addr})
}
