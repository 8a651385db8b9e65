package password

import (
	"context"
	"encoding/base64"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
)

// cheap keeps the tests fast; the format and code paths are the same.
var cheap = Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// call is one argon2 derivation seen by a counting Hasher.
type call struct {
	time, memory    uint32
	threads         uint8
	saltLen, keyLen int
}

// counter wraps a Hasher's derive to record each call.
type counter struct {
	mu    sync.Mutex
	calls []call
}

func (c *counter) take() []call {
	c.mu.Lock()
	defer c.mu.Unlock()
	calls := c.calls
	c.calls = nil
	return calls
}

func newCounting(t *testing.T, p Params, maxConcurrent int) (*Hasher, *counter) {
	t.Helper()
	h, err := NewHasher(p, maxConcurrent)
	if err != nil {
		t.Fatal(err)
	}
	c := &counter{}
	h.derive = func(pw, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		c.mu.Lock()
		c.calls = append(c.calls, call{time, memory, threads, len(salt), int(keyLen)})
		c.mu.Unlock()
		return argon2.IDKey(pw, salt, time, memory, threads, keyLen)
	}
	return h, c
}

// mustHash hashes password with h or ends the test.
func mustHash(t *testing.T, h *Hasher, password string) string {
	t.Helper()
	encoded, err := h.Hash(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	return encoded
}

// passwordCase is a password and the error a check must give it (nil
// for none).
type passwordCase struct {
	name     string
	password string
	want     error
}

// checkCases reports the cases for which check does not give the wanted
// error.
func checkCases(t *testing.T, what string, check func(password string) error, cases []passwordCase) {
	t.Helper()
	for _, c := range cases {
		if err := check(c.password); !errors.Is(err, c.want) {
			t.Errorf("%s: %s = %v, want %v", c.name, what, err, c.want)
		}
	}
}

func TestReferenceVector(t *testing.T) {
	// From the reference implementation (phc-winner-argon2, src/test.c):
	// "password", salt "somesalt", m=64 MiB, t=2, p=1.
	const ref = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	h, err := NewHasher(DefaultParams, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Verify(context.Background(), "password", ref); err != nil {
		t.Fatalf("reference hash: %v", err)
	}
	if err := h.Verify(context.Background(), "passwore", ref); !errors.Is(err, ErrMismatch) {
		t.Fatalf("reference hash, wrong password: %v, want ErrMismatch", err)
	}
	if !h.NeedsRehash(ref) {
		t.Error("NeedsRehash(reference at m=65536) = false, want true")
	}
	stored, err := decode(ref)
	if err != nil {
		t.Fatal(err)
	}
	if got := encode(stored.params, stored.salt, stored.key); got != ref {
		t.Errorf("encode(decode(ref)) = %q", got)
	}
}

func TestHashDefaultParamsRoundTrip(t *testing.T) {
	h, err := NewHasher(Params{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if h.Params() != DefaultParams {
		t.Fatalf("Params() = %+v, want DefaultParams", h.Params())
	}
	ctx := context.Background()
	encoded := mustHash(t, h, "correct horse battery staple")
	const prefix = "$argon2id$v=19$m=19456,t=2,p=1$"
	if !strings.HasPrefix(encoded, prefix) {
		t.Fatalf("Hash = %q, want prefix %q", encoded, prefix)
	}
	fields := strings.Split(encoded, "$")
	salt, err1 := base64.RawStdEncoding.DecodeString(fields[4])
	key, err2 := base64.RawStdEncoding.DecodeString(fields[5])
	if err1 != nil || err2 != nil || len(salt) != 16 || len(key) != 32 {
		t.Fatalf("salt %d bytes (%v), hash %d bytes (%v); want 16 and 32", len(salt), err1, len(key), err2)
	}
	if err := h.Verify(ctx, "correct horse battery staple", encoded); err != nil {
		t.Fatalf("Verify(right password) = %v", err)
	}
	if h.NeedsRehash(encoded) {
		t.Error("NeedsRehash(fresh hash) = true")
	}
}

func TestVerify(t *testing.T) {
	h, _ := newCounting(t, cheap, 0)
	ctx := context.Background()
	encoded := mustHash(t, h, "Straße ﬁx café")
	again := mustHash(t, h, "Straße ﬁx café")
	if again == encoded {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	checkCases(t, "Verify", func(pw string) error { return h.Verify(ctx, pw, encoded) }, []passwordCase{
		{"same", "Straße ﬁx café", nil},
		{"NFKC equivalent (fi ligature spelled out, é decomposed)", "Straße fix cafe\u0301", nil},
		{"wrong", "Strasse fix café", ErrMismatch},
		{"empty", "", ErrMismatch},
		{"prefix", "Straße ﬁx caf", ErrMismatch},
		{"over MaxBytes", strings.Repeat("a", MaxBytes+1), ErrTooLong},
	})
	if _, err := h.Hash(ctx, strings.Repeat("a", MaxBytes+1)); !errors.Is(err, ErrTooLong) {
		t.Errorf("Hash(over MaxBytes) = %v, want ErrTooLong", err)
	}
}

func TestVerifyRefusesTamperedHash(t *testing.T) {
	h, c := newCounting(t, cheap, 0)
	ctx := context.Background()
	good := mustHash(t, h, "password")
	f := strings.Split(good, "$") // "", argon2id, v=19, params, salt, hash
	salt, hash := f[4], f[5]
	phcOf := func(alg, version, params, salt, hash string) string {
		return strings.Join([]string{"", alg, version, params, salt, hash}, "$")
	}
	with := func(params string) string { return phcOf("argon2id", "v=19", params, salt, hash) }
	b64of := func(n int) string { return base64.RawStdEncoding.EncodeToString(make([]byte, n)) }
	tests := []struct {
		name    string
		encoded string
		want    error
	}{
		{"empty", "", ErrMalformedHash},
		{"too long", good + strings.Repeat("A", maxEncodedLen), ErrMalformedHash},
		{"no version", "$argon2id$m=64,t=1,p=1$" + salt + "$" + hash, ErrMalformedHash},
		{"extra field", good + "$x", ErrMalformedHash},
		{"bcrypt", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy", ErrMalformedHash},
		{"argon2i", phcOf("argon2i", "v=19", f[3], salt, hash), ErrUnsupportedHash},
		{"version 16", phcOf("argon2id", "v=16", f[3], salt, hash), ErrUnsupportedHash},
		{"huge memory", with("m=4294967295,t=1,p=1"), ErrParams},
		{"memory over bound", with("m=262145,t=1,p=1"), ErrParams},
		{"memory below 8p", with("m=7,t=1,p=1"), ErrParams},
		{"huge time", with("m=64,t=4294967295,p=1"), ErrParams},
		{"time over bound", with("m=64,t=17,p=1"), ErrParams},
		{"zero time", with("m=64,t=0,p=1"), ErrParams},
		{"zero threads", with("m=64,t=1,p=0"), ErrParams},
		{"many threads", with("m=4096,t=1,p=255"), ErrParams},
		{"eleven digits", with("m=10000000000,t=1,p=1"), ErrMalformedHash},
		{"leading zero", with("m=064,t=1,p=1"), ErrMalformedHash},
		{"sign", with("m=+64,t=1,p=1"), ErrMalformedHash},
		{"space", with("m= 64,t=1,p=1"), ErrMalformedHash},
		{"order", with("t=1,m=64,p=1"), ErrMalformedHash},
		{"extra parameter", with("m=64,t=1,p=1,data=eA"), ErrMalformedHash},
		{"missing parameter", with("m=64,t=1"), ErrMalformedHash},
		{"padded salt", phcOf("argon2id", "v=19", f[3], salt+"==", hash), ErrMalformedHash},
		{"newline in salt", phcOf("argon2id", "v=19", f[3], salt[:4]+"\n"+salt[4:], hash), ErrMalformedHash},
		{"url alphabet", phcOf("argon2id", "v=19", f[3], strings.Repeat("_", 22), hash), ErrMalformedHash},
		{"short salt", phcOf("argon2id", "v=19", f[3], b64of(4), hash), ErrParams},
		{"short hash", phcOf("argon2id", "v=19", f[3], salt, b64of(8)), ErrParams},
		{"long hash", phcOf("argon2id", "v=19", f[3], salt, b64of(100)), ErrParams},
	}
	c.take()
	for _, tt := range tests {
		err := h.Verify(ctx, "password", tt.encoded)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: Verify(%q) = %v, want %v", tt.name, tt.encoded, err, tt.want)
		}
		if calls := c.take(); len(calls) != 0 {
			t.Errorf("%s: refused hash ran argon2 %d times, want 0", tt.name, len(calls))
		}
		if !h.NeedsRehash(tt.encoded) {
			t.Errorf("%s: NeedsRehash = false, want true", tt.name)
		}
	}

	// A well-formed hash whose bytes were changed is a mismatch.
	key, err := base64.RawStdEncoding.DecodeString(hash)
	if err != nil {
		t.Fatal(err)
	}
	key[0] ^= 1
	if err := h.Verify(ctx, "password", phcOf("argon2id", "v=19", f[3], salt, base64.RawStdEncoding.EncodeToString(key))); !errors.Is(err, ErrMismatch) {
		t.Errorf("changed hash bytes: Verify = %v, want ErrMismatch", err)
	}
}

func TestNeedsRehash(t *testing.T) {
	ctx := context.Background()
	old, _ := newCounting(t, cheap, 0)
	encoded := mustHash(t, old, "password")
	changed := map[string]func(*Params){
		"same":     func(*Params) {},
		"memory":   func(p *Params) { p.Memory *= 2 },
		"time":     func(p *Params) { p.Time++ },
		"threads":  func(p *Params) { p.Threads = 2 },
		"salt len": func(p *Params) { p.SaltLen = 32 },
		"key len":  func(p *Params) { p.KeyLen = 64 },
	}
	for name, change := range changed {
		p := cheap
		change(&p)
		h, _ := newCounting(t, p, 0)
		if got, want := h.NeedsRehash(encoded), name != "same"; got != want {
			t.Errorf("%s: NeedsRehash = %v, want %v", name, got, want)
		}
		// The new hasher still verifies the old hash (it uses the stored
		// parameters), and its own hash needs no rehash.
		if err := h.Verify(ctx, "password", encoded); err != nil {
			t.Errorf("%s: Verify(old hash) = %v", name, err)
		}
		fresh := mustHash(t, h, "password")
		if h.NeedsRehash(fresh) {
			t.Errorf("%s: NeedsRehash(fresh hash) = true", name)
		}
		if err := old.Verify(ctx, "password", fresh); err != nil {
			t.Errorf("%s: old hasher Verify(new hash) = %v", name, err)
		}
	}
}

func TestNewHasherBounds(t *testing.T) {
	bad := map[string]Params{
		"zero threads":   {Memory: 64, Time: 1, Threads: 0, SaltLen: 16, KeyLen: 32},
		"memory below":   {Memory: 15, Time: 1, Threads: 2, SaltLen: 16, KeyLen: 32},
		"memory above":   {Memory: MaxMemory + 1, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		"zero time":      {Memory: 64, Time: 0, Threads: 1, SaltLen: 16, KeyLen: 32},
		"time above":     {Memory: 64, Time: MaxTime + 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		"threads above":  {Memory: 1024, Time: 1, Threads: MaxThreads + 1, SaltLen: 16, KeyLen: 32},
		"short salt":     {Memory: 64, Time: 1, Threads: 1, SaltLen: MinSaltLen - 1, KeyLen: 32},
		"long salt":      {Memory: 64, Time: 1, Threads: 1, SaltLen: MaxSaltLen + 1, KeyLen: 32},
		"short key":      {Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: MinKeyLen - 1},
		"long key":       {Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: MaxKeyLen + 1},
		"partly default": {Memory: 19456},
	}
	for name, p := range bad {
		if _, err := NewHasher(p, 1); !errors.Is(err, ErrParams) {
			t.Errorf("%s: NewHasher(%+v) = %v, want ErrParams", name, p, err)
		}
	}
	if err := DefaultParams.check(); err != nil {
		t.Errorf("DefaultParams: %v", err)
	}
}

// TestDummyVerifyDoesTheSameWork checks that a sign-in for an unknown user
// runs argon2 exactly as a wrong password for a known user does: same
// number of calls, same parameters, same salt and key lengths.
func TestDummyVerifyDoesTheSameWork(t *testing.T) {
	ctx := context.Background()
	h, c := newCounting(t, cheap, 0)
	encoded := mustHash(t, h, "the user's password")
	c.take()

	if err := h.Verify(ctx, "a guess", encoded); !errors.Is(err, ErrMismatch) {
		t.Fatalf("Verify(wrong) = %v, want ErrMismatch", err)
	}
	known := c.take()
	for _, pw := range []string{"a guess", "the user's password", ""} {
		if err := h.DummyVerify(ctx, pw); !errors.Is(err, ErrMismatch) {
			t.Fatalf("DummyVerify(%q) = %v, want ErrMismatch", pw, err)
		}
		unknown := c.take()
		if len(known) != 1 || len(unknown) != 1 || known[0] != unknown[0] {
			t.Fatalf("argon2 calls: wrong password %+v, unknown user %+v; want one identical call each", known, unknown)
		}
	}
	want := call{cheap.Time, cheap.Memory, cheap.Threads, int(cheap.SaltLen), int(cheap.KeyLen)}
	if known[0] != want {
		t.Errorf("argon2 call %+v, want the hasher's parameters %+v", known[0], want)
	}

	// Over-long input is refused the same way for both.
	long := strings.Repeat("x", MaxBytes+1)
	if err1, err2 := h.Verify(ctx, long, encoded), h.DummyVerify(ctx, long); !errors.Is(err1, ErrTooLong) || !errors.Is(err2, ErrTooLong) {
		t.Errorf("over MaxBytes: Verify = %v, DummyVerify = %v; want ErrTooLong for both", err1, err2)
	}
	if calls := c.take(); len(calls) != 0 {
		t.Errorf("over MaxBytes ran argon2 %d times", len(calls))
	}
}

// blocking makes h's derive wait for release and tracks how many run at
// once.
func blocking(h *Hasher) (release func(), running, peak *atomic.Int32) {
	gate := make(chan struct{})
	running, peak = new(atomic.Int32), new(atomic.Int32)
	h.derive = func(pw, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		n := running.Add(1)
		for {
			old := peak.Load()
			if n <= old || peak.CompareAndSwap(old, n) {
				break
			}
		}
		<-gate
		running.Add(-1)
		return make([]byte, keyLen)
	}
	return func() { close(gate) }, running, peak
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestHasherBoundsConcurrency(t *testing.T) {
	const limit = 2
	h, _ := newCounting(t, cheap, limit)
	release, running, peak := blocking(h)
	var wg sync.WaitGroup
	for range 3 * limit {
		wg.Go(func() {
			if _, err := h.Hash(context.Background(), "password"); err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, func() bool { return running.Load() == limit })
	time.Sleep(20 * time.Millisecond) // give the others a chance to overrun
	release()
	wg.Wait()
	if got := peak.Load(); got != limit {
		t.Errorf("peak concurrent hashes = %d, want %d", got, limit)
	}
}

func TestHasherDefaultConcurrencyIsGOMAXPROCS(t *testing.T) {
	h, _ := newCounting(t, cheap, 0)
	if got, want := cap(h.sem), runtime.GOMAXPROCS(0); got != want {
		t.Errorf("default bound = %d, want GOMAXPROCS = %d", got, want)
	}
}

func TestHasherWaitEndsWithContext(t *testing.T) {
	h, _ := newCounting(t, cheap, 1)
	release, running, _ := blocking(h)
	defer release()
	go h.Hash(context.Background(), "holds the only slot")
	waitFor(t, func() bool { return running.Load() == 1 })

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Verify(ctx, "password", h.dummy) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Verify while waiting, context canceled: %v, want context.Canceled", err)
	}
	if _, err := h.Hash(ctx, "password"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hash with a canceled context: %v, want context.Canceled", err)
	}
	if err := h.DummyVerify(ctx, "password"); !errors.Is(err, context.Canceled) {
		t.Errorf("DummyVerify with a canceled context: %v, want context.Canceled", err)
	}
	if got := running.Load(); got != 1 {
		t.Errorf("%d hashes running, want only the first", got)
	}
}

func TestCanceledContextRunsNothing(t *testing.T) {
	h, c := newCounting(t, cheap, 1) // the slot is free
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With the slot free, a select between it and ctx.Done() picks at
	// random; repeat so that a missing up-front check shows.
	for range 32 {
		if _, err := h.Hash(ctx, "password"); !errors.Is(err, context.Canceled) {
			t.Fatalf("Hash = %v, want context.Canceled", err)
		}
	}
	if calls := c.take(); len(calls) != 0 {
		t.Errorf("canceled context ran argon2 %d times", len(calls))
	}
}

func FuzzDecode(f *testing.F) {
	f.Add("$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Add("$argon2id$v=19$m=4294967295,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
	f.Add("$argon2i$v=19$m=64,t=1,p=1$c29tZXNhbHQ$CTFh")
	f.Fuzz(func(t *testing.T, s string) {
		stored, err := decode(s)
		if err != nil {
			if !errors.Is(err, ErrMalformedHash) && !errors.Is(err, ErrUnsupportedHash) && !errors.Is(err, ErrParams) {
				t.Fatalf("decode(%q) = %v: not one of the typed errors", s, err)
			}
			return
		}
		// Whatever decodes is within bounds and is the canonical encoding.
		if err := stored.params.check(); err != nil {
			t.Fatalf("decode(%q) accepted out-of-bounds params: %v", s, err)
		}
		if got := encode(stored.params, stored.salt, stored.key); got != s {
			t.Fatalf("decode(%q) accepted a non-canonical string; canonical %q", s, got)
		}
	})
}
