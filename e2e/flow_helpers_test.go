package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// load runs the steps (a Navigate, a Click on a submit button, a key
// press) and waits for the page they lead to, following redirects. It
// returns the final document's response, whose Status is the HTTP status
// the visitor got.
func load(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) *network.Response {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, steps...)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if resp == nil {
		t.Fatalf("%s: no document response", what)
	}
	return resp
}

// openSignInPage starts the example with env (see startExample) and a
// browser of the test's own, and opens the built-in sign-in page with
// query ("" or "?callbackUrl=…"), which must answer 200. It returns the
// browser and the example's URL.
func openSignInPage(t *testing.T, env map[string]string, query string) (context.Context, string) {
	t.Helper()
	ctx := newBrowser(t)
	base := startExample(t, env)
	wantStatus(t, load(t, ctx, "opening the sign-in page", chromedp.Navigate(base+"/auth/signin"+query)), 200)
	return ctx, base
}

// click clicks the first element matching the CSS selector and waits for
// the page that follows.
func click(t *testing.T, ctx context.Context, sel string) *network.Response {
	t.Helper()
	return load(t, ctx, "clicking "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// mustText returns the visible text of the first element matching sel.
func mustText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := textOf(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wantText reports an error unless the text of the first element
// matching sel is want.
func wantText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	if msg := textDiff(t, ctx, sel, want); msg != "" {
		t.Error(msg)
	}
}

// mustShow is wantText ending the test, for a page the rest depends on.
func mustShow(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	if msg := textDiff(t, ctx, sel, want); msg != "" {
		t.Fatal(msg)
	}
}

// wantBody reports an error unless the page's text contains each of
// wants.
func wantBody(t *testing.T, ctx context.Context, wants ...string) {
	t.Helper()
	if msg := bodyLacks(t, ctx, wants); msg != "" {
		t.Error(msg)
	}
}

// mustBody is wantBody ending the test, for a page the rest depends on.
func mustBody(t *testing.T, ctx context.Context, wants ...string) {
	t.Helper()
	if msg := bodyLacks(t, ctx, wants); msg != "" {
		t.Fatal(msg)
	}
}

// bodyLacks names the first of wants the page's text does not contain,
// or returns "".
func bodyLacks(t *testing.T, ctx context.Context, wants []string) string {
	t.Helper()
	text := bodyText(t, ctx)
	for _, want := range wants {
		if !strings.Contains(text, want) {
			return fmt.Sprintf("on %s, the page does not say %q: %q", location(t, ctx), want, text)
		}
	}
	return ""
}

// textDiff says how the text of the first element matching sel differs
// from want, or returns "".
func textDiff(t *testing.T, ctx context.Context, sel, want string) string {
	t.Helper()
	if got := mustText(t, ctx, sel); got != want {
		return fmt.Sprintf("on %s, %s says %q, want %q", location(t, ctx), sel, got, want)
	}
	return ""
}

// location returns the current page's URL.
func location(t *testing.T, ctx context.Context) *url.URL {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// wantPath fails the test unless the current page's path is path.
func wantPath(t *testing.T, ctx context.Context, path string) *url.URL {
	t.Helper()
	u := location(t, ctx)
	if u.Path != path {
		t.Fatalf("on %s, want path %s", u, path)
	}
	return u
}

// wantStatus fails the test unless resp has the status.
func wantStatus(t *testing.T, resp *network.Response, status int64) {
	t.Helper()
	if resp.Status != status {
		t.Fatalf("%s answered %d %s, want %d", resp.URL, resp.Status, resp.StatusText, status)
	}
}

// bodyText returns the page's visible text with runs of white space
// folded, for assertions about sentences.
func bodyText(t *testing.T, ctx context.Context) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(s), " ")
}

// chooseDevUser answers the development provider's page (authtest, at
// /dev) as the user with the given subject, e.g. "alice", and waits for
// the page the sign-in ends on.
func chooseDevUser(t *testing.T, ctx context.Context, subject string) *network.Response {
	t.Helper()
	mustShow(t, ctx, "h1", "Development sign-in")
	return click(t, ctx, `button[name="authtest_user"][value="`+subject+`"]`)
}

// signInAsAlice goes from the current page, which must be the built-in
// sign-in page, through the development provider as Alice, and returns
// the response of the page the sign-in ends on.
func signInAsAlice(t *testing.T, ctx context.Context) *network.Response {
	t.Helper()
	resp := click(t, ctx, `form[action$="/signin/development"] button`)
	wantStatus(t, resp, 200)
	return chooseDevUser(t, ctx, "alice")
}

// signedInBrowser starts a browser, opens the example's /private (at
// base) in it, signs in as Alice from the sign-in page that sends it to,
// and checks it is back on /private. which, appended to "opening
// /private", names the browser in a failure.
func signedInBrowser(t *testing.T, base, which string) context.Context {
	t.Helper()
	ctx := newBrowser(t)
	load(t, ctx, "opening /private"+which, chromedp.Navigate(base+"/private"))
	signInAsAlice(t, ctx)
	wantPath(t, ctx, "/private")
	return ctx
}

// wantSignInError checks that resp, the answer to a failed sign-in, is
// the built-in sign-in page with the error errorType in its URL and the
// banner it stands for; then checks the page's accessibility (naming it
// page) and takes its screenshot shot.
func wantSignInError(t *testing.T, ctx context.Context, resp *network.Response, errorType, banner, page, shot string) {
	t.Helper()
	wantStatus(t, resp, 200)
	u := wantPath(t, ctx, "/auth/signin")
	if got := u.Query().Get("error"); got != errorType {
		t.Errorf("error type = %q, want %s", got, errorType)
	}
	wantText(t, ctx, `[role="alert"]`, banner)
	checkAccessible(t, ctx, page)
	shootPage(t, ctx, shot)
}

// typeInto types text into the input sel (empty on every page here).
func typeInto(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(sel), text, chromedp.NodeVisible)); err != nil {
		t.Fatalf("typing into %s: %v", sel, err)
	}
}

// texts returns the text of every element sel matches.
func texts(t *testing.T, ctx context.Context, sel string) []string {
	t.Helper()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(`+"`"+sel+"`"+`)].map(e => e.innerText)`))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// count returns how many elements match the CSS selector.
func count(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+"`"+sel+"`"+`).length`))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
