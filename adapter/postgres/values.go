package postgres

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// prepareUser assigns an id when there is none and normalises times.
func prepareUser(u adapter.User) (adapter.User, error) {
	if u.ID == "" {
		id, err := newID()
		if err != nil {
			return adapter.User{}, err
		}
		u.ID = id
	}
	u.EmailVerified = normalizeTimePtr(u.EmailVerified)
	return u, nil
}

// newID returns 16 random bytes, hex encoded.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("postgres: generating user id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// normalizeTime returns t as it is stored and read back: in UTC, truncated
// to microseconds, without a monotonic clock reading.
func normalizeTime(t time.Time) time.Time {
	return t.Round(0).UTC().Truncate(time.Microsecond)
}

// normalizeTimePtr is normalizeTime for an optional time; it returns a new
// pointer.
func normalizeTimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := normalizeTime(*t)
	return &n
}

// utcPtr returns t in UTC, or nil when t is nil.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// encodeExtra returns the stored form of an account's Extra: a JSON
// object, or nil when there is nothing in it.
func encodeExtra(extra map[string]any) ([]byte, error) {
	if len(extra) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(extra)
	if err != nil {
		return nil, fmt.Errorf("postgres: encoding account extra: %w", err)
	}
	return b, nil
}

// decodeExtra is the inverse of encodeExtra.
func decodeExtra(b []byte) (map[string]any, error) {
	var extra map[string]any
	if err := json.Unmarshal(b, &extra); err != nil {
		return nil, fmt.Errorf("postgres: decoding account extra: %w", err)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}
