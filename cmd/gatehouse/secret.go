package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// secretBytes is the size of a new secret before encoding: 32 random
// bytes, as `npx auth secret` makes. Base64 gives 44 characters, more
// than the 32 bytes gatehouse.New requires of each secret.
const secretBytes = 32

// envFileMode is the mode of an env file the command creates: it holds a
// secret, so only its owner may read it.
const envFileMode = 0o600

func runSecret(ctx context.Context, e env, args []string) int {
	fl := flags(e, "secret", "", `Prints a new AUTH_SECRET: 32 random bytes, base64-encoded.
With -write it is added to the env file (created with mode 0600 if
missing) instead of printed; an AUTH_SECRET already in the file is kept
(exit status 0) unless -force is given. The other commands read the
env file.`)
	write := fl.Bool("write", false, "add AUTH_SECRET to the env file instead of printing it")
	file := fl.String("env-file", ".env", "the env file -write adds to (setting it implies -write)")
	force := fl.Bool("force", false, "replace an AUTH_SECRET already in the env file")
	if code, ok := parse(fl, args); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(e, "secret", "unexpected argument %q", fl.Arg(0))
	}
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "env-file" {
			*write = true
		}
	})
	if *force && !*write {
		return usageError(e, "secret", "-force only applies with -write or -env-file")
	}
	secret, err := newSecret()
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse secret: %v\n", err)
		return exitProblem
	}
	if !*write {
		fmt.Fprintln(e.stdout, secret)
		return exitOK
	}
	done, err := writeSecret(*file, secret, *force)
	if errors.Is(err, errSecretSet) {
		// Nothing to do: the file has what was asked for.
		fmt.Fprintf(e.stdout, "%s already has an AUTH_SECRET; kept it. Use -force to replace it "+
			"(sessions sealed with the old secret then end), or rotate by hand: AUTH_SECRET=<new>,<old>\n", *file)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "gatehouse secret: %v\n", err)
		return exitProblem
	}
	fmt.Fprintln(e.stdout, done)
	if info, err := os.Stat(*file); err == nil && info.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(e.stderr, "gatehouse secret: warning: %s can be read by other users (mode %04o); consider chmod 600 %s\n",
			*file, info.Mode().Perm(), *file)
	}
	return exitOK
}

// newSecret returns secretBytes random bytes in standard base64.
func newSecret() (string, error) {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("reading random bytes: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// secretLine matches a line of an env file that sets AUTH_SECRET, in the
// dotenv syntax (an optional "export ", spaces around "=").
var secretLine = regexp.MustCompile(`^[ \t]*(?:export[ \t]+)?AUTH_SECRET[ \t]*=`)

// errSecretSet is returned by writeSecret when the file already sets
// AUTH_SECRET and force is false.
var errSecretSet = errors.New("already sets AUTH_SECRET")

// writeSecret adds AUTH_SECRET=secret to the env file at path, creating
// it with mode 0600 when missing. When the file already sets AUTH_SECRET
// it fails with errSecretSet, unless force is true: then the first such
// line is replaced and any other removed. It returns what it did, in a
// sentence that does not contain the secret.
func writeSecret(path, secret string, force bool) (string, error) {
	line := "AUTH_SECRET=" + secret
	old, err := os.ReadFile(path)
	added := []byte("# Added by `gatehouse secret`.\n" + line + "\n")
	if errors.Is(err, fs.ErrNotExist) {
		if err := writeTo(path, os.O_CREATE|os.O_EXCL, added); err != nil {
			return "", err
		}
		return fmt.Sprintf("Created %s (mode 0600) with a new AUTH_SECRET.", path), nil
	}
	if err != nil {
		return "", err
	}
	lines := bytes.SplitAfter(old, []byte("\n"))
	set := slices.IndexFunc(lines, secretLine.Match)
	if set < 0 {
		if len(old) > 0 && old[len(old)-1] != '\n' {
			added = append([]byte("\n"), added...)
		}
		if err := writeTo(path, os.O_APPEND, added); err != nil {
			return "", err
		}
		return fmt.Sprintf("Added a new AUTH_SECRET to %s.", path), nil
	}
	if !force {
		return "", errSecretSet
	}
	var body []byte
	for i, l := range lines {
		switch {
		case i == set:
			body = append(body, line+"\n"...)
		case !secretLine.Match(l):
			body = append(body, l...)
		}
	}
	if err := replaceFile(path, body); err != nil {
		return "", err
	}
	return fmt.Sprintf("Replaced AUTH_SECRET in %s; sessions sealed with the old secret have ended.", path), nil
}

// writeTo opens path for writing with the extra flags (creating it with
// mode 0600 under os.O_CREATE) and writes body.
func writeTo(path string, flags int, body []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|flags, envFileMode)
	if err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replaceFile writes body to path through a temporary file renamed over
// it, so that a failure leaves the old file whole. The new file keeps
// the old one's mode; a symbolic link is followed, not replaced.
func replaceFile(path string, body []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(real), ".gatehouse-env-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), real)
}
