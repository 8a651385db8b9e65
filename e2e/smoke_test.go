package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExampleSignInPageOpens checks the helpers themselves: the example
// starts, Chromium starts, and the built-in sign-in page offers the
// development provider.
func TestExampleSignInPageOpens(t *testing.T) {
	ctx := newBrowser(t)
	base := startExample(t, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/auth/signin")); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if title != "Sign in" {
		t.Errorf("title = %q, want %q", title, "Sign in")
	}
	button, err := textOf(ctx, "form button.provider > span:last-child")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(button, "Sign in with Development") {
		t.Errorf("first provider button says %q, want \"Sign in with Development\"", button)
	}
}
