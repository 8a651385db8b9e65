package password

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Default length bounds of a [Policy], in Unicode code points after NFKC
// normalisation. SP 800-63B asks for at least 8 (15 when the password is
// the only factor) and for accepting at least 64.
const (
	DefaultMinLength = 8
	DefaultMaxLength = 128
)

// Errors returned by [Policy.Check]. They are wrapped with the limit that
// applies; test them with [errors.Is]. None of them contains the
// password.
var (
	// ErrTooShort means the password has fewer characters than the
	// policy's minimum.
	ErrTooShort = errors.New("password: too short")
	// ErrTooLong means the password has more characters than the
	// policy's maximum, or more than MaxBytes bytes.
	ErrTooLong = errors.New("password: too long")
	// ErrBreached means the policy's Breached hook knows the password
	// from a breach.
	ErrBreached = errors.New("password: found in a data breach, choose another")
)

var errTooLongBytes = fmt.Errorf("%w (limit %d bytes)", ErrTooLong, MaxBytes)

// A Policy holds the rules a new password must meet, following NIST SP
// 800-63B: a minimum and maximum length and no composition rules. The
// zero Policy allows 8 to 128 characters and checks no breach list.
type Policy struct {
	// MinLength is the fewest characters allowed; 0 means
	// DefaultMinLength.
	MinLength int
	// MaxLength is the most characters allowed; 0 means
	// DefaultMaxLength.
	MaxLength int
	// Breached, if set, reports whether the password is known from a
	// breach. It receives the NFKC form of the password, which is what
	// is hashed. An error from it makes Check fail, so a breach service
	// that is down blocks sign-ups rather than letting them through
	// unchecked; wrap the hook to decide otherwise. See RangeAPI.
	Breached func(ctx context.Context, password string) (bool, error)
}

// Check returns nil if password meets p, or an error wrapping
// [ErrTooShort], [ErrTooLong] or [ErrBreached], or the Breached hook's
// error. Length counts Unicode code points of the NFKC form, so "é"
// typed as one code point or as "e" and a combining accent counts as
// one character, and the ligature "ﬁ" counts as two ("fi").
func (p Policy) Check(ctx context.Context, password string) error {
	minLen, maxLen := p.MinLength, p.MaxLength
	if minLen == 0 {
		minLen = DefaultMinLength
	}
	if maxLen == 0 {
		maxLen = DefaultMaxLength
	}
	if len(password) > MaxBytes {
		return errTooLongBytes
	}
	normalized := norm.NFKC.String(password)
	n := utf8.RuneCountInString(normalized)
	if n < minLen {
		return fmt.Errorf("%w (minimum %d characters)", ErrTooShort, minLen)
	}
	if n > maxLen {
		return fmt.Errorf("%w (maximum %d characters)", ErrTooLong, maxLen)
	}
	if p.Breached == nil {
		return nil
	}
	breached, err := p.Breached(ctx, normalized)
	if err != nil {
		return fmt.Errorf("password: breach check: %w", err)
	}
	if breached {
		return ErrBreached
	}
	return nil
}
