package webauthnrp

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// TestRelyingParty: the configured id, name and origin win; without them
// the origin is the site's, the id its host name (no port) and the name
// the id.
func TestRelyingParty(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		cfg                    Provider
		site                   string
		wantID, wantName, want string
	}{
		{"defaults", Provider{}, "https://app.example.com:8443", "app.example.com", "app.example.com", "https://app.example.com:8443"},
		{"configured", Provider{RPID: "example.com", RPName: "Example", Origin: "https://login.example.com"}, "https://other.test", "example.com", "Example", "https://login.example.com"},
		{"origin only", Provider{Origin: "https://login.example.com"}, "https://other.test", "login.example.com", "login.example.com", "https://login.example.com"},
		{"id only", Provider{RPID: "example.com"}, "https://app.example.com", "example.com", "example.com", "https://app.example.com"},
	} {
		id, name, origin := RelyingParty(tc.cfg, tc.site)
		if id != tc.wantID || name != tc.wantName || origin != tc.want {
			t.Errorf("%s: RelyingParty = %q, %q, %q; want %q, %q, %q", tc.name, id, name, origin, tc.wantID, tc.wantName, tc.want)
		}
	}
}

// TestNew: an IP address is refused as an RP id (WebAuthn needs a
// domain), before go-webauthn sees it; otherwise the relying party
// carries the id, the one origin, no attestation, the timeouts enforced,
// and the resident-key and user-verification requirements of the
// configuration.
func TestNew(t *testing.T) {
	for _, site := range []string{"http://127.0.0.1:3000", "http://[::1]:3000"} {
		if _, _, err := New(Provider{}, site); err == nil || !strings.Contains(err.Error(), "WebAuthn needs a domain") {
			t.Errorf("New(%s) = %v, want the IP-address refusal", site, err)
		}
	}
	cfg := Provider{
		Timeout:          2 * time.Minute,
		ResidentKey:      "required",
		UserVerification: "required",
	}
	wa, id, err := New(cfg, "http://localhost:3000")
	if err != nil {
		t.Fatal(err)
	}
	c := wa.Config
	if id != "localhost" || c.RPID != "localhost" || c.RPDisplayName != "localhost" {
		t.Errorf("id = %q, RPID = %q, name = %q; want localhost", id, c.RPID, c.RPDisplayName)
	}
	if !slices.Equal(c.RPOrigins, []string{"http://localhost:3000"}) {
		t.Errorf("RPOrigins = %q", c.RPOrigins)
	}
	if c.AttestationPreference != protocol.PreferNoAttestation {
		t.Errorf("AttestationPreference = %q, want none", c.AttestationPreference)
	}
	sel := c.AuthenticatorSelection
	if sel.ResidentKey != protocol.ResidentKeyRequirementRequired || sel.RequireResidentKey == nil || !*sel.RequireResidentKey {
		t.Errorf("resident key = %q, require = %v; want required", sel.ResidentKey, sel.RequireResidentKey)
	}
	if sel.UserVerification != protocol.VerificationRequired {
		t.Errorf("UserVerification = %q, want required", sel.UserVerification)
	}
	for name, to := range map[string]webauthn.TimeoutConfig{"login": c.Timeouts.Login, "registration": c.Timeouts.Registration} {
		if !to.Enforce || to.Timeout != cfg.Timeout || to.TimeoutUVD != cfg.Timeout {
			t.Errorf("%s timeout = %+v, want %v enforced", name, to, cfg.Timeout)
		}
	}

	wa, _, err = New(Provider{ResidentKey: "preferred"}, "https://example.com")
	if err != nil {
		t.Fatal(err)
	}
	if rk := wa.Config.AuthenticatorSelection.RequireResidentKey; rk == nil || *rk {
		t.Errorf("a preferred resident key is required: %v", rk)
	}
}

// TestUser: go-webauthn sees the user's id as the user handle, and its
// names and credentials as given.
func TestUser(t *testing.T) {
	creds := []webauthn.Credential{{ID: []byte("c1")}}
	u := &User{ID: "user-1", Name: "ada@example.com", Display: "Ada", Creds: creds}
	var _ webauthn.User = u
	if !bytes.Equal(u.WebAuthnID(), []byte("user-1")) || u.WebAuthnName() != "ada@example.com" || u.WebAuthnDisplayName() != "Ada" {
		t.Errorf("user = %q, %q, %q", u.WebAuthnID(), u.WebAuthnName(), u.WebAuthnDisplayName())
	}
	if got := u.WebAuthnCredentials(); len(got) != 1 || !bytes.Equal(got[0].ID, []byte("c1")) {
		t.Errorf("credentials = %v", got)
	}
}

// TestCredentialOf: a stored authenticator becomes go-webauthn's record
// with its raw id, key, counter, backup flags and transports, and the
// transports round-trip through JoinTransports.
func TestCredentialOf(t *testing.T) {
	raw := []byte{0xfb, 0xff, 0x01, 0x02}
	a := adapter.Authenticator{
		CredentialID:         base64.RawURLEncoding.EncodeToString(raw),
		CredentialPublicKey:  []byte("cose-key"),
		Counter:              7,
		CredentialDeviceType: adapter.MultiDevice,
		CredentialBackedUp:   true,
		Transports:           "internal,hybrid",
	}
	c := CredentialOf(a)
	if !bytes.Equal(c.ID, raw) || !bytes.Equal(c.PublicKey, a.CredentialPublicKey) || c.Authenticator.SignCount != 7 {
		t.Errorf("credential = id %x, key %q, count %d", c.ID, c.PublicKey, c.Authenticator.SignCount)
	}
	if !c.Flags.BackupEligible || !c.Flags.BackupState {
		t.Errorf("flags = %+v, want backup eligible and backed up", c.Flags)
	}
	want := []protocol.AuthenticatorTransport{protocol.Internal, protocol.Hybrid}
	if !slices.Equal(c.Transport, want) {
		t.Errorf("transports = %q, want %q", c.Transport, want)
	}
	if got := JoinTransports(c.Transport); got != a.Transports {
		t.Errorf("JoinTransports = %q, want %q", got, a.Transports)
	}

	a.CredentialDeviceType, a.CredentialBackedUp, a.Transports = adapter.SingleDevice, false, ""
	c = CredentialOf(a)
	if c.Flags.BackupEligible || c.Flags.BackupState {
		t.Errorf("single-device flags = %+v", c.Flags)
	}
	if len(c.Transport) != 0 {
		t.Errorf("no transports became %q", c.Transport)
	}
	if got := JoinTransports(nil); got != "" {
		t.Errorf("JoinTransports(nil) = %q", got)
	}
}

// TestVerificationCode: a go-webauthn error type of the safe shape is
// the public code, wrapped or not; anything else is
// verification_failed.
func TestVerificationCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&protocol.Error{Type: "invalid_request"}, "invalid_request"},
		{fmt.Errorf("finish: %w", &protocol.Error{Type: "bad_challenge"}), "bad_challenge"},
		{&protocol.Error{Type: "Has Spaces<script>"}, "verification_failed"},
		{&protocol.Error{Type: strings.Repeat("a", 65)}, "verification_failed"},
		{&protocol.Error{}, "verification_failed"},
		{errors.New("plain"), "verification_failed"},
		{nil, "verification_failed"},
	} {
		if got := VerificationCode(tc.err); got != tc.want {
			t.Errorf("VerificationCode(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestProtocolError: the debug information is added for the log and
// the error is still the protocol error; errors without it are kept.
func TestProtocolError(t *testing.T) {
	pe := &protocol.Error{Type: "t", Details: "details", DevInfo: "dev-info"}
	err := ProtocolError(pe)
	if !strings.Contains(err.Error(), "dev-info") || !errors.Is(err, pe) {
		t.Errorf("ProtocolError = %v (wraps: %v)", err, errors.Is(err, pe))
	}
	plain := errors.New("plain")
	if got := ProtocolError(plain); got != plain {
		t.Errorf("ProtocolError(plain) = %v", got)
	}
	bare := &protocol.Error{Type: "t"}
	if got := ProtocolError(bare); got != error(bare) {
		t.Errorf("ProtocolError without DevInfo = %v", got)
	}
}
