package sqlite

import (
	"database/sql"
	"time"
)

// microsPtr returns the stored form of an optional time: microseconds
// since the epoch, or nil (SQL NULL).
func microsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

// fromMicros is the inverse of time.Time.UnixMicro, in UTC.
func fromMicros(us int64) time.Time {
	return time.UnixMicro(us).UTC()
}

// fromNullMicros is fromMicros for an optional time.
func fromNullMicros(us sql.NullInt64) *time.Time {
	if !us.Valid {
		return nil
	}
	t := fromMicros(us.Int64)
	return &t
}
