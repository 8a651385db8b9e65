package postgres

import (
	"time"
)

// utcPtr returns t in UTC, or nil when t is nil.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
