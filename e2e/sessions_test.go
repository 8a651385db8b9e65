package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSessionsPage: signed in from two browsers, the built-in sessions
// page lists both, this browser's first, and "Sign out everywhere else"
// ends the other (the example's cookie cache lets the other browser read
// its copy for up to five minutes more: documented).
func TestSessionsPage(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	signedInBrowser(t, base, " in the other browser") // the other session
	ctx := signedInBrowser(t, base, "")

	resp := load(t, ctx, "opening the sessions page", chromedp.Navigate(base+"/auth/sessions"))
	wantStatus(t, resp, 200)
	mustShow(t, ctx, "h1", "Your sessions")
	rows := sessionRows(t, ctx)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "This browser") || !strings.HasPrefix(rows[1], "Another browser") {
		t.Fatalf("sessions listed: %q", rows)
	}
	checkAccessible(t, ctx, "sessions page")
	shootPage(t, ctx, "sessions")

	resp = click(t, ctx, `form[action$="/sessions/revoke-others"] button`)
	wantStatus(t, resp, 200)
	wantPath(t, ctx, "/auth/sessions")
	rows = sessionRows(t, ctx)
	if len(rows) != 1 || !strings.HasPrefix(rows[0], "This browser") {
		t.Fatalf("after signing out everywhere else: %q", rows)
	}
}

// sessionRows returns the text of each session on the sessions page.
func sessionRows(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return texts(t, ctx, ".session p")
}
