// Command gatehouse sets up an application that uses Gatehouse, as
// `npx auth` does for Auth.js:
//
//	go run github.com/gatehouse-auth/gatehouse/cmd/gatehouse <command> [flags]
//
// The commands:
//
//	secret     print a new AUTH_SECRET (32 random bytes, base64); with
//	           -write add it to .env (or -env-file), created with mode 0600;
//	           an AUTH_SECRET already there is kept (exit status 0) unless
//	           -force
//	migrate    create or update the adapter tables of DATABASE_URL
//	           (postgres://…, postgresql://…, or SQLite: file:…, sqlite://…
//	           or a path) and list the migrations applied
//	providers  list the built-in providers, the environment variables that
//	           configure them and the callback URL to register (from -url,
//	           else AUTH_URL, else http://localhost:3000, and -base, else
//	           /auth)
//	check      read the environment as gatehouse.Config.FromEnv and
//	           builtin.FromEnv do and report, per configured provider,
//	           whether its client secret is set, whether its discovery
//	           document answers and names its issuer (or that it uses fixed
//	           endpoints), and the redirect URI to register
//
// Each command takes -h for its flags.
//
// migrate, providers and check read the env file that secret -write
// writes (.env in the working directory, or the file given with
// -env-file) for the variables that the environment leaves unset: a
// variable set in the environment wins. The file holds NAME=value lines,
// "#" comments, an optional "export " and single- or double-quoted
// values; a malformed line stops the command with its line number.
//
// Exit status: 0 when the command did what was asked (for check: nothing
// is wrong); 1 when it failed, or check found a problem; 2 for a usage
// error (unknown command or flag, a bad -url, DATABASE_URL missing or of
// an unknown scheme).
//
// Only secret prints a secret, and only when it does not write it to a
// file. check reports whether secrets are set and how long, never their
// values; migrate shows DATABASE_URL without its password.
package main
