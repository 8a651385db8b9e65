package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
)

func runMigrate(ctx context.Context, e env, args []string) int {
	fl := flags(e, "migrate", "", `Creates the adapter's tables in the database of DATABASE_URL, or brings
them up to date, and says which migrations ran. It is safe to run again.

DATABASE_URL is a PostgreSQL URL (postgres://… or postgresql://…), or an
SQLite database: file:… (an SQLite URI), sqlite://<path> (sqlite:///abs/path
for an absolute path) or a plain file path. When the environment leaves
DATABASE_URL unset it is read from the env file (.env, or -env-file).`)
	dsn := fl.String("database-url", "", "the database, instead of $DATABASE_URL")
	envFile := envFileFlag(fl)
	if code, ok := parse(fl, args); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(e, "migrate", "unexpected argument %q", fl.Arg(0))
	}
	if _, code, ok := readEnvFile(&e, "migrate", fl, *envFile); !ok {
		return code
	}
	if *dsn == "" {
		*dsn = e.getenv("DATABASE_URL")
	}
	db, err := parseDatabaseURL(*dsn)
	if err != nil {
		return usageError(e, "migrate", "%v", err)
	}
	applied, err := db.migrate(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse migrate: %s: %s\n", db, db.redact(err.Error()))
		return exitProblem
	}
	if len(applied) == 0 {
		fmt.Fprintf(e.stdout, "%s is up to date: no migration to apply.\n", db)
		return exitOK
	}
	for _, name := range applied {
		fmt.Fprintf(e.stdout, "applied %s\n", name)
	}
	fmt.Fprintf(e.stdout, "%s: %d migration(s) applied.\n", db, len(applied))
	return exitOK
}

// database is a parsed DATABASE_URL.
type database struct {
	postgres bool
	dsn      string // for PostgreSQL the URL, for SQLite what sqlite.Open takes
	shown    string // the URL without its password, for messages
	secrets  []string
}

// pgSecrets returns the passwords in a PostgreSQL URL.
func pgSecrets(u *url.URL) []string {
	var out []string
	if p, ok := u.User.Password(); ok && p != "" {
		out = append(out, p)
	}
	for _, k := range []string{"password", "sslpassword"} {
		if p := u.Query().Get(k); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// redact returns msg, a driver's error, with any password of the URL
// masked: the drivers try not to include them, and this makes sure.
func (d database) redact(msg string) string {
	for _, s := range d.secrets {
		msg = strings.ReplaceAll(msg, s, "xxxxx")
	}
	return printable(msg)
}

func (d database) String() string {
	if d.postgres {
		return "PostgreSQL " + d.shown
	}
	return "SQLite " + d.shown
}

// parseDatabaseURL reads DATABASE_URL as the example application does
// (postgres:// or postgresql:// for PostgreSQL, else an SQLite file), and
// also takes the SQLite forms file:… and sqlite://…. Other URL schemes
// are refused rather than taken for a file name.
func parseDatabaseURL(s string) (database, error) {
	switch {
	case s == "":
		return database{}, errors.New("DATABASE_URL is not set (or pass -database-url)")
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return database{}, errors.New("DATABASE_URL is not a valid PostgreSQL URL")
		}
		// Shown without the password and the query, which may hold
		// one too (password=, sslpassword=).
		shown := u.Scheme + "://" + u.Host + u.Path
		if u.User != nil {
			shown = u.Scheme + "://" + u.User.Username() + "@" + u.Host + u.Path
		}
		return database{postgres: true, dsn: s, shown: shown, secrets: pgSecrets(u)}, nil
	case strings.HasPrefix(s, "sqlite://"):
		path := strings.TrimPrefix(s, "sqlite://")
		if path == "" {
			return database{}, errors.New("DATABASE_URL sqlite:// names no file")
		}
		return sqliteDatabase(path)
	case strings.HasPrefix(s, "file:"):
		return sqliteDatabase(s)
	case strings.Contains(s, "://"):
		scheme, _, _ := strings.Cut(s, "://")
		return database{}, fmt.Errorf("DATABASE_URL scheme %q is not supported (want postgres, postgresql, sqlite or file)", printable(scheme))
	}
	return sqliteDatabase(s)
}

func sqliteDatabase(path string) (database, error) {
	if path == ":memory:" || strings.HasPrefix(path, "file::memory:") {
		return database{}, errors.New("an in-memory SQLite database would vanish when the command ends")
	}
	return database{dsn: path, shown: path}, nil
}

// migrate opens the database, applies the migrations it lacks and
// returns their names.
func (d database) migrate(ctx context.Context) ([]string, error) {
	if d.postgres {
		a, err := postgres.Open(ctx, d.dsn)
		if err != nil {
			return nil, err
		}
		defer a.Close()
		return a.MigrateReport(ctx)
	}
	a, err := sqlite.Open(ctx, d.dsn)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	return a.MigrateReport(ctx)
}
