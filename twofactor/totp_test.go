package twofactor

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"errors"
	"image/png"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
)

// rfcSecret returns the RFC 6238 Appendix B test key for alg in base32:
// the ASCII digits "1234567890" repeated to the hash's size.
func rfcSecret(size int) string {
	key := strings.Repeat("1234567890", 7)[:size]
	return base32.StdEncoding.EncodeToString([]byte(key))
}

// TestRFC6238Vectors checks every code of RFC 6238 Appendix B, for each
// hash, through Code and Verify.
func TestRFC6238Vectors(t *testing.T) {
	times := []int64{59, 1111111109, 1111111111, 1234567890, 2000000000, 20000000000}
	tests := []struct {
		alg    string
		secret string
		codes  []string
	}{
		{"SHA1", rfcSecret(20), []string{"94287082", "07081804", "14050471", "89005924", "69279037", "65353130"}},
		{"SHA256", rfcSecret(32), []string{"46119246", "68084774", "67062674", "91819424", "90698825", "77737706"}},
		{"SHA512", rfcSecret(64), []string{"90693936", "25091201", "99943326", "93441116", "38618901", "47863826"}},
	}
	for _, tt := range tests {
		c := TOTP{Digits: 8, Algorithm: tt.alg, Skew: -1}
		for i, unix := range times {
			now := time.Unix(unix, 0)
			code, err := c.Code(tt.secret, now)
			if err != nil || code != tt.codes[i] {
				t.Errorf("%s at %d: Code = %q, %v; want %q", tt.alg, unix, code, err, tt.codes[i])
			}
			step, err := c.Verify(tt.secret, tt.codes[i], 0, now)
			if err != nil || step != unix/30 {
				t.Errorf("%s at %d: Verify = %d, %v; want step %d", tt.alg, unix, step, err, unix/30)
			}
		}
	}
}

// TestVerifyWindow checks the edges of the window: a code for step S is
// good from the start of step S-Skew to the end of step S+Skew, and not a
// second outside.
func TestVerifyWindow(t *testing.T) {
	secret := rfcSecret(20)
	const s = 50_000_000 // a step
	start := time.Unix(s*30, 0)
	tests := []struct {
		skew int
		now  time.Duration // from the start of step s
		ok   bool
	}{
		{0, 0, true}, // the default skew is 1
		{0, -30 * time.Second, true},
		{0, -30*time.Second - time.Second, false},
		{0, 59 * time.Second, true},
		{0, 60 * time.Second, false},
		{-1, 0, true},
		{-1, 29 * time.Second, true},
		{-1, -time.Second, false},
		{-1, 30 * time.Second, false},
		{2, -60 * time.Second, true},
		{2, -61 * time.Second, false},
		{2, 89 * time.Second, true},
		{2, 90 * time.Second, false},
	}
	for _, tt := range tests {
		c := TOTP{Skew: tt.skew}
		code, err := c.Code(secret, start)
		if err != nil {
			t.Fatal(err)
		}
		step, err := c.Verify(secret, code, 0, start.Add(tt.now))
		switch {
		case tt.ok && (err != nil || step != s):
			t.Errorf("skew %d, %v from the code's step: Verify = %d, %v; want %d", tt.skew, tt.now, step, err, s)
		case !tt.ok && !errors.Is(err, ErrInvalidCode):
			t.Errorf("skew %d, %v from the code's step: Verify = %d, %v; want ErrInvalidCode", tt.skew, tt.now, step, err)
		}
	}
}

// TestVerifyReplay checks that a code, or one of an earlier step, is not
// accepted after a code of its step was, while the next step's is.
func TestVerifyReplay(t *testing.T) {
	c := TOTP{}
	secret := rfcSecret(20)
	now := time.Unix(1_700_000_000, 0)
	code := func(t0 time.Time) string {
		s, err := c.Code(secret, t0)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	step, err := c.Verify(secret, code(now), 0, now)
	if err != nil || step != now.Unix()/30 {
		t.Fatalf("first use: %d, %v", step, err)
	}
	if _, err := c.Verify(secret, code(now), step, now); !errors.Is(err, ErrReplayed) {
		t.Errorf("same code again: %v; want ErrReplayed", err)
	}
	if _, err := c.Verify(secret, code(now.Add(-30*time.Second)), step, now); !errors.Is(err, ErrReplayed) {
		t.Errorf("the previous step's code after this one's: %v; want ErrReplayed", err)
	}
	// A code from the next step, typed early, moves lastStep forward and
	// so retires the current step's code too.
	next, err := c.Verify(secret, code(now.Add(30*time.Second)), step, now)
	if err != nil || next != step+1 {
		t.Fatalf("next step's code: %d, %v", next, err)
	}
	if _, err := c.Verify(secret, code(now), next, now); !errors.Is(err, ErrReplayed) {
		t.Errorf("current code after the next one's: %v; want ErrReplayed", err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	c := TOTP{}
	secret := rfcSecret(20)
	now := time.Unix(1_700_000_000, 0)
	good, _ := c.Code(secret, now)
	for _, code := range []string{"", "12345", "1234567", "abcdef", "12345x", "-12345", good + "0"} {
		if _, err := c.Verify(secret, code, 0, now); !errors.Is(err, ErrInvalidCode) {
			t.Errorf("Verify(%q) = %v; want ErrInvalidCode", code, err)
		}
	}
	spaced := good[:3] + " " + good[3:]
	if _, err := c.Verify(secret, spaced, 0, now); err != nil {
		t.Errorf("Verify(%q) = %v; spaces should be ignored", spaced, err)
	}
}

func TestTOTPConfigRefused(t *testing.T) {
	for _, c := range []TOTP{
		{Digits: 5},
		{Digits: 9},
		{Period: 1500 * time.Millisecond},
		{Period: -30 * time.Second},
		{Algorithm: "MD5"},
	} {
		c.Issuer = "Example"
		if _, err := c.Enroll("alice"); err == nil {
			t.Errorf("Enroll with %+v: no error", c)
		}
		if _, err := c.Code(rfcSecret(20), time.Now()); err == nil {
			t.Errorf("Code with %+v: no error", c)
		}
		if _, err := c.Verify(rfcSecret(20), "123456", 0, time.Now()); err == nil || errors.Is(err, ErrInvalidCode) {
			t.Errorf("Verify with %+v: %v; want a configuration error", c, err)
		}
	}
}

func TestEnroll(t *testing.T) {
	c := TOTP{Issuer: "Example Co", Digits: 8, Period: 60 * time.Second}
	e, err := c.Enroll("alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(e.Secret)
	if err != nil || len(raw) != SecretSize {
		t.Errorf("secret %q: %d bytes, %v; want %d", e.Secret, len(raw), err, SecretSize)
	}
	u, err := url.Parse(e.URI)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Scheme != "otpauth" || u.Host != "totp" || u.Path != "/Example Co:alice@example.com" {
		t.Errorf("URI %q: want otpauth://totp/Example Co:alice@example.com", e.URI)
	}
	for k, want := range map[string]string{"secret": e.Secret, "issuer": "Example Co", "digits": "8", "period": "60", "algorithm": "SHA1"} {
		if q.Get(k) != want {
			t.Errorf("URI %s = %q; want %q", k, q.Get(k), want)
		}
	}
	// A code made from the URI's own parameters verifies.
	now := time.Now()
	code, err := c.Code(q.Get("secret"), now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Verify(e.Secret, code, 0, now); err != nil {
		t.Errorf("code for the enrolled secret: %v", err)
	}
	other, err := c.Enroll("alice@example.com")
	if err != nil || other.Secret == e.Secret {
		t.Errorf("a second enrolment has the same secret: %v", err)
	}
	if _, err := (TOTP{}).Enroll("alice"); err == nil {
		t.Error("Enroll without an Issuer: no error")
	}
	if _, err := c.Enroll(""); err == nil {
		t.Error("Enroll without an account name: no error")
	}
}

// TestEnrollQR checks that the QR code is a QRSize PNG of the URI: no
// decoder is at hand, so it is compared pixel by pixel with the URI
// encoded afresh.
func TestEnrollQR(t *testing.T) {
	e, err := TOTP{Issuer: "Example"}.Enroll("alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(e.QR, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("QR is not a PNG: % x", e.QR[:min(8, len(e.QR))])
	}
	img, err := png.Decode(bytes.NewReader(e.QR))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != QRSize || b.Dy() != QRSize {
		t.Fatalf("QR is %v; want %dx%d", b, QRSize, QRSize)
	}
	code, err := qr.Encode(e.URI, qr.M, qr.Auto)
	if err != nil {
		t.Fatal(err)
	}
	want, err := barcode.Scale(code, QRSize, QRSize)
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	for y := range QRSize {
		for x := range QRSize {
			g, _, _, _ := img.At(x, y).RGBA()
			w, _, _, _ := want.At(x, y).RGBA()
			if g != w {
				t.Fatalf("QR pixel (%d, %d) = %d; the URI's QR code has %d", x, y, g, w)
			}
			if g == 0 {
				dark++
			}
		}
	}
	if dark == 0 || dark == QRSize*QRSize {
		t.Errorf("QR has %d dark pixels of %d", dark, QRSize*QRSize)
	}
	const prefix = "data:image/png;base64,"
	d := e.QRDataURL()
	got, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(d, prefix))
	if !strings.HasPrefix(d, prefix) || err != nil || !bytes.Equal(got, e.QR) {
		t.Errorf("QRDataURL does not carry the PNG: %.40q, %v", d, err)
	}
}
