package stored_test

import (
	"encoding/hex"
	"maps"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for range 10000 {
		id, err := stored.NewID()
		if err != nil {
			t.Fatal(err)
		}
		if b, err := hex.DecodeString(id); err != nil || len(b) != 16 || strings.ToLower(id) != id {
			t.Fatalf("NewID() = %q: not 16 bytes in lower-case hex", id)
		}
		if seen[id] {
			t.Fatalf("NewID() repeated %q", id)
		}
		seen[id] = true
	}
}

func TestPrepareUser(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	verified := time.Date(2026, 1, 2, 3, 4, 5, 6007, paris)
	in := adapter.User{Email: "a@example.com", Name: "Ada", EmailVerified: &verified}
	u, err := stored.PrepareUser(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.ID) != 32 || u.Email != in.Email || u.Name != in.Name {
		t.Errorf("PrepareUser = %+v; want a new id and the rest kept", u)
	}
	want := time.Date(2026, 1, 2, 2, 4, 5, 6000, time.UTC)
	if u.EmailVerified == &verified || *u.EmailVerified != want {
		t.Errorf("EmailVerified = %v; want a new pointer to %v", u.EmailVerified, want)
	}
	if verified.Location() != paris || verified.Nanosecond() != 6007 {
		t.Error("PrepareUser changed the caller's time")
	}

	u, err = stored.PrepareUser(adapter.User{ID: "given"})
	if err != nil || u.ID != "given" || u.EmailVerified != nil {
		t.Errorf("PrepareUser with an id = %+v, %v; want the id kept, no verification time", u, err)
	}
}

func TestTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	for name, tc := range map[string]struct{ in, want time.Time }{
		"truncated, not rounded": {time.Date(2026, 1, 2, 3, 4, 5, 999999, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 999000, time.UTC)},
		"whole microsecond":      {time.Date(2026, 1, 2, 3, 4, 5, 1000, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 1000, time.UTC)},
		"to UTC":                 {time.Date(2026, 1, 2, 3, 0, 0, 0, paris), time.Date(2026, 1, 2, 2, 0, 0, 0, time.UTC)},
		"zero":                   {time.Time{}, time.Time{}},
	} {
		if got := stored.Time(tc.in); got != tc.want {
			t.Errorf("%s: Time(%v) = %v, want %v", name, tc.in, got, tc.want)
		}
	}
	now := time.Now()
	if got := stored.Time(now); got != got.Round(0) || got.Location() != time.UTC || !got.Equal(now.Truncate(time.Microsecond)) {
		t.Errorf("Time(now) = %v; want it to the microsecond, in UTC, without a monotonic reading", got)
	}
	if stored.TimePtr(nil) != nil {
		t.Error("TimePtr(nil) is not nil")
	}
	if p := stored.TimePtr(&now); p == &now || *p != stored.Time(now) {
		t.Errorf("TimePtr = %v; want a new pointer to Time(now)", p)
	}
}

func TestExtra(t *testing.T) {
	extra := map[string]any{"tenant": "acme", "n": 3.0, "nested": map[string]any{"ok": true}}
	b, err := stored.EncodeExtra(extra)
	if err != nil {
		t.Fatal(err)
	}
	got, err := stored.DecodeExtra(b)
	if err != nil || len(got) != len(extra) || got["tenant"] != "acme" || got["n"] != 3.0 || got["nested"].(map[string]any)["ok"] != true {
		t.Errorf("DecodeExtra(EncodeExtra(%v)) = %v, %v", extra, got, err)
	}
	for _, empty := range []map[string]any{nil, {}} {
		if b, err := stored.EncodeExtra(empty); b != nil || err != nil {
			t.Errorf("EncodeExtra(%v) = %q, %v; want nil", empty, b, err)
		}
	}
	for _, in := range []string{"null", "{}"} {
		if got, err := stored.DecodeExtra([]byte(in)); got != nil || err != nil {
			t.Errorf("DecodeExtra(%s) = %v, %v; want nil", in, got, err)
		}
	}
	if _, err := stored.EncodeExtra(map[string]any{"f": func() {}}); err == nil {
		t.Error("EncodeExtra of a function succeeded")
	}
	for _, bad := range []string{"", "{", "[1]", `"s"`, "1", `{"a":}`} {
		if got, err := stored.DecodeExtra([]byte(bad)); err == nil {
			t.Errorf("DecodeExtra(%q) = %v; want an error", bad, got)
		}
	}
}

func TestMigrations(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/0010_ten.sql":  {Data: []byte("ten")},
		"migrations/0002_two.sql":  {Data: []byte("two")},
		"migrations/0001_init.sql": {Data: []byte("one")},
		"migrations/README":        {Data: []byte("not a migration")},
		"other/0003_skip.sql":      {Data: []byte("elsewhere")},
	}
	list, err := stored.Migrations(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []stored.Migration{{1, "0001_init.sql", "one"}, {2, "0002_two.sql", "two"}, {10, "0010_ten.sql", "ten"}}
	if len(list) != len(want) {
		t.Fatalf("Migrations = %+v, want %+v", list, want)
	}
	for i := range want {
		if list[i] != want[i] {
			t.Errorf("Migrations[%d] = %+v, want %+v", i, list[i], want[i])
		}
	}
	if list, err := stored.Migrations(fstest.MapFS{}); err != nil || len(list) != 0 {
		t.Errorf("Migrations of nothing = %v, %v", list, err)
	}

	for _, bad := range []string{"init.sql", "x001_init.sql", "0000_zero.sql", "-001_neg.sql", "_init.sql", "0001.sql"} {
		fsys := maps.Clone(fsys)
		fsys["migrations/"+bad] = &fstest.MapFile{Data: []byte("bad")}
		if list, err := stored.Migrations(fsys); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("Migrations with %s = %v, %v; want an error naming it", bad, list, err)
		}
	}
	fsys["migrations/02_two_again.sql"] = &fstest.MapFile{Data: []byte("again")}
	if list, err := stored.Migrations(fsys); err == nil || !strings.Contains(err.Error(), "02_two_again.sql") {
		t.Errorf("Migrations with two of version 2 = %v, %v; want an error", list, err)
	}
}

func TestLowerASCII(t *testing.T) {
	for in, want := range map[string]string{
		"":                "",
		"ADA@Example.COM": "ada@example.com",
		"azAZ@[`{09":      "azaz@[`{09",
		"ÉCOLE Ärger":     "École Ärger",
		"İSTANBUL":        "İstanbul",
		"ΣΊΣΥΦΟΣ":         "ΣΊΣΥΦΟΣ",
	} {
		if got := stored.LowerASCII(in); got != want {
			t.Errorf("LowerASCII(%q) = %q, want %q", in, got, want)
		}
	}
}
