package twofactor

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/gorilla/securecookie"
)

// PendingMaxAge is how long a pending sign-in lasts by default: the time
// the user has to type the second factor after the first.
const PendingMaxAge = twofactorcore.PendingMaxAge

// pendingName is the name the pending value is sealed under; securecookie
// covers it with the MAC, so no other sealed value opens as a pending one.
const pendingName = "gatehouse-2fa-pending"

// pendingFutureSlack is how far in the future a pending sign-in's time may
// be, for clocks that differ a little between servers.
const pendingFutureSlack = time.Minute

// Pending is a sign-in that passed its first factor and waits for the
// second (ID, UserID, Provider, SID, Issued). It travels sealed
// (encrypted and authenticated), in a cookie or a form field, between the
// two steps.
type Pending = twofactorcore.Pending

// pendingValue is the sealed form of a Pending.
type pendingValue struct {
	ID       string `json:"i"`
	UserID   string `json:"u"`
	Provider string `json:"p"`
	SID      string `json:"s,omitempty"`
	Issued   int64  `json:"t"`
	Binding  []byte `json:"b"` // SHA-256 of the binding string
}

// SealPending seals p, bound to binding: a string tied to the browser,
// such as the value of the CSRF cookie, that OpenPending must be given
// again. It fills in p.ID. An empty binding is refused: the pending value
// could then be replayed from any browser.
func (k *Keys) SealPending(p Pending, binding string) (string, Pending, error) {
	if binding == "" {
		return "", p, errors.New("twofactor: empty binding")
	}
	if p.UserID == "" {
		return "", p, errors.New("twofactor: pending sign-in without a user")
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return "", p, err
	}
	p.ID = base64.RawURLEncoding.EncodeToString(id)
	b := sha256.Sum256([]byte(binding))
	v := pendingValue{ID: p.ID, UserID: p.UserID, Provider: p.Provider, SID: p.SID, Issued: p.Issued.Unix(), Binding: b[:]}
	sealed, err := k.sets[0].pending.Encode(pendingName, v)
	if err != nil {
		return "", p, fmt.Errorf("twofactor: %w", err)
	}
	return sealed, p, nil
}

// OpenPending opens a value sealed by SealPending and checks it: it must
// be intact (else ErrPendingInvalid), no older than maxAge at now (else
// ErrExpired) and bound to binding (else ErrBindingMismatch).
func (k *Keys) OpenPending(sealed, binding string, now time.Time, maxAge time.Duration) (Pending, error) {
	var v pendingValue
	codecs := make([]securecookie.Codec, len(k.sets))
	for i, set := range k.sets {
		codecs[i] = set.pending
	}
	if err := securecookie.DecodeMulti(pendingName, sealed, &v, codecs...); err != nil {
		return Pending{}, fmt.Errorf("%w: %v", ErrPendingInvalid, err)
	}
	if v.UserID == "" || v.ID == "" {
		return Pending{}, ErrPendingInvalid
	}
	p := Pending{ID: v.ID, UserID: v.UserID, Provider: v.Provider, SID: v.SID, Issued: time.Unix(v.Issued, 0)}
	switch age := now.Sub(p.Issued); {
	case age > maxAge:
		return Pending{}, fmt.Errorf("%w: pending sign-in is %v old", ErrExpired, age.Truncate(time.Second))
	case age < -pendingFutureSlack:
		return Pending{}, fmt.Errorf("%w: pending sign-in issued %v in the future", ErrPendingInvalid, -age)
	}
	b := sha256.Sum256([]byte(binding))
	if subtle.ConstantTimeCompare(b[:], v.Binding) != 1 {
		return Pending{}, ErrBindingMismatch
	}
	return p, nil
}
