package cookies

import (
	"errors"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// TestCacheFormat: a copy sealed in the format before the active
// organization (no "o", no "f"), with the same key, does not open: it is
// a cache miss, not a session with no active organization. A copy of
// the current format opens with its organization.
func TestCacheFormat(t *testing.T) {
	const name = "authjs.session-data"
	secrets := []string{"secret-one"}
	c, err := NewCacheCodec(secrets, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// The earlier format's fields, as it sealed them.
	type previous struct {
		Token    string       `json:"t"`
		User     adapter.User `json:"u"`
		Expires  int64        `json:"e"`
		CachedAt int64        `json:"c"`
	}
	old, err := NewCodec(secrets, name, 0,
		func(previous) (time.Time, bool) { return time.Now().Add(time.Hour), true },
		func(p previous) previous { return p })
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	p := previous{Token: "hash", User: adapter.User{ID: "u1"}, Expires: now.Add(time.Hour).Unix(), CachedAt: now.UnixMilli()}
	sealed, err := old.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Decode(sealed, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("a copy of the earlier format opened: %+v, %v", got, err)
	}
	cur := Cached{Token: p.Token, User: p.User, Expires: p.Expires, CachedAt: p.CachedAt, Organization: "org1", Format: CacheFormat}
	if sealed, err = c.Encode(cur); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Decode(sealed, now); err != nil || got.Organization != "org1" || got.User.ID != "u1" {
		t.Errorf("a copy of this format: %+v, %v", got, err)
	}
}
