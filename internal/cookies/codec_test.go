package cookies

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sync"
	"testing"
	"time"
)

// claims is a session token for the codec's tests.
type claims struct {
	Subject string         `json:"sub"`
	Expires int64          `json:"exp"`
	Extra   map[string]any `json:"extra,omitempty"`
}

func newClaimsCodec(t *testing.T, secrets ...string) *Codec[claims] {
	t.Helper()
	c, err := NewCodec(secrets, "authjs.session-token", ClockTolerance,
		func(c claims) (time.Time, bool) { return time.Unix(c.Expires, 0), c.Subject != "" && c.Expires != 0 },
		func(c claims) claims { c.Extra = maps.Clone(c.Extra); return c })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCodecCacheExpiry: a token opened once (and cached) is refused once
// it has expired, beyond the tolerance, as a token never opened before
// would be: the cache keeps it no longer than the token's own exp.
func TestCodecCacheExpiry(t *testing.T) {
	c := newClaimsCodec(t, "secret-one")
	now := time.Now()
	exp := time.Unix(now.Add(time.Minute).Unix(), 0) // what the token holds: whole seconds
	sealed, err := c.Encode(claims{Subject: "alice", Expires: exp.Unix()})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Time{now, now, exp.Add(ClockTolerance)} { // the second from the cache
		if got, err := c.Decode(sealed, at); err != nil || got.Subject != "alice" {
			t.Fatalf("at %v: %+v, %v", at.Sub(now), got, err)
		}
	}
	if _, err := c.Decode(sealed, exp.Add(ClockTolerance+time.Second)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("expired, with the cache warm: %v, want ErrInvalid", err)
	}
}

// TestCodecCacheSecrets: the cache belongs to its codec, which is made
// for one set of secrets: after a rotation that drops the secret that
// sealed a token (a new codec, as New makes), the token no longer opens,
// however often the old codec opened it.
func TestCodecCacheSecrets(t *testing.T) {
	old := newClaimsCodec(t, "secret-one")
	sealed, err := old.Encode(claims{Subject: "alice", Expires: time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := old.Decode(sealed, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := newClaimsCodec(t, "secret-two").Decode(sealed, time.Now()); !errors.Is(err, ErrInvalid) {
		t.Fatalf("secret dropped: %v, want ErrInvalid", err)
	}
	if got, err := newClaimsCodec(t, "secret-two", "secret-one").Decode(sealed, time.Now()); err != nil || got.Subject != "alice" {
		t.Fatalf("secret kept as the older one: %+v, %v", got, err)
	}
}

// TestCodecCacheExactString: the cache answers only for the very string
// it opened: the same token with one character changed is opened (and
// refused) anew.
func TestCodecCacheExactString(t *testing.T) {
	c := newClaimsCodec(t, "secret-one")
	sealed, err := c.Encode(claims{Subject: "alice", Expires: time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Decode(sealed, time.Now()); err != nil {
		t.Fatal(err)
	}
	b := []byte(sealed)
	i := len(b) - 5 // in the authentication tag
	b[i] = map[bool]byte{true: 'B', false: 'A'}[b[i] == 'A']
	if _, err := c.Decode(string(b), time.Now()); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a changed token: %v, want ErrInvalid", err)
	}
}

// TestCodecCacheCopies: what Decode returns is the caller's own: changing
// its maps does not change what the next request opens.
func TestCodecCacheCopies(t *testing.T) {
	c := newClaimsCodec(t, "secret-one")
	sealed, err := c.Encode(claims{Subject: "alice", Expires: time.Now().Add(time.Hour).Unix(), Extra: map[string]any{"role": "user"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // opened, then from the cache
		got, err := c.Decode(sealed, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		got.Extra["role"] = "admin"
	}
	if again, err := c.Decode(sealed, time.Now()); err != nil || again.Extra["role"] != "user" {
		t.Fatalf("after a caller changed its copy: %+v, %v", again, err)
	}
}

// TestCodecCacheHitSameAsMiss: a token answered from the cache is the
// token a codec that never saw it opens.
func TestCodecCacheHitSameAsMiss(t *testing.T) {
	c := newClaimsCodec(t, "secret-one")
	sealed, err := c.Encode(claims{Subject: "alice", Expires: time.Now().Add(time.Hour).Unix(), Extra: map[string]any{"role": "user"}})
	if err != nil {
		t.Fatal(err)
	}
	miss, err := newClaimsCodec(t, "secret-one").Decode(sealed, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // opened, then twice from the cache
		got, err := c.Decode(sealed, time.Now())
		if err != nil || !reflect.DeepEqual(got, miss) {
			t.Fatalf("%+v, %v; a fresh codec opens %+v", got, err, miss)
		}
	}
}

// TestCodecCacheConcurrent: a hundred goroutines opening the same tokens
// and tokens of their own at once, some changing what they got, all get
// their own token (run with -race).
func TestCodecCacheConcurrent(t *testing.T) {
	c := newClaimsCodec(t, "secret-one")
	exp := time.Now().Add(time.Hour).Unix()
	shared, err := c.Encode(claims{Subject: "shared", Expires: exp, Extra: map[string]any{"n": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			own, err := c.Encode(claims{Subject: fmt.Sprint("user", i), Expires: exp})
			if err != nil {
				errs <- err
				return
			}
			for range 20 {
				s, err := c.Decode(shared, time.Now())
				if err != nil || s.Subject != "shared" || s.Extra["n"] != "0" {
					errs <- fmt.Errorf("shared: %+v, %v", s, err)
					return
				}
				s.Extra["n"] = fmt.Sprint(i) // the caller's own copy
				o, err := c.Decode(own, time.Now())
				if err != nil || o.Subject != fmt.Sprint("user", i) {
					errs <- fmt.Errorf("own: %+v, %v", o, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
