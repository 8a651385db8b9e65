package admincore_test

import (
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/internal/admincore"
)

func TestRoleValid(t *testing.T) {
	for r, want := range map[admincore.Role]bool{
		admincore.RoleUser: true, admincore.RoleAdmin: true,
		"": false, "Admin": false, "owner": false, "admin ": false,
	} {
		if r.Valid() != want {
			t.Errorf("Role(%q).Valid() = %v, want %v", r, !want, want)
		}
	}
}

func TestImpersonationAge(t *testing.T) {
	for name, tc := range map[string]struct {
		c    *admincore.Config
		want time.Duration
	}{
		"nil config": {nil, admincore.DefaultImpersonationMaxAge},
		"zero":       {&admincore.Config{}, admincore.DefaultImpersonationMaxAge},
		"negative":   {&admincore.Config{ImpersonationMaxAge: -time.Minute}, admincore.DefaultImpersonationMaxAge},
		"set":        {&admincore.Config{ImpersonationMaxAge: 10 * time.Minute}, 10 * time.Minute},
	} {
		if got := tc.c.ImpersonationAge(); got != tc.want {
			t.Errorf("%s: ImpersonationAge() = %v, want %v", name, got, tc.want)
		}
	}
}

func TestNamed(t *testing.T) {
	verified := time.Now()
	c := &admincore.Config{UserIDs: []string{"u1"}, Emails: []string{"Boss@Example.com"}}
	for name, tc := range map[string]struct {
		c    *admincore.Config
		u    adapter.User
		want bool
	}{
		"by id":                   {c, adapter.User{ID: "u1"}, true},
		"other id":                {c, adapter.User{ID: "u2"}, false},
		"by verified address":     {c, adapter.User{ID: "u2", Email: "boss@example.COM", EmailVerified: &verified}, true},
		"by unverified address":   {c, adapter.User{ID: "u2", Email: "boss@example.com"}, false},
		"other verified address":  {c, adapter.User{ID: "u2", Email: "bob@example.com", EmailVerified: &verified}, false},
		"empty address, verified": {&admincore.Config{Emails: []string{""}}, adapter.User{ID: "u2", EmailVerified: &verified}, false},
		"nil config":              {nil, adapter.User{ID: "u1"}, false},
		"zero config":             {&admincore.Config{}, adapter.User{ID: "u1", Email: "boss@example.com", EmailVerified: &verified}, false},
	} {
		if got := tc.c.Named(tc.u); got != tc.want {
			t.Errorf("%s: Named = %v, want %v", name, got, tc.want)
		}
	}
}

func TestLimit(t *testing.T) {
	custom := &admincore.Config{PageSize: 10, MaxPageSize: 20}
	for name, tc := range map[string]struct {
		c       *admincore.Config
		n, want int
	}{
		"nil, not said":       {nil, 0, admincore.DefaultPageSize},
		"nil, asked":          {nil, 7, 7},
		"nil, over the max":   {nil, admincore.MaxPageSize + 1, admincore.MaxPageSize},
		"nil, negative":       {nil, -3, admincore.DefaultPageSize},
		"custom, not said":    {custom, 0, 10},
		"custom, at the max":  {custom, 20, 20},
		"custom, over":        {custom, 21, 20},
		"custom, under":       {custom, 1, 1},
		"default over max":    {&admincore.Config{PageSize: 30, MaxPageSize: 20}, 0, 20},
		"only max, not said":  {&admincore.Config{MaxPageSize: 5}, 0, 5},
		"only size, over max": {&admincore.Config{PageSize: 5}, 1000, admincore.MaxPageSize},
	} {
		if got := tc.c.Limit(tc.n); got != tc.want {
			t.Errorf("%s: Limit(%d) = %d, want %d", name, tc.n, got, tc.want)
		}
	}
}

func TestBanActive(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	for name, tc := range map[string]struct {
		b    *admincore.Ban
		want bool
	}{
		"no ban":            {nil, false},
		"forever":           {&admincore.Ban{}, true},
		"expires later":     {&admincore.Ban{Expires: now.Add(time.Nanosecond)}, true},
		"expires right now": {&admincore.Ban{Expires: now}, false},
		"expired":           {&admincore.Ban{Expires: now.Add(-time.Second)}, false},
	} {
		if got := tc.b.Active(now); got != tc.want {
			t.Errorf("%s: Active = %v, want %v", name, got, tc.want)
		}
	}
}

func TestStatusRefuses(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	revoked := now.Add(-time.Hour)
	for name, tc := range map[string]struct {
		s        admincore.Status
		signedIn time.Time
		want     bool
	}{
		"nothing":                         {admincore.Status{}, now.Add(-time.Hour), false},
		"nothing, no sign-in time":        {admincore.Status{}, time.Time{}, false},
		"signed in before the revocation": {admincore.Status{RevokedBefore: revoked}, revoked.Add(-time.Microsecond), true},
		"signed in at the revocation":     {admincore.Status{RevokedBefore: revoked}, revoked, false},
		"signed in after the revocation":  {admincore.Status{RevokedBefore: revoked}, revoked.Add(time.Microsecond), false},
		"revocation, no sign-in time":     {admincore.Status{RevokedBefore: revoked}, time.Time{}, true},
		"banned for ever":                 {admincore.Status{Ban: &admincore.Ban{}}, now, true},
		"banned, signed in after the ban": {admincore.Status{Ban: &admincore.Ban{Expires: now.Add(time.Minute)}, RevokedBefore: revoked}, now, true},
		"ban expired":                     {admincore.Status{Ban: &admincore.Ban{Expires: now}, RevokedBefore: revoked}, now.Add(-time.Minute), false},
		"ban expired, signed in before":   {admincore.Status{Ban: &admincore.Ban{Expires: now}, RevokedBefore: revoked}, revoked.Add(-time.Second), true},
	} {
		if got := tc.s.Refuses(tc.signedIn, now); got != tc.want {
			t.Errorf("%s: Refuses = %v, want %v", name, got, tc.want)
		}
	}
}

// TestRevocationTime: rounded up to the microsecond, in UTC, without a
// monotonic reading; a whole microsecond is kept as it is.
func TestRevocationTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	base := time.Date(2026, 1, 2, 3, 4, 5, 7000, paris)
	for name, tc := range map[string]struct {
		in, want time.Time
	}{
		"whole microsecond": {base, base.UTC()},
		"one nanosecond in": {base.Add(time.Nanosecond), base.Add(time.Microsecond).UTC()},
		"just below next":   {base.Add(999 * time.Nanosecond), base.Add(time.Microsecond).UTC()},
		"zero":              {time.Time{}, time.Time{}},
	} {
		got := admincore.RevocationTime(tc.in)
		if !got.Equal(tc.want) || got.Location() != time.UTC || got != got.Round(0) {
			t.Errorf("%s: RevocationTime(%v) = %v, want %v in UTC", name, tc.in, got, tc.want)
		}
		if got.Before(tc.in) {
			t.Errorf("%s: RevocationTime(%v) = %v, before its argument", name, tc.in, got)
		}
	}
	// A session signed in during the microsecond of a revocation (sign-in
	// times are kept to the microsecond) is refused with it.
	at := base.Add(500 * time.Nanosecond)
	s := admincore.Status{RevokedBefore: admincore.RevocationTime(at)}
	if !s.Refuses(at.Truncate(time.Microsecond), at) {
		t.Error("a session signed in during the revocation's microsecond is not refused")
	}
	if s.Refuses(admincore.RevocationTime(at), at) {
		t.Error("a session signed in the next microsecond is refused")
	}
	if now := time.Now(); admincore.RevocationTime(now) != admincore.RevocationTime(now).Round(0) {
		t.Error("a monotonic clock reading is kept")
	}
}
