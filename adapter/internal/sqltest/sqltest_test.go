package sqltest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqlstore"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/sqltest"
	"github.com/gatehouse-auth/gatehouse/adapter/internal/stored"
	"github.com/gatehouse-auth/gatehouse/adapter/memory"
)

// database is a fake database's record of the migrations applied.
type database struct {
	mu      sync.Mutex
	applied int
}

// migrator is a fake adapter on a database: MigrateReport applies the
// migrations the database lacks, each once, as the SQL adapters do. A
// broken one reports every migration every time.
type migrator struct {
	adapter.Migrator
	db     *database
	names  []string
	broken bool
}

func (m migrator) MigrateReport(context.Context) ([]string, error) {
	if m.broken {
		return slices.Clone(m.names), nil
	}
	m.db.mu.Lock()
	defer m.db.mu.Unlock()
	out := slices.Clone(m.names[m.db.applied:])
	m.db.applied = len(m.names)
	return out, nil
}

func (m migrator) Migrate(ctx context.Context) error {
	if m.broken {
		return errors.New("broken migrator")
	}
	_, err := m.MigrateReport(ctx)
	return err
}

var list = []stored.Migration{{Version: 1, Name: "0001_a.sql"}, {Version: 2, Name: "0002_b.sql"}, {Version: 3, Name: "0003_c.sql"}}

// fakes returns Databases of fake migrators.
func fakes(broken bool) sqltest.Databases[migrator] {
	var names []string
	for _, m := range list {
		names = append(names, m.Name)
	}
	on := func(applied int) migrator {
		return migrator{db: &database{applied: applied}, names: names, broken: broken}
	}
	return sqltest.Databases[migrator]{
		New:    func(*testing.T) migrator { return on(0) },
		Behind: func(*testing.T) migrator { return on(len(names) - 1) },
		Shared: func(*testing.T) func() migrator {
			shared := on(0)
			return func() migrator { return shared }
		},
	}
}

// brokenEnv, set in a child process of TestFailsBrokenAdapters, has
// TestBrokenAdapter run the checks on broken fakes.
const brokenEnv = "GATEHOUSE_SQLTEST_BROKEN"

func TestMigrateReport(t *testing.T) {
	sqltest.MigrateReport(t, list, fakes(false))
}

func TestMigrateConcurrently(t *testing.T) {
	db := &database{}
	ms := []migrator{{db: db, names: []string{"0001_a.sql"}}, {db: db, names: []string{"0001_a.sql"}}}
	sqltest.MigrateConcurrently(t, ms)
	if db.applied != 1 {
		t.Errorf("applied %d, want 1", db.applied)
	}
}

// TestBrokenAdapter is run by TestFailsBrokenAdapters, which expects it
// to fail.
func TestBrokenAdapter(t *testing.T) {
	switch os.Getenv(brokenEnv) {
	case "report":
		sqltest.MigrateReport(t, list, fakes(true))
	case "concurrently":
		sqltest.MigrateConcurrently(t, []migrator{{broken: true}})
	default:
		t.Skip("run by TestFailsBrokenAdapters")
	}
}

// TestFailsBrokenAdapters: the checks fail an adapter that reports
// migrations it did not apply, and one whose Migrate fails.
func TestFailsBrokenAdapters(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary")
	}
	for mode, want := range map[string][]string{
		"report":       {"MigrateReport again", "MigrateReport one version behind", "concurrent migrators reported"},
		"concurrently": {"round 0: Migrate 0: broken migrator", "round 1: Migrate 0: broken migrator"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenAdapter$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), brokenEnv+"="+mode)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s: the checks passed a broken adapter:\n%s", mode, out)
		}
		for _, w := range want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: output lacks %q:\n%s", mode, w, out)
			}
		}
	}
}

func TestMigrations(t *testing.T) {
	files := fstest.MapFS{"migrations/0002_b.sql": {Data: []byte("b")}, "migrations/0001_a.sql": {Data: []byte("a")}}
	got := sqltest.Migrations(t, sqlstore.Dialect{Name: "test"}, sqlstore.Schema{Files: files})
	if len(got) != 2 || got[0].Name != "0001_a.sql" || got[1].SQL != "b" {
		t.Errorf("Migrations = %+v", got)
	}
}

// TestOnMemory runs the checks that take any adapter on the memory one.
func TestOnMemory(t *testing.T) {
	ctx := t.Context()
	a := memory.New()
	u, err := a.CreateUser(ctx, adapter.User{Email: "a@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	expires := stored.Time(time.Now().Add(time.Hour))
	if _, err := a.CreateSession(ctx, adapter.Session{Token: "t1", UserID: u.ID, Expires: expires}); err != nil {
		t.Fatal(err)
	}
	sqltest.SessionBeforeMetadata(t, a, u.ID, "t1", expires)

	res := testing.Benchmark(func(b *testing.B) { sqltest.BenchmarkGetSessionAndUser(b, memory.New()) })
	if res.N == 0 {
		t.Errorf("BenchmarkGetSessionAndUser ran %d times", res.N)
	}
}
