// Package webauthnrp is the go-webauthn glue of Gatehouse's passkey
// provider: the relying party made from the provider's configuration, the
// state a ceremony carries from its options to its response, users and
// credentials as go-webauthn sees them, and its errors made safe to show.
// The ceremony itself (who signs in, what is stored) is
// internal/passkeyflow.
package webauthnrp

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// The two ceremonies (Auth.js's action values).
const (
	ActionRegister     = "register"
	ActionAuthenticate = "authenticate"
)

// Provider is what the relying party and the ceremonies need of a
// WebAuthn provider's configuration (passkey.WebAuthnConfig, validated).
type Provider struct {
	ID, Name string
	// RPID, RPName and Origin are the configured relying party, "" for
	// the site's own host and origin.
	RPID, RPName, Origin string
	// Timeout bounds a ceremony.
	Timeout time.Duration
	// UserVerification and ResidentKey are asked for: "required",
	// "preferred" or "discouraged".
	UserVerification, ResidentKey string
	// DisableConditionalUI turns off passkey autofill on the sign-in page.
	DisableConditionalUI bool
	// SignUp lets people who are not signed in create a user, whom
	// GetUserInfo returns from the options request.
	SignUp      bool
	GetUserInfo func(ctx context.Context, r *http.Request) (profile.User, error)
}

// codeShape is the shape of a go-webauthn error type that may be shown as
// an error code.
var codeShape = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// RelyingParty returns the RP id, name and origin of cfg for requests
// reaching the site at origin: the configured ones, else the site's host
// and origin.
func RelyingParty(cfg Provider, siteOrigin string) (id, name, origin string) {
	origin = cmp.Or(cfg.Origin, siteOrigin)
	id = cfg.RPID
	if id == "" {
		if u, err := url.Parse(origin); err == nil {
			id = u.Hostname()
		}
	}
	return id, cmp.Or(cfg.RPName, id), origin
}

// New returns the go-webauthn relying party of cfg for requests reaching
// the site at origin, and its RP id.
func New(cfg Provider, siteOrigin string) (*webauthn.WebAuthn, string, error) {
	id, name, origin := RelyingParty(cfg, siteOrigin)
	if net.ParseIP(id) != nil {
		return nil, "", fmt.Errorf("the relying party id %q is an IP address; WebAuthn needs a domain (use localhost, or set RPID)", id)
	}
	rk := protocol.ResidentKeyRequirement(cfg.ResidentKey)
	requireRK := protocol.ResidentKeyNotRequired()
	if rk == protocol.ResidentKeyRequirementRequired {
		requireRK = protocol.ResidentKeyRequired()
	}
	t := webauthn.TimeoutConfig{Enforce: true, Timeout: cfg.Timeout, TimeoutUVD: cfg.Timeout}
	wa, err := webauthn.New(&webauthn.Config{
		RPID:          id,
		RPDisplayName: name,
		RPOrigins:     []string{origin},
		// No attestation: Gatehouse does not restrict authenticator
		// models, and "none" asks for nothing that identifies the device.
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:        rk,
			RequireResidentKey: requireRK,
			UserVerification:   protocol.UserVerificationRequirement(cfg.UserVerification),
		},
		Timeouts: webauthn.TimeoutsConfig{Login: t, Registration: t},
	})
	return wa, id, err
}

// ChallengeState is what the challenge cookie carries from the options to
// the callback. It is sealed (encrypted and authenticated) and bound to
// the provider by checks.Sealer; the action is inside.
type ChallengeState struct {
	Action  string               `json:"a"`
	Session webauthn.SessionData `json:"s"`
	// UserID is the user a registration is for: the signed-in user, or
	// the id the new user will get (sign-up).
	UserID string `json:"u,omitempty"`
	// NewUser is the user to create (sign-up); nil otherwise.
	NewUser *profile.User `json:"n,omitempty"`
	// Binding is the digest of the session that asked for the options
	// (internal/finish, Site.CheckBinding): the ceremony finishes only in that session.
	Binding string `json:"b"`
}

// User is a user as go-webauthn sees it. The user handle is the
// user's id: opaque, random, at most 64 bytes.
type User struct {
	ID, Name, Display string
	Creds             []webauthn.Credential
	NewUser           *profile.User // sign-up only
}

func (u *User) WebAuthnID() []byte                         { return []byte(u.ID) }
func (u *User) WebAuthnName() string                       { return u.Name }
func (u *User) WebAuthnDisplayName() string                { return u.Display }
func (u *User) WebAuthnCredentials() []webauthn.Credential { return u.Creds }

// CredentialOf turns a stored authenticator into go-webauthn's credential
// record.
func CredentialOf(a adapter.Authenticator) webauthn.Credential {
	rawID, _ := base64.RawURLEncoding.DecodeString(a.CredentialID)
	c := webauthn.Credential{
		ID:            rawID,
		PublicKey:     a.CredentialPublicKey,
		Flags:         webauthn.CredentialFlags{BackupEligible: a.CredentialDeviceType == adapter.MultiDevice, BackupState: a.CredentialBackedUp},
		Authenticator: webauthn.Authenticator{SignCount: a.Counter},
	}
	for _, t := range strings.Split(a.Transports, ",") {
		if t != "" {
			c.Transport = append(c.Transport, protocol.AuthenticatorTransport(t))
		}
	}
	return c
}

// JoinTransports is how an adapter.Authenticator stores transports.
func JoinTransports(ts []protocol.AuthenticatorTransport) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ",")
}

// VerificationCode is the public code of a failed verification.
func VerificationCode(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && codeShape.MatchString(pe.Type) {
		return pe.Type
	}
	return "verification_failed"
}

// ProtocolError keeps go-webauthn's details and debug information for the
// log (never for the user).
func ProtocolError(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.DevInfo != "" {
		return fmt.Errorf("%w (%s)", err, pe.DevInfo)
	}
	return err
}
