package password

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestPolicyLength(t *testing.T) {
	check := func(pw string) error { return Policy{}.Check(context.Background(), pw) }
	checkCases(t, "Check", check, []passwordCase{
		{"7 ASCII", "abcdefg", ErrTooShort},
		{"8 ASCII", "abcdefgh", nil},
		{"128 ASCII", strings.Repeat("a", 128), nil},
		{"129 ASCII", strings.Repeat("a", 129), ErrTooLong},
		{"7 two-byte", strings.Repeat("é", 7), ErrTooShort},
		{"8 two-byte (16 bytes)", strings.Repeat("é", 8), nil},
		{"7 three-byte (21 bytes)", strings.Repeat("€", 7), ErrTooShort},
		{"128 four-byte (512 bytes)", strings.Repeat("😀", 128), nil},
		{"129 four-byte", strings.Repeat("😀", 129), ErrTooLong},
		{"8 decomposed é (16 code points, 8 after NFKC)", strings.Repeat("e\u0301", 8), nil},
		{"128 decomposed é (256 code points, 128 after NFKC)", strings.Repeat("e\u0301", 128), nil},
		{"129 decomposed é", strings.Repeat("e\u0301", 129), ErrTooLong},
		{"4 fi ligatures (8 after NFKC)", strings.Repeat("ﬁ", 4), nil},
		{"7 from ligatures (ﬁﬁﬁ + x)", "ﬁﬁﬁx", ErrTooShort},
		{"65 ligatures (130 after NFKC)", strings.Repeat("ﬁ", 65), ErrTooLong},
		{"spaces count", "        ", nil},
		{"no composition rules", "aaaaaaaa", nil},
		{"empty", "", ErrTooShort},
		{"over MaxBytes", strings.Repeat("a", MaxBytes+1), ErrTooLong},
	})
}

func TestPolicyCustomLength(t *testing.T) {
	p := Policy{MinLength: 15, MaxLength: 64}
	check := func(pw string) error { return p.Check(context.Background(), pw) }
	checkCases(t, "Check", check, []passwordCase{
		{"14", strings.Repeat("a", 14), ErrTooShort},
		{"15", strings.Repeat("a", 15), nil},
		{"64", strings.Repeat("ü", 64), nil},
		{"65", strings.Repeat("ü", 65), ErrTooLong},
	})
	// The errors name the limit.
	for pw, limit := range map[string]string{"short": "15", strings.Repeat("a", 65): "64"} {
		if err := check(pw); err == nil || !strings.Contains(err.Error(), limit) {
			t.Errorf("error %v does not name the limit %s", err, limit)
		}
	}
}

func TestPolicyErrorsNeverContainThePassword(t *testing.T) {
	secret := "hunter2"
	long := strings.Repeat(secret, 20)
	p := Policy{Breached: func(context.Context, string) (bool, error) { return true, nil }}
	for _, pw := range []string{secret, long, secret + "-long-enough"} {
		err := p.Check(context.Background(), pw)
		if err == nil {
			t.Fatalf("Check(%q) = nil", pw)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error %q contains the password", err)
		}
	}
}

type ctxKey struct{}

func TestPolicyBreached(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "marker")
	var seen []string
	hookErr := errors.New("service down")
	p := Policy{Breached: func(c context.Context, pw string) (bool, error) {
		if c != ctx {
			t.Error("hook did not get Check's context")
		}
		seen = append(seen, pw)
		switch pw {
		case "password1":
			return true, nil
		case "unreachable":
			return false, hookErr
		}
		return false, nil
	}}
	if err := p.Check(ctx, "password1"); !errors.Is(err, ErrBreached) {
		t.Errorf("breached: Check = %v, want ErrBreached", err)
	}
	if err := p.Check(ctx, "unreachable"); !errors.Is(err, hookErr) || errors.Is(err, ErrBreached) {
		t.Errorf("hook error: Check = %v, want the hook's error", err)
	}
	if err := p.Check(ctx, "a fine passphrase"); err != nil {
		t.Errorf("not breached: Check = %v", err)
	}
	if err := p.Check(ctx, "ﬁne pass"); err != nil {
		t.Errorf("not breached: Check = %v", err)
	}
	if err := p.Check(ctx, "short"); !errors.Is(err, ErrTooShort) {
		t.Errorf("short: Check = %v, want ErrTooShort", err)
	}
	want := []string{"password1", "unreachable", "a fine passphrase", "fine pass"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("hook saw %q, want %q (NFKC forms, and not the too-short one)", seen, want)
	}
}
