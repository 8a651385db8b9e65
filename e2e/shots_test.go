package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// size is a viewport in CSS pixels.
type size struct {
	name          string
	width, height int64
	mobile        bool
}

// The two widths every page is shown at: a phone (an iPhone 12 to 15's
// CSS viewport) and a laptop.
var (
	phone   = size{"phone", 390, 844, true}
	desktop = size{"desktop", 1280, 800, false}
)

// shootViewport sizes the viewport, emulates the colour scheme ("light"
// or "dark"), and saves a screenshot named <name>-<size>-<scheme>.
func shootViewport(t *testing.T, ctx context.Context, name string, s size, scheme string) {
	t.Helper()
	shootViewportPart(t, ctx, name, s, scheme, wholePage)
}

// shootViewportPart is shootViewport keeping the part p of the page.
func shootViewportPart(t *testing.T, ctx context.Context, name string, s size, scheme string, p part) {
	t.Helper()
	if err := chromedp.Do(ctx, setViewport(s.width, s.height, s.mobile), setColorScheme(scheme)); err != nil {
		t.Fatalf("emulating %s %s: %v", s.name, scheme, err)
	}
	// Nothing may scroll sideways, at any width.
	over, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if over > 0 {
		t.Errorf("%s at %s width scrolls sideways by %vpx", name, s.name, over)
	}
	screenshotPart(t, ctx, name+"-"+s.name+"-"+scheme, p)
}

// shootPage saves the current page at phone and desktop size, light and
// dark, then puts the tab back to a light desktop.
func shootPage(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shootPart(t, ctx, name, wholePage)
}

// shootPart is shootPage keeping the part p of a long page, for a
// screenshot of one of its sections.
func shootPart(t *testing.T, ctx context.Context, name string, p part) {
	t.Helper()
	for _, s := range []size{phone, desktop} {
		for _, scheme := range []string{"light", "dark"} {
			shootViewportPart(t, ctx, name, s, scheme, p)
		}
	}
	if err := chromedp.Do(ctx, setViewport(desktop.width, desktop.height, false), setColorScheme("light")); err != nil {
		t.Fatal(err)
	}
}
