package cookies

import (
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// Cached is the cookie cache's copy of a database session (Better Auth's
// cookieCache): its user, active organization and expiry, for the
// session token whose hash is Token, made at CachedAt (Unix
// milliseconds).
type Cached struct {
	Token    string       `json:"t"`
	User     adapter.User `json:"u"`
	Expires  int64        `json:"e"`
	CachedAt int64        `json:"c"`
	// Organization is the session's active organization, "" for none or
	// with organizations off.
	Organization string `json:"o,omitempty"`
	// Format is CacheFormat.
	Format int `json:"f"`
}

// CacheFormat is the format of the copies sealed now. A copy of an
// earlier format (one without the active organization, which would
// read as "none") does not open: the read is a cache miss, answered from
// the database, which writes a copy of this format.
const CacheFormat = 2

// NewCacheCodec is the cookie cache's codec for the cookie named name: a
// copy is good until maxAge after it was made or the session's expiry,
// whichever comes first. Its copies carry no kid: only Gatehouse reads
// them (no Auth.js front end looks up a secret by it), and the browser
// sends the copy with every request.
func NewCacheCodec(secrets []string, name string, maxAge time.Duration) (*Codec[Cached], error) {
	// No tolerance: this server wrote the times, and a revocation
	// elsewhere must take effect within maxAge.
	return newCodec(secrets, name, 0,
		func(c Cached) (time.Time, bool) {
			until := time.UnixMilli(c.CachedAt).Add(maxAge)
			if exp := time.Unix(c.Expires, 0); exp.Before(until) {
				until = exp
			}
			return until, c.Token != "" && c.User.ID != "" && c.CachedAt != 0 && c.Format == CacheFormat
		},
		// The codec caches what it opened: hand out a copy of the pointer.
		func(c Cached) Cached {
			if v := c.User.EmailVerified; v != nil {
				t := *v
				c.User.EmailVerified = &t
			}
			return c
		}, false)
}
