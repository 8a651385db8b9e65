// Package signin holds what every sign-in flow hands to the code that
// finishes a sign-in: the proven user, account and tokens, and how the
// sign-in may be linked (internal/finish).
package signin

import (
	"context"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/profile"
)

// Result is what a provider flow proved: who, through which account, with
// which profile.
type Result struct {
	User    profile.User
	Account *account.Account
	Profile any
	Tokens  account.TokenSet
	// AllowDangerousLinking is the provider's AllowDangerousEmailAccountLinking.
	AllowDangerousLinking bool
	// CallbackURL, when set, is where to go afterwards (e-mail links and
	// credentials forms carry it); else the callback-url cookie says.
	CallbackURL string
	// Persist, when set, stores the sign-in instead of the account-linking
	// rules (passkeys); it returns the stored user and whether it is new.
	Persist func(ctx context.Context) (profile.User, bool, error)
	// Unbound marks a sign-in that proves who the user is but not that
	// this browser session started it (credentials, e-mail links, passkey
	// authentication): it never links into a signed-in user, nor replaces
	// that user's session with another's (internal/finish).
	Unbound bool
	// UserVerified marks a passkey sign-in whose authenticator verified
	// the user (a PIN or biometric: the UV flag, WebAuthn §6.1): two
	// factors in one, so two-factor sign-in does not ask for a code.
	UserVerified bool
	// SID is the provider's session id when the ID token is no longer at
	// hand (a sign-in finished after its second factor); see ProviderSID.
	SID string
	// SignedIn is the id of the user the browser was signed in as when
	// the sign-in arrived, "" for none: read once by
	// finish.Finisher, for the linking rules and the second factor.
	SignedIn string
	// Began is when the sign-in's first step succeeded: for a sign-in
	// finished after its second factor, when its pending sign-in was
	// sealed. A revocation of the user's sessions stored after it ends
	// the sign-in (internal/sessions); zero means now.
	Began time.Time
}

// ProviderSID returns the provider's session id of the sign-in (the ID
// token's sid, already verified), recorded with a database session for
// back-channel logout by sid ; "" when there is none.
func (res Result) ProviderSID() string {
	if res.SID != "" || res.Tokens.IDToken == "" {
		return res.SID
	}
	if c, err := rp.UnverifiedClaims(res.Tokens.IDToken); err == nil {
		return c.String("sid")
	}
	return ""
}
