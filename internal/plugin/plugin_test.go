package plugin_test

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// heavy are the modules that only what plugs in from its own package
// needs: passkeys (go-webauthn and what it brings), e-mail (the SMTP
// client), two-factor sign-in (TOTP, QR codes, sealed pending state).
var heavy = []string{
	"github.com/go-webauthn/webauthn",
	"github.com/go-webauthn/x",
	"github.com/google/go-tpm",
	"github.com/fxamacker/cbor/v2",
	"github.com/tinylib/msgp",
	"github.com/wneessen/go-mail",
	"github.com/pquerna/otp",
	"github.com/boombuler/barcode",
	"github.com/gorilla/securecookie",
	"golang.org/x/crypto", // argon2, for password accounts
}

// unconfigured are the packages of features a GitHub-only site does not
// turn on (Config.Organizations, Admin, MachineAccess), by symbol
// prefix, and text/template's execution, which the invitation e-mails of
// organizations use: evalField is reached only by executing a template,
// and once reached it keeps every exported method of the program
// (reflection), so no built-in page may execute one either. Nor does it
// parse templates (package mail parses its built-in ones when it first
// renders a message), nor link the pages of those features or of
// password accounts (a page's component is linked only with code that
// constructs the page), nor the credentials provider's sign-in
// (internal/credentialsflow) and the Unicode normalisation it counts
// identifiers with (the normalisation package's initialisation stays,
// with the import), nor two-factor sign-in (Config.TwoFactor): its second
// step (internal/twofactorflow), its settings routes and their pages, nor
// the self-service routes (Config.SelfService): no symbol of
// internal/selfservice, which serves them and the two-factor settings,
// nor the accounts and sessions pages; nor the reading of an
// administrator's impersonation (Config.Admin); nor the sign-in page's
// e-mail, credentials, password and passkey forms (a form kind's markup
// is linked only with the flow that adds such a form to the page), by
// their methods, their components (inlined into the methods or not)
// and the error message the refused ones show, nor the passkey script
// and the verify-request page (the e-mail and passkey flows' routes); nor
// the messages of any of those features' pages, nor those of the
// e-mails, passkeys and password accounts (each package adds its
// catalogue when the feature is configured; the packages whose every
// symbol is listed above are not repeated).
var unconfigured = []string{
	"github.com/gatehouse-auth/gatehouse/internal/orgflow.",
	"github.com/gatehouse-auth/gatehouse/internal/adminflow.",
	"github.com/gatehouse-auth/gatehouse/internal/keyflow.",
	"github.com/gatehouse-auth/gatehouse/servicetoken.",
	"text/template.(*state).evalField",
	"text/template/parse.",
	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow.SignIn",
	"github.com/gatehouse-auth/gatehouse/internal/credentialsflow.(*Flow)",
	"golang.org/x/text/unicode/norm.Form.",
	"golang.org/x/text/unicode/norm.(*reorderBuffer)",
	"github.com/gatehouse-auth/gatehouse/pages.Organization.",
	"github.com/gatehouse-auth/gatehouse/pages.Organizations.",
	"github.com/gatehouse-auth/gatehouse/pages.Invitation.",
	"github.com/gatehouse-auth/gatehouse/pages.Password.",
	"github.com/gatehouse-auth/gatehouse/twofactor.",
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow.(*Step)",
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow.New",
	"github.com/gatehouse-auth/gatehouse/internal/selfservice.",
	"github.com/gatehouse-auth/gatehouse/selfservice.",
	"github.com/gatehouse-auth/gatehouse/pages.Accounts.",
	"github.com/gatehouse-auth/gatehouse/pages.Sessions.",
	"github.com/gatehouse-auth/gatehouse/pages.(*Accounts)",
	"github.com/gatehouse-auth/gatehouse/pages.(*Sessions)",
	"github.com/gatehouse-auth/gatehouse/internal/sessions.(*Manager).impersonat",
	"github.com/gatehouse-auth/gatehouse/internal/sessions.(*Manager).ImpersonatedUser",
	"github.com/gatehouse-auth/gatehouse/pages.TwoFactorSetup.",
	"github.com/gatehouse-auth/gatehouse/pages.TwoFactorChallenge.",
	"github.com/gatehouse-auth/gatehouse/pages.EmailForm.",
	"github.com/gatehouse-auth/gatehouse/pages.(*EmailForm).",
	"github.com/gatehouse-auth/gatehouse/pages.signInEmail",
	"github.com/gatehouse-auth/gatehouse/pages.CredentialsForm.",
	"github.com/gatehouse-auth/gatehouse/pages.(*CredentialsForm).",
	"github.com/gatehouse-auth/gatehouse/pages.signInCredentials",
	"github.com/gatehouse-auth/gatehouse/pages.PasswordForm.",
	"github.com/gatehouse-auth/gatehouse/pages.(*PasswordForm).",
	"github.com/gatehouse-auth/gatehouse/pages.signInPassword",
	"github.com/gatehouse-auth/gatehouse/pages.WebAuthnForm.",
	"github.com/gatehouse-auth/gatehouse/pages.(*WebAuthnForm).",
	"github.com/gatehouse-auth/gatehouse/pages.signInWebAuthn",
	"github.com/gatehouse-auth/gatehouse/pages.fieldError",
	"github.com/gatehouse-auth/gatehouse/pages.webauthnScript",
	"github.com/gatehouse-auth/gatehouse/pages.VerifyRequest.",
	"github.com/gatehouse-auth/gatehouse/internal/site.(*Site).VerifyRequestPage",
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow.english",
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow.german",
	"github.com/gatehouse-auth/gatehouse/mail.english",
	"github.com/gatehouse-auth/gatehouse/mail.german",
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow.english",
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow.german",
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount.english",
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount.german",
}

// maxDefault bounds the GitHub-only site's binary as a plain go build
// makes it, with symbols and debug information: 12,979,923 bytes with Go
// 1.26, under the aim of 13 MB. Of what such a site links without using
// it, the largest part is switched on by provider fields no build can
// see: the OpenID Connect relying party's ID and logout token checks,
// DPoP and client assertions (about 0.2 MB). The stripped binary
// (-ldflags=-s -w), as it is usually shipped, is logged.
const maxDefault = 13_000_000

// TestPayForWhatYouUse builds a site that configures GitHub alone
// (testdata/githubonly) and reads what it links: none of the modules
// that only passkeys and e-mail need, none of the code of the features
// it does not turn on (unconfigured), and a binary under maxDefault.
// It fails if the root package imports a provider kind's package again,
// or reaches a feature's code other than through the value the
// feature's own package makes.
func TestPayForWhatYouUse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	build := func(name string, flags ...string) string {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append(append([]string{"build", "-o", out}, flags...), "github.com/gatehouse-auth/gatehouse/testdata/githubonly")
		cmd := exec.Command(gobin, args...)
		cmd.Dir = filepath.Join("..", "..")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return out
	}
	plain := build("githubonly")
	info, err := buildinfo.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, d := range info.Deps {
		linked[d.Path] = true
	}
	if !linked["github.com/go-jose/go-jose/v4"] {
		t.Fatalf("the build info lists no go-jose: %v", info.Deps)
	}
	for _, m := range heavy {
		if linked[m] {
			t.Errorf("a GitHub-only site links %s", m)
		}
	}
	nm, err := exec.Command(gobin, "tool", "nm", plain).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	for _, line := range strings.Split(string(nm), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		sym := f[len(f)-1]
		// A package's initialization is linked with the import: it is
		// empty for these (their tables are dropped unread).
		if strings.HasSuffix(sym, ".init") || strings.HasSuffix(sym, "..inittask") {
			continue
		}
		for _, p := range unconfigured {
			if strings.HasPrefix(sym, p) {
				t.Errorf("a GitHub-only site links %s", sym)
				break
			}
		}
	}
	stripped := build("githubonly-stripped", "-ldflags=-s -w")
	for _, f := range []string{plain, stripped} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.1f MB", filepath.Base(f), float64(fi.Size())/1e6)
		if f == plain && fi.Size() > maxDefault {
			t.Errorf("the GitHub-only site's binary is %d bytes, over %d", fi.Size(), maxDefault)
		}
	}
}

// TestAdaptersLeaveTwoFactorOut: the built-in adapters implement
// twofactor.Store without importing package twofactor (they use
// internal/twofactorcore), so a program with one and no Config.TwoFactor
// links neither the TOTP and QR code modules nor two-factor sign-in's
// routes, which twofactor.SignIn builds.
func TestAdaptersLeaveTwoFactorOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/gatehouse-auth/gatehouse/"
	cmd := exec.Command(gobin, "list", "-deps", mod+"adapter/memory", mod+"adapter/sqlite", mod+"adapter/postgres", mod+"adapter/redisstore")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps listed %d packages", len(deps))
	}
	for _, p := range deps {
		if p == mod+"twofactor" || p == mod+"internal/twofactorflow" || strings.HasPrefix(p, "github.com/pquerna/otp") || strings.HasPrefix(p, "github.com/boombuler/barcode") {
			t.Errorf("a built-in adapter imports %s", p)
		}
	}
}
