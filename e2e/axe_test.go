package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// axePath is axe-core, pinned in axe/package.json and installed by
// `make e2e` (npm ci --prefix e2e/axe).
var axePath = filepath.Join("axe", "node_modules", "axe-core", "axe.min.js")

// axeSource reads axe-core. Without it the test skips, except when $CI
// is set, where it fails: CI must run the check.
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axePath)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is needed at e2e/%s for the accessibility check (make e2e installs it): %v", axePath, err)
		}
		t.Skipf("skipping: axe-core not found at e2e/%s (run: npm ci --prefix e2e/axe)", axePath)
	}
	return string(b)
}

// axeRun runs the rules of: WCAG 2.1 levels A and AA.
const axeRun = `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, resultTypes: ["violations"]})
	.then(r => r.violations.map(v => v.id + " (" + v.impact + "): " + v.help + "\n" +
		v.nodes.map(n => "    " + n.target.join(" ") + ": " + n.html.slice(0, 200) + "\n      " + n.failureSummary.replace(/\n/g, " ")).join("\n")))`

// axeWidths are the widths every page is checked at: a small phone and
// a laptop.
var axeWidths = []size{{"phone", 375, 812, true}, desktop}

// axeShotParts are the parts of long pages the axe walk's screenshots
// keep, by page name; the others keep the whole page. The organization
// settings page is cut as TestOrganizationInvitation and
// TestOrganizationTeams cut it.
var axeShotParts = map[string]part{
	"organization":               membersPart,
	"organization-invited":       membersPart,
	"organization-fresh-sign-in": membersPart,
	"organization-teams":         teamsPart,
}

// axeChecker runs axe-core over the pages a browser tab shows, in both
// colour schemes and at both widths; with shots, when screenshots are
// being updated, it also saves each page's screenshots, phone and
// desktop, light and dark, named <name>-<size>-<scheme><suffix>.
type axeChecker struct {
	t      *testing.T
	ctx    context.Context
	lang   string
	shots  bool
	suffix string
	pages  int
}

// newAxeChecker returns the checker of the tab of ctx for pages in lang.
// It first makes every document the tab loads carry axe-core (injected
// by the browser, not by the page, so the pages' Content-Security-Policy
// is left as it is).
func newAxeChecker(t *testing.T, ctx context.Context, src, lang string) *axeChecker {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
	if err != nil {
		t.Fatalf("injecting axe-core: %v", err)
	}
	return &axeChecker{t: t, ctx: ctx, lang: lang}
}

// check runs axe-core over the page the tab shows now, named name: no
// violation may be found. The tab is left a light desktop.
func (a *axeChecker) check(name string) {
	t := a.t
	t.Helper()
	a.pages++
	lang, err := chromedp.Run(a.ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	if err != nil {
		t.Fatal(err)
	}
	if lang != a.lang {
		t.Errorf("%s: lang %q, want %q", name, lang, a.lang)
	}
	for _, scheme := range []string{"light", "dark"} {
		for _, s := range axeWidths {
			if err := chromedp.Do(a.ctx, setViewport(s.width, s.height, s.mobile), setColorScheme(scheme)); err != nil {
				t.Fatal(err)
			}
			found, err := chromedp.Run(a.ctx, chromedp.Evaluate[[]string](axeRun, chromedp.EvalAwaitPromise))

			if err != nil {
				t.Fatalf("%s: running axe-core: %v", name, err)
			}
			for _, v := range found {
				t.Errorf("%s (%s, %s, %d px): %s", name, a.lang, scheme, s.width, v)
			}
		}
		if a.shots && updateScreenshots {
			for _, s := range []size{phone, desktop} {
				if err := chromedp.Do(a.ctx, setViewport(s.width, s.height, s.mobile), setColorScheme(scheme)); err != nil {
					t.Fatal(err)
				}
				screenshotPart(t, a.ctx, name+"-"+s.name+"-"+scheme+a.suffix, axeShotParts[name])
			}
		}
	}
	if err := chromedp.Do(a.ctx, setViewport(desktop.width, desktop.height, false), setColorScheme("light")); err != nil {
		t.Fatal(err)
	}
}

// TestAxe runs axe-core's WCAG 2.1 A and AA rules over every built-in
// page, in each of its states, in English and German, light and dark, at
// 375 and 1280 px: the sign-in page with every kind of provider (and with
// an error), the error and verify-request pages, the password pages
// (sign-up, forgot, check your e-mail, reset), sign-out,
// sessions, linked accounts, the organization pages (the switcher, the
// settings, the settings asking to sign in again, the settings with a
// new team and its Rename form open, an invitation signed out and signed
// in as someone else), the
// two-factor settings (off, enrolling, backup codes) and the two-factor
// code step. No violation may be found.
// The German walk also saves the German screenshots.
func TestAxe(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	// A tab in a browser context of its own for each language, which
	// walks an example of its own: the two run side by side.
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			ctx := newBrowserFor(t, 5*time.Minute)
			setAcceptLanguage(t, ctx, lang)
			a := newAxeChecker(t, ctx, src, lang)
			if lang == "de" {
				a.shots, a.suffix = true, "-de"
			}
			walkPages(t, ctx, a)
			if a.pages != 24 {
				t.Errorf("checked %d pages, want 24", a.pages)
			}
		})
	}
}

// walkPages opens every built-in page in turn and hands each to a: the
// sign-in page of the example with every kind of provider, then the
// others in the example with the development provider, to sign in with.
func walkPages(t *testing.T, ctx context.Context, a *axeChecker) {
	base := startExample(t, everythingEnv)
	open := func(path, name string) {
		t.Helper()
		resp := load(t, ctx, "opening "+path, chromedp.Navigate(base+path))
		wantStatus(t, resp, statusOf(path))
		a.check(name)
	}
	const addr = "pat@example.com"

	// First, that axe-core runs and finds what it should: an input
	// without a label, planted into the page.
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	planted, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`document.querySelector("main, body").insertAdjacentHTML("beforeend", "<input type=text>"), `+axeRun, chromedp.EvalAwaitPromise))
	if err != nil || len(planted) != 1 || !strings.HasPrefix(planted[0], "label ") {
		t.Fatalf("axe-core on a page with an unlabelled input found %q, %v; want the label rule", planted, err)
	}

	// Signed out.
	open("/auth/signin", "signin")
	open("/auth/signin?error=CredentialsSignin", "signin-error")
	base = startExample(t, nil)
	open("/auth/error?error=Configuration", "error")
	open("/auth/verify-request", "verify-request")
	open("/auth/password/sign-up", "password-signup")
	open("/auth/password/forgot", "password-forgot")
	typeInto(t, ctx, `#password-email`, addr)
	wantStatus(t, click(t, ctx, `form[action$="/auth/password/forgot"] button[type="submit"]`), 200)
	a.check("password-check-email")
	open("/auth/password/reset?token=0123456789abcdef&email="+addr, "password-reset")

	// Signed in.
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	signInAsAlice(t, ctx)
	open("/auth/signout", "signout")
	open("/auth/sessions", "sessions")
	open("/auth/accounts", "accounts")
	// The keys page, and its answer that shows a new key once.
	open("/auth/api-keys", "api-keys")
	typeInto(t, ctx, "#key-name", "deploy")
	wantStatus(t, click(t, ctx, `form[action$="/auth/api-keys"] button[type="submit"]`), 200)
	a.check("api-keys-new")
	// Organizations: the switcher, Acme's settings (Alice owns it), the
	// same after an invitation, after a delete refused for want of a
	// fresh sign-in and after creating a team, and the invitation's page
	// seen by Alice, who is not the one invited.
	open("/auth/organizations", "organizations")
	open("/auth/organizations/acme", "organization")
	typeInto(t, ctx, "#invite-email", addr)
	wantStatus(t, click(t, ctx, `form[action$="/invitations"] button[type="submit"]`), 200)
	a.check("organization-invited")
	open("/auth/organizations/acme?failed=fresh_sign_in", "organization-fresh-sign-in")
	// The Teams section after a team is made, its Rename form open.
	typeInto(t, ctx, "#team-name", "Design")
	wantStatus(t, click(t, ctx, `form:has(#team-name) button[type="submit"]`), 200)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.row:has(form[action*="/teams/"]) details summary`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	a.check("organization-teams")
	wantStatus(t, openOutboxLink(t, ctx, base, "/auth/organizations/invitation"), 200)
	invitation := location(t, ctx)
	a.check("organization-invitation-other-user")
	open("/auth/two-factor/setup", "two-factor-setup")
	wantStatus(t, click(t, ctx, `form[action$="/two-factor/enroll"] button`), 200)
	secret := mustText(t, ctx, ".secret")
	a.check("two-factor-enrolling")
	typeInto(t, ctx, "#code", totpCode(t, secret, time.Now()))
	wantStatus(t, click(t, ctx, `form[action$="/two-factor/confirm"] button`), 200)
	a.check("two-factor-backup-codes")

	// The code step of the next sign-in.
	load(t, ctx, "opening the sign-out page", chromedp.Navigate(base+"/auth/signout"))
	click(t, ctx, `form[action$="/auth/signout"] button[type="submit"]`)
	load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"))
	signInAsAlice(t, ctx)
	wantPath(t, ctx, "/auth/two-factor")
	a.check("two-factor-challenge")
	// Not signed in yet: the invitation asks to sign in.
	open(invitation.Path+"?"+invitation.RawQuery, "organization-invitation-signed-out")
}

// statusOf is the status a page of walkPages answers with.
func statusOf(path string) int64 {
	if strings.HasPrefix(path, "/auth/error") {
		return 500 // Configuration
	}
	return 200
}
