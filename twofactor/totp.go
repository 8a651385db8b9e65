package twofactor

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/twofactorcore"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/hotp"
	"github.com/pquerna/otp/totp"
)

// TOTP configures time-based one-time passwords (RFC 6238). The zero
// value is usable except for Issuer, which Enroll needs: 6 digits, a
// 30-second period, SHA-1 and one step of skew either side, the settings
// every authenticator app supports.
type TOTP struct {
	// Issuer names the site in authenticator apps, as in
	// "Issuer (alice@example.com)". Required by Enroll.
	Issuer string
	// Digits is the length of a code: 6 (default), 7 or 8.
	Digits int
	// Period is how long one code lasts: whole seconds, default 30s.
	Period time.Duration
	// Skew is how many steps either side of the current one are
	// accepted, for clock drift and typing time: default 1 (±30s, so a
	// code is good for up to 90 seconds). A negative Skew accepts the
	// current step only.
	Skew int
	// Algorithm is the HMAC hash: "SHA1" (default), "SHA256" or "SHA512".
	// Many authenticator apps ignore the algorithm in the URI and always
	// use SHA-1: change it only if every app your users have honours it.
	Algorithm string
}

// SecretSize is the size of a new TOTP secret in bytes: 160 bits, the
// length RFC 4226 §4 recommends for HMAC-SHA-1.
const SecretSize = 20

// QRSize is the width and height in pixels of an Enrollment's QR code.
const QRSize = 256

// Enrollment is a new TOTP secret, ready to show to the user once: the
// secret for manual entry (Secret, base32 without padding), its
// otpauth:// URI (URI) and the URI as a QRSize×QRSize PNG image (QR;
// QRDataURL for an <img src>).
type Enrollment = twofactorcore.Enrollment

// params are a TOTP's settings with defaults applied.
type params struct {
	digits otp.Digits
	period int64 // seconds
	skew   int64
	alg    otp.Algorithm
}

// params applies the defaults and refuses values no authenticator app
// accepts.
func (c TOTP) params() (params, error) {
	p := params{digits: otp.Digits(c.Digits), period: 30, skew: int64(c.Skew)}
	if c.Digits == 0 {
		p.digits = otp.DigitsSix
	}
	if c.Period != 0 {
		p.period = int64(c.Period / time.Second)
	}
	if c.Skew == 0 {
		p.skew = 1
	}
	p.skew = max(p.skew, 0)
	switch c.Algorithm {
	case "", "SHA1":
		p.alg = otp.AlgorithmSHA1
	case "SHA256":
		p.alg = otp.AlgorithmSHA256
	case "SHA512":
		p.alg = otp.AlgorithmSHA512
	default:
		return p, fmt.Errorf("twofactor: unknown TOTP algorithm %q", c.Algorithm)
	}
	switch {
	case p.digits < 6 || p.digits > 8:
		return p, fmt.Errorf("twofactor: TOTP digits %d outside 6..8", c.Digits)
	case p.period < 1 || c.Period%time.Second != 0:
		return p, fmt.Errorf("twofactor: TOTP period %v is not a whole number of seconds", c.Period)
	}
	return p, nil
}

// step returns the time step of t: the number of whole periods since the
// Unix epoch (RFC 6238 §4.2).
func (p params) step(t time.Time) int64 { return t.Unix() / p.period }

func (p params) opts() hotp.ValidateOpts {
	return hotp.ValidateOpts{Digits: p.digits, Algorithm: p.alg}
}

// Enroll makes a new random secret for accountName (the user's e-mail
// address or user name, shown in the app) and returns it with its URI and
// QR code.
func (c TOTP) Enroll(accountName string) (Enrollment, error) {
	p, err := c.params()
	if err != nil {
		return Enrollment{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{
		Issuer:      c.Issuer,
		AccountName: accountName,
		Period:      uint(p.period),
		SecretSize:  SecretSize,
		Digits:      p.digits,
		Algorithm:   p.alg,
	})
	if err != nil {
		return Enrollment{}, fmt.Errorf("twofactor: %w", err)
	}
	img, err := key.Image(QRSize, QRSize)
	if err != nil {
		return Enrollment{}, fmt.Errorf("twofactor: QR code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return Enrollment{}, fmt.Errorf("twofactor: QR code: %w", err)
	}
	return Enrollment{Secret: key.Secret(), URI: key.URL(), QR: buf.Bytes()}, nil
}

// Code returns the code for secret (base32) at time t: what an
// authenticator app shows. Sites need it only in tests.
func (c TOTP) Code(secret string, t time.Time) (string, error) {
	p, err := c.params()
	if err != nil {
		return "", err
	}
	code, err := hotp.GenerateCodeCustom(secret, uint64(p.step(t)), p.opts())
	if err != nil {
		return "", fmt.Errorf("twofactor: %w", err)
	}
	return code, nil
}

// Verify checks code against secret (base32) at time now and returns the
// time step it matched. The code may be for the current step or up to
// Skew steps either side, and must be for a step after lastStep, the one
// the user's previous code was accepted for (0 before any): a code, or
// any code of an earlier step, is accepted at most once (RFC 6238 §5.2).
// The caller stores the returned step as the new lastStep, atomically, so
// that two requests racing with one code cannot both pass.
//
// Spaces in code are ignored. A code that matches no step in the window
// is ErrInvalidCode; one that matches only steps at or before lastStep is
// ErrReplayed.
func (c TOTP) Verify(secret, code string, lastStep int64, now time.Time) (int64, error) {
	p, err := c.params()
	if err != nil {
		return 0, err
	}
	code = strings.ReplaceAll(code, " ", "")
	if len(code) != p.digits.Length() || strings.Trim(code, "0123456789") != "" {
		return 0, ErrInvalidCode
	}
	current := p.step(now)
	replayed := false
	// Every step of the window is computed, in order, so the time taken
	// does not tell which step matched; the earliest fresh one wins.
	accepted := int64(-1)
	for step := current - p.skew; step <= current+p.skew; step++ {
		if step < 0 {
			continue
		}
		ok, err := hotp.ValidateCustom(code, uint64(step), secret, p.opts())
		if err != nil {
			return 0, fmt.Errorf("twofactor: %w", err)
		}
		switch {
		case !ok:
		case step <= lastStep:
			replayed = true
		case accepted < 0:
			accepted = step
		}
	}
	switch {
	case accepted >= 0:
		return accepted, nil
	case replayed:
		return 0, ErrReplayed
	}
	return 0, ErrInvalidCode
}
