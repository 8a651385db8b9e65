// Package sqltest holds the tests the SQLite and PostgreSQL adapters run
// alike on their migrations, and the benchmark of their read on every
// request. Each adapter's tests say how to make its databases.
package sqltest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
)

// Migrations returns the migrations of s in version order, or fails the
// test.
func Migrations(tb testing.TB, d sqlstore.Dialect, s sqlstore.Schema) []stored.Migration {
	tb.Helper()
	list, err := d.Migrations(s)
	if err != nil {
		tb.Fatal(err)
	}
	return list
}

// Reporter is an adapter whose Migrate can report what it applied.
type Reporter interface {
	adapter.Migrator
	MigrateReport(ctx context.Context) ([]string, error)
}

// Databases makes the databases (a file, a schema) of TestMigrateReport,
// each new and removed at the end of the test.
type Databases[R Reporter] struct {
	// New returns an adapter on a new, empty database.
	New func(t *testing.T) R
	// Behind returns an adapter on a new database in the state an older
	// release left: every migration but the last applied and recorded.
	Behind func(t *testing.T) R
	// Shared returns a function that opens another adapter, as another
	// process would, on one new database.
	Shared func(t *testing.T) func() R
}

// MigrateReport checks that MigrateReport names what it applied: every
// migration of list (the adapter's, in order) on a new database, only the
// missing one on a database one version behind, nothing on an up-to-date
// one; and that concurrent migrators together report each migration
// exactly once.
func MigrateReport[R Reporter](t *testing.T, list []stored.Migration, dbs Databases[R]) {
	ctx := t.Context()
	var names []string
	for _, m := range list {
		names = append(names, m.Name)
	}
	t.Run("new, then up to date", func(t *testing.T) {
		a := dbs.New(t)
		got, err := a.MigrateReport(ctx)
		if err != nil || !slices.Equal(got, names) {
			t.Fatalf("MigrateReport on a new database = %q, %v; want %q", got, err, names)
		}
		got, err = a.MigrateReport(ctx)
		if err != nil || len(got) != 0 {
			t.Errorf("MigrateReport again = %q, %v; want nothing applied", got, err)
		}
	})

	t.Run("one version behind", func(t *testing.T) {
		got, err := dbs.Behind(t).MigrateReport(ctx)
		if want := names[len(names)-1:]; err != nil || !slices.Equal(got, want) {
			t.Errorf("MigrateReport one version behind = %q, %v; want %q", got, err, want)
		}
	})

	t.Run("concurrent", func(t *testing.T) {
		open := dbs.Shared(t)
		const n = 4
		reports := make([][]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			a := open()
			wg.Add(1)
			go func() {
				defer wg.Done()
				reports[i], errs[i] = a.MigrateReport(ctx)
			}()
		}
		wg.Wait()
		var all []string
		for i := range n {
			if errs[i] != nil {
				t.Errorf("MigrateReport %d: %v", i, errs[i])
			}
			all = append(all, reports[i]...)
		}
		slices.Sort(all)
		if !slices.Equal(all, names) {
			t.Errorf("concurrent migrators reported %q together, want each of %q once", all, names)
		}
	})
}

// MigrateConcurrently has adapters, as if of several processes on one
// database, migrate it at once; then again, as at every start. It fails
// t for every error.
func MigrateConcurrently[M adapter.Migrator](t *testing.T, adapters []M) {
	t.Helper()
	for round := range 2 {
		errs := make([]error, len(adapters))
		var wg sync.WaitGroup
		for i, a := range adapters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = a.Migrate(t.Context())
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d: Migrate %d: %v", round, i, err)
			}
		}
	}
}

// BenchmarkGetSessionAndUser measures GetSessionAndUser of a, an adapter
// on a migrated, empty database, for a session of a user with every
// field set.
func BenchmarkGetSessionAndUser(b *testing.B, a adapter.Adapter) {
	ctx := b.Context()
	verified := time.Now()
	u, err := a.CreateUser(ctx, adapter.User{Name: "Ada", Email: "ada@example.com", EmailVerified: &verified, Image: "https://example.com/a.png"})
	if err != nil {
		b.Fatal(err)
	}
	token := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	if _, err := a.CreateSession(ctx, adapter.Session{Token: token, UserID: u.ID, Expires: time.Now().Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := a.GetSessionAndUser(ctx, token); err != nil {
			b.Fatal(err)
		}
	}
}

// SessionBeforeMetadata checks a session written before the adapter kept
// CreatedAt, UpdatedAt and UserAgent (NULL times, an empty user agent), on a
// database migrated since: it is read, listed with those zero, updated
// (UpdatedAt set) and deleted like any other.
func SessionBeforeMetadata(t *testing.T, a adapter.Adapter, userID, token string, expires time.Time) {
	t.Helper()
	ctx := t.Context()
	s, u, err := a.GetSessionAndUser(ctx, token)
	if err != nil || u.ID != userID || !s.Expires.Equal(expires) {
		t.Fatalf("GetSessionAndUser = %+v, %+v, %v; want the session of %q", s, u, err, userID)
	}
	list, err := a.(adapter.SessionLister).ListSessions(ctx, userID)
	if err != nil || len(list) != 1 {
		t.Fatalf("ListSessions = %+v, %v; want one session", list, err)
	}
	if l := list[0]; l.Token != token || !l.CreatedAt.IsZero() || !l.UpdatedAt.IsZero() || l.UserAgent != "" {
		t.Errorf("listed %+v; want no creation or update time, no user agent", l)
	}
	before := time.Now().Add(-time.Second)
	s, err = a.UpdateSession(ctx, token, expires.Add(time.Hour))
	if err != nil || s.UpdatedAt.Before(before) || !s.CreatedAt.IsZero() {
		t.Errorf("UpdateSession = %+v, %v; want UpdatedAt now, CreatedAt still unknown", s, err)
	}
	if _, err := a.DeleteSession(ctx, token); err != nil {
		t.Errorf("DeleteSession: %v", err)
	}
}
