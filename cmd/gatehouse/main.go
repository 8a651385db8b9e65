package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"unicode"

	"github.com/gatehouse-auth/gatehouse/internal/dotenv"
)

// Exit codes (documented in doc.go and by usage).
const (
	exitOK      = 0 // the command did what was asked
	exitProblem = 1 // it failed, or check found a problem
	exitUsage   = 2 // wrong arguments or settings
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a command sees of the outside world. Tests fill it in.
type env struct {
	getenv         func(string) string
	stdout, stderr io.Writer
}

// command is one sub-command.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e env, args []string) int
}

var commands = []command{
	{"secret", "print a new AUTH_SECRET, or add one to .env", runSecret},
	{"migrate", "create or update the adapter tables of DATABASE_URL", runMigrate},
	{"providers", "list the built-in providers, their variables and callback URLs", runProviders},
	{"check", "check the providers configured in the environment", runCheck},
}

// run runs the command named by args[0] and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := env{getenv: getenv, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "gatehouse: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: gatehouse <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run gatehouse <command> -h for a command's flags.")
	fmt.Fprintln(w, exitStatus)
}

const exitStatus = "Exit status: 0 done, 1 failed or a problem found, 2 usage error."

// flags returns a FlagSet for command name that writes to e.stderr, with
// a usage line and a description shown by -h.
func flags(e env, name, args, about string) *flag.FlagSet {
	fs := flag.NewFlagSet("gatehouse "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: gatehouse %s [flags]%s\n\n%s\n", name, args, about)
		var has bool
		fs.VisitAll(func(*flag.Flag) { has = true })
		if has {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
		fmt.Fprintln(fs.Output(), "\n"+exitStatus)
	}
	return fs
}

// parse parses args into fs. It returns false and the exit code when the
// command should stop: 0 after -h, exitUsage after a bad flag (the flag
// package has then printed the error and the usage).
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK, false
	}
	if err != nil {
		return exitUsage, false
	}
	return 0, true
}

// defaultEnvFile is the env file that secret -write writes and the
// other commands read.
const defaultEnvFile = ".env"

// envFileFlag adds -env-file to fl: the file whose settings fill in what
// the environment leaves unset.
func envFileFlag(fl *flag.FlagSet) *string {
	return fl.String("env-file", defaultEnvFile,
		"read the settings the environment leaves unset from this file (a missing "+defaultEnvFile+" is skipped)")
}

// readEnvFile makes e.getenv fall back on the env file at path, which
// `gatehouse secret -write` writes: a variable set in the environment
// wins over the file. The default file may be missing; one named with
// -env-file must exist. It reports whether a file was read, and returns
// false with the exit code when the command should stop: a malformed
// line is named by its number, never by its value.
func readEnvFile(e *env, name string, fl *flag.FlagSet, path string) (read bool, code int, ok bool) {
	named := false
	fl.Visit(func(f *flag.Flag) { named = named || f.Name == "env-file" })
	optional := !named && path == defaultEnvFile
	if _, err := os.Stat(path); optional && errors.Is(err, fs.ErrNotExist) {
		return false, 0, true
	}
	getenv, err := dotenv.Getenv(e.getenv, path, false)
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse %s: %v\n", name, err)
		return false, exitUsage, false
	}
	e.getenv = getenv
	return true, 0, true
}

// usageError reports a usage problem found after parsing.
func usageError(e env, name, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "gatehouse %s: %s\n", name, fmt.Sprintf(format, args...))
	fmt.Fprintf(e.stderr, "Run gatehouse %s -h for help.\n", name)
	return exitUsage
}

// printable makes text from a provider or a database safe to show on a
// terminal: control characters (escape sequences among them) become
// spaces, and the result is one line.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
