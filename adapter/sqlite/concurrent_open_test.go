package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter"
)

// TestConcurrentOpenNewFile: many processes' worth of Opens and Migrates
// of one brand-new file at once all succeed (switching a new file to WAL
// can answer SQLITE_BUSY without waiting for the busy timeout).
func TestConcurrentOpenNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	// 64 at once: they then take the write lock one after another, and
	// with many more, under the race detector on a busy machine, the
	// last could wait out BusyTimeout (SQLite's busy handler is not fair).
	const n = 64
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			a, err := Open(context.Background(), path)
			if err == nil {
				err = a.Migrate(context.Background())
				a.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	failed := 0
	for _, err := range errs {
		if err != nil {
			failed++
			t.Log(err)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d concurrent opens of a new file failed", failed, n)
	}
}

// TestNewChecksSettings: Migrate on a *sql.DB opened without the busy
// timeout (New with the caller's own database) says how to open it,
// instead of letting concurrent writes fail with SQLITE_BUSY later.
func TestNewChecksSettings(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "bare.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = New(db).Migrate(context.Background())
	if err == nil || !strings.Contains(err.Error(), "DSN") {
		t.Fatalf("Migrate on a database without busy_timeout = %v, want an error naming sqlite.DSN", err)
	}
	good, err := sql.Open("sqlite", DSN(filepath.Join(t.TempDir(), "good.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	a := New(good)
	if err := a.Migrate(context.Background()); err != nil {
		t.Fatalf("Migrate with DSN's settings: %v", err)
	}
	// 100 concurrent writers through it all succeed.
	var wg sync.WaitGroup
	errs := make([]error, 100)
	for i := range 100 {
		wg.Go(func() {
			_, errs[i] = a.CreateUser(context.Background(), adapter.User{Email: fmt.Sprintf("w%d@example.com", i)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
}
