package sqlite

import (
	"fmt"
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

// micros is the scan destination of a time column: it reads microseconds
// since the epoch into *t, in UTC.
type micros struct{ t *time.Time }

// Scan implements sql.Scanner.
func (m micros) Scan(src any) error {
	us, ok := src.(int64)
	if !ok {
		return fmt.Errorf("time column holds %T, not INTEGER microseconds", src)
	}
	*m.t = time.UnixMicro(us).UTC()
	return nil
}

// nullMicros is micros for a nullable column: NULL reads as nil.
type nullMicros struct{ t **time.Time }

// Scan implements sql.Scanner.
func (m nullMicros) Scan(src any) error {
	if src == nil {
		*m.t = nil
		return nil
	}
	var t time.Time
	if err := (micros{&t}).Scan(src); err != nil {
		return err
	}
	*m.t = &t
	return nil
}

// nullString returns b as a string, or nil (SQL NULL) when b is nil.
func nullString(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}
