// Package stored holds what the memory, SQLite and PostgreSQL adapters
// share about the stored form of their records: user ids, the time
// precision every adapter keeps, an account's Extra as JSON, and the
// numbered migration files the SQL adapters embed.
package stored

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// PrepareUser assigns u an id when it has none and normalises its times.
func PrepareUser(u adapter.User) (adapter.User, error) {
	if u.ID == "" {
		id, err := NewID()
		if err != nil {
			return adapter.User{}, err
		}
		u.ID = id
	}
	u.EmailVerified = TimePtr(u.EmailVerified)
	return u, nil
}

// NewID returns 16 random bytes, hex encoded.
func NewID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating user id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// Time returns t as it is stored and read back: in UTC, truncated to
// microseconds, without a monotonic clock reading.
func Time(t time.Time) time.Time {
	return t.Round(0).UTC().Truncate(time.Microsecond)
}

// TimePtr is Time for an optional time; it returns a new pointer.
func TimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := Time(*t)
	return &n
}

// EncodeExtra returns the stored form of an account's Extra: a JSON
// object, or nil when there is nothing in it.
func EncodeExtra(extra map[string]any) ([]byte, error) {
	if len(extra) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(extra)
	if err != nil {
		return nil, fmt.Errorf("encoding account extra: %w", err)
	}
	return b, nil
}

// DecodeExtra is the inverse of EncodeExtra.
func DecodeExtra(b []byte) (map[string]any, error) {
	var extra map[string]any
	if err := json.Unmarshal(b, &extra); err != nil {
		return nil, fmt.Errorf("decoding account extra: %w", err)
	}
	if len(extra) == 0 {
		return nil, nil
	}
	return extra, nil
}

// Migration is one numbered schema change.
type Migration struct {
	Version int
	Name    string // the file name, NNNN_description.sql
	SQL     string
}

// Migrations returns the files migrations/NNNN_description.sql of fsys in
// version order; NNNN is the version. Versions are positive and unique.
func Migrations(fsys fs.FS) ([]Migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var list []Migration
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name is not NNNN_description.sql", base)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		list = append(list, Migration{Version: v, Name: base, SQL: string(body)})
	}
	slices.SortFunc(list, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(list); i++ {
		if list[i].Version == list[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s have the same version", list[i-1].Name, list[i].Name)
		}
	}
	return list, nil
}

// LowerASCII lowers the ASCII letters of s only, as SQLite's lower()
// does: how the adapters compare a user search (admin.Query.Search).
func LowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
