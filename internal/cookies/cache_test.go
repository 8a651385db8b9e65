package cookies

import (
	"encoding/base64"
	"errors"
	"strings"
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

// TestCacheCopyWithoutKid: the cookie cache's copies carry no kid, which
// makes them 127 characters shorter (the browser sends them with every
// request); one sealed under the older of two secrets still opens after
// a rotation, and so does one sealed with a kid, as copies were before.
func TestCacheCopyWithoutKid(t *testing.T) {
	const name = "authjs.session-data"
	now := time.Now()
	cur := Cached{Token: "hash", User: adapter.User{ID: "u1"}, Expires: now.Add(time.Hour).Unix(), CachedAt: now.UnixMilli(), Format: CacheFormat}
	old, err := NewCacheCodec([]string{"secret-old"}, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := old.Encode(cur)
	if err != nil {
		t.Fatal(err)
	}
	withKid, err := newCodec([]string{"secret-old"}, name, 0, old.check, old.clone, true)
	if err != nil {
		t.Fatal(err)
	}
	kidded, err := withKid.Encode(cur)
	if err != nil {
		t.Fatal(err)
	}
	if d := len(kidded) - len(sealed); d != 127 {
		t.Errorf("a copy with a kid is %d characters longer, want 127", d)
	}
	header, _, _ := strings.Cut(sealed, ".")
	if raw, err := base64.RawURLEncoding.DecodeString(header); err != nil || string(raw) != `{"alg":"dir","enc":"A256CBC-HS512"}` {
		t.Errorf("header %q, %v", raw, err)
	}
	rotated, err := NewCacheCodec([]string{"secret-new", "secret-old"}, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"without a kid": sealed, "with a kid": kidded} {
		if got, err := rotated.Decode(s, now); err != nil || got.User.ID != "u1" {
			t.Errorf("a copy %s, sealed under the older secret: %+v, %v", what, got, err)
		}
	}
	other, err := NewCacheCodec([]string{"secret-other"}, name, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Decode(sealed, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("a copy opened under a secret that did not seal it: %v", err)
	}
}
