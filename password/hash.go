package password

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"
)

// Params are the argon2id parameters of a hash.
type Params struct {
	Memory  uint32 // memory in KiB (the PHC "m")
	Time    uint32 // number of passes over the memory (the PHC "t")
	Threads uint8  // degree of parallelism (the PHC "p")
	SaltLen uint32 // salt length in bytes
	KeyLen  uint32 // hash length in bytes
}

// DefaultParams is the argon2id configuration the OWASP Password Storage
// Cheat Sheet gives as its minimum: 19 MiB of memory (19456 KiB), two
// passes and one lane, with a 16-byte salt and a 32-byte hash.
//
// OWASP lists several configurations of equal strength that trade memory
// for passes (46 MiB with t=1 down to 7 MiB with t=5). This package takes
// the 19 MiB one: it costs tens of milliseconds on one core, which a
// person signing in does not notice, and it keeps the memory a server
// must hold per concurrent sign-in small. The higher RFC 9106 profiles
// (64 MiB and more) multiply that memory for every sign-in in flight,
// which on a small shared server trades a cracking cost for a denial of
// service. One lane (p=1) keeps each hash on one core, so the
// [Hasher]'s concurrency bound is also a bound on the cores it uses.
// Raise Memory or Time if your hardware allows; stored hashes are
// upgraded as users sign in (see [Hasher.NeedsRehash]).
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Bounds on the parameters a [Hasher] is configured with or finds in a
// stored hash. They are far above any sensible configuration and exist so
// that a tampered or corrupt row cannot make a sign-in allocate gigabytes
// or loop for hours.
const (
	MaxMemory  = 256 * 1024 // KiB: 256 MiB per hash
	MaxTime    = 16
	MaxThreads = 16
	MinSaltLen = 8
	MaxSaltLen = 64
	MinKeyLen  = 16
	MaxKeyLen  = 64
)

// MaxBytes is the longest password, in bytes before normalisation, that
// the package accepts. Longer input is refused with [ErrTooLong] before
// any work is done on it. It is far above [Policy]'s default of 128
// characters (at most 512 bytes in UTF-8).
const MaxBytes = 4096

// maxEncodedLen bounds the length of a stored hash before it is parsed.
// The longest valid string is about 230 bytes.
const maxEncodedLen = 512

// Errors returned by [Hasher.Verify] and [NewHasher]. Errors about a
// stored hash wrap one of ErrMalformedHash, ErrUnsupportedHash or
// ErrParams; test them with [errors.Is].
var (
	// ErrMismatch means the password does not match the stored hash.
	ErrMismatch = errors.New("password: wrong password")
	// ErrMalformedHash means the stored string is not a PHC string.
	ErrMalformedHash = errors.New("password: malformed hash")
	// ErrUnsupportedHash means the stored string is a PHC string for
	// another algorithm or another argon2 version than argon2id v=19.
	ErrUnsupportedHash = errors.New("password: unsupported hash")
	// ErrParams means argon2id parameters are outside the package's
	// bounds (see MaxMemory and the constants next to it).
	ErrParams = errors.New("password: argon2id parameters out of bounds")
)

// check reports whether p is within the package's bounds.
func (p Params) check() error {
	switch {
	case p.Threads < 1 || p.Threads > MaxThreads:
		return fmt.Errorf("%w: p=%d, want 1 to %d", ErrParams, p.Threads, MaxThreads)
	case p.Memory < 8*uint32(p.Threads) || p.Memory > MaxMemory:
		return fmt.Errorf("%w: m=%d KiB, want %d to %d", ErrParams, p.Memory, 8*uint32(p.Threads), MaxMemory)
	case p.Time < 1 || p.Time > MaxTime:
		return fmt.Errorf("%w: t=%d, want 1 to %d", ErrParams, p.Time, MaxTime)
	case p.SaltLen < MinSaltLen || p.SaltLen > MaxSaltLen:
		return fmt.Errorf("%w: salt of %d bytes, want %d to %d", ErrParams, p.SaltLen, MinSaltLen, MaxSaltLen)
	case p.KeyLen < MinKeyLen || p.KeyLen > MaxKeyLen:
		return fmt.Errorf("%w: hash of %d bytes, want %d to %d", ErrParams, p.KeyLen, MinKeyLen, MaxKeyLen)
	}
	return nil
}

// A Hasher hashes and verifies passwords with argon2id. It lets at most a
// fixed number of hashes run at once; the others wait for a slot or for
// their context to end. A Hasher is safe for concurrent use.
type Hasher struct {
	params Params
	sem    chan struct{}
	dummy  string // a valid hash with params that no password matches

	// derive is argon2.IDKey; tests replace it to count calls.
	derive func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte
}

// NewHasher returns a Hasher that hashes with p and runs at most
// maxConcurrent hashes at once. The zero Params means [DefaultParams];
// maxConcurrent <= 0 means runtime.GOMAXPROCS(0). Parameters outside the
// package's bounds are refused with an error wrapping [ErrParams].
func NewHasher(p Params, maxConcurrent int) (*Hasher, error) {
	if p == (Params{}) {
		p = DefaultParams
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if maxConcurrent <= 0 {
		maxConcurrent = runtime.GOMAXPROCS(0)
	}
	return &Hasher{
		params: p,
		sem:    make(chan struct{}, maxConcurrent),
		dummy:  encode(p, randomBytes(p.SaltLen), randomBytes(p.KeyLen)),
		derive: argon2.IDKey,
	}, nil
}

// Params returns the parameters h hashes with.
func (h *Hasher) Params() Params { return h.params }

// Hash returns the PHC string of password with a fresh random salt. The
// password is normalised to NFKC first. Hash does not apply a [Policy]:
// check the password before hashing it at sign-up.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if len(password) > MaxBytes {
		return "", errTooLongBytes
	}
	salt := randomBytes(h.params.SaltLen)
	key, err := h.run(ctx, password, salt, h.params)
	if err != nil {
		return "", err
	}
	return encode(h.params, salt, key), nil
}

// Verify reports whether password matches the PHC string encoded: nil if
// it does, [ErrMismatch] if it does not. A stored string that cannot be
// used is refused without hashing, with an error wrapping
// [ErrMalformedHash], [ErrUnsupportedHash] or [ErrParams]. Verify also
// returns the context's error if ctx ends while waiting for a slot, and
// [ErrTooLong] for input over [MaxBytes].
//
// The hash is computed with the stored parameters, so hashes made before
// a change of parameters keep working.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) error {
	if len(password) > MaxBytes {
		return errTooLongBytes
	}
	stored, err := decode(encoded)
	if err != nil {
		return err
	}
	key, err := h.run(ctx, password, stored.salt, stored.params)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare(key, stored.key) != 1 {
		return ErrMismatch
	}
	return nil
}

// DummyVerify does the work of [Hasher.Verify] with h's parameters
// against a hash that no password matches, and returns [ErrMismatch] (or
// the context's error, or [ErrTooLong], as Verify would). Call it when a
// sign-in names an account that does not exist, so that the answer takes
// as long as for a wrong password.
//
// The costs are equal for accounts whose hash uses h's parameters; a hash
// stored with other parameters costs what those parameters cost until it
// is rehashed.
func (h *Hasher) DummyVerify(ctx context.Context, password string) error {
	err := h.Verify(ctx, password, h.dummy)
	if err == nil {
		err = ErrMismatch // unreachable: no password matches a random key
	}
	return err
}

// NeedsRehash reports whether encoded was made with parameters (including
// the salt and hash lengths) other than h's, or cannot be decoded. Call it
// after a successful [Hasher.Verify] and store a fresh [Hasher.Hash] of
// the password if it reports true.
func (h *Hasher) NeedsRehash(encoded string) bool {
	stored, err := decode(encoded)
	return err != nil || stored.params != h.params
}

// run computes the argon2id key of the NFKC form of password once a
// concurrency slot is free.
func (h *Hasher) run(ctx context.Context, password string, salt []byte, p Params) ([]byte, error) {
	pw := norm.NFKC.Bytes([]byte(password))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-h.sem }()
	return h.derive(pw, salt, p.Time, p.Memory, p.Threads, p.KeyLen), nil
}

func randomBytes(n uint32) []byte {
	b := make([]byte, n)
	rand.Read(b) // never fails; see crypto/rand.Read
	return b
}

// b64 is the PHC string format's base64: standard alphabet, no padding.
var b64 = base64.RawStdEncoding

func encode(p Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// phc is a decoded argon2id PHC string.
type phc struct {
	params Params
	salt   []byte
	key    []byte
}

// decode parses an argon2id PHC string strictly: the exact field order
// encode writes, canonical decimal numbers, canonical unpadded base64, and
// parameters within the package's bounds.
func decode(s string) (phc, error) {
	if len(s) > maxEncodedLen {
		return phc{}, fmt.Errorf("%w: longer than %d bytes", ErrMalformedHash, maxEncodedLen)
	}
	fields := strings.Split(s, "$")
	if len(fields) != 6 || fields[0] != "" {
		return phc{}, fmt.Errorf("%w: want $argon2id$v=19$m=,t=,p=$salt$hash", ErrMalformedHash)
	}
	if fields[1] != "argon2id" {
		return phc{}, fmt.Errorf("%w: not argon2id", ErrUnsupportedHash)
	}
	if fields[2] != "v="+strconv.Itoa(argon2.Version) {
		return phc{}, fmt.Errorf("%w: argon2 version other than %d", ErrUnsupportedHash, argon2.Version)
	}
	var h phc
	var err error
	if h.params, err = decodeParams(fields[3]); err != nil {
		return phc{}, err
	}
	if h.salt, err = decodeBase64(fields[4], "salt"); err != nil {
		return phc{}, err
	}
	if h.key, err = decodeBase64(fields[5], "hash"); err != nil {
		return phc{}, err
	}
	h.params.SaltLen = uint32(len(h.salt))
	h.params.KeyLen = uint32(len(h.key))
	if err := h.params.check(); err != nil {
		return phc{}, err
	}
	return h, nil
}

// decodeParams parses "m=<uint>,t=<uint>,p=<uint>", refusing values above
// the package's bounds before they are converted.
func decodeParams(s string) (Params, error) {
	var p Params
	fields := strings.Split(s, ",")
	want := []struct {
		name string
		max  uint64
		dst  func(uint64)
	}{
		{"m", MaxMemory, func(v uint64) { p.Memory = uint32(v) }},
		{"t", MaxTime, func(v uint64) { p.Time = uint32(v) }},
		{"p", MaxThreads, func(v uint64) { p.Threads = uint8(v) }},
	}
	if len(fields) != len(want) {
		return Params{}, fmt.Errorf("%w: want m=,t=,p=", ErrMalformedHash)
	}
	for i, w := range want {
		value, ok := strings.CutPrefix(fields[i], w.name+"=")
		if !ok || !isCanonicalDecimal(value) {
			return Params{}, fmt.Errorf("%w: want m=,t=,p= in decimal", ErrMalformedHash)
		}
		v, err := strconv.ParseUint(value, 10, 64)
		if err != nil || v > w.max {
			return Params{}, fmt.Errorf("%w: %s=%s, the limit is %d", ErrParams, w.name, value, w.max)
		}
		w.dst(v)
	}
	return p, nil
}

// isCanonicalDecimal reports whether s is a decimal number of at most 10
// digits without sign or leading zeros, as the PHC string format asks.
func isCanonicalDecimal(s string) bool {
	if s == "" || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// decodeBase64 decodes unpadded standard base64 and refuses any other
// spelling of the same bytes (the decoder alone skips newlines and
// ignores stray trailing bits).
func decodeBase64(s, field string) ([]byte, error) {
	b, err := b64.DecodeString(s)
	if err != nil || b64.EncodeToString(b) != s {
		return nil, fmt.Errorf("%w: %s is not unpadded base64", ErrMalformedHash, field)
	}
	return b, nil
}
