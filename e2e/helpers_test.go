// Package e2e drives the example application (../example) in headless
// Chromium, the way a person would: it opens pages, clicks buttons, types
// into fields and checks what is on the screen.
//
// It is its own Go module so that chromedp stays out of the library's
// go.mod. Run it from this directory:
//
//	cd e2e && go test ./...
//
// The tests need Chromium at /usr/bin/chromium (apt-get install chromium),
// or at the path in $CHROMIUM. Without it they skip, except when $CI is
// set, where they fail.
//
// The helpers every test uses:
//
//   - startExample(t, env) runs the example binary (built once by
//     TestMain) on a free loopback port with a fresh SQLite file and a
//     fixed AUTH_SECRET, and returns its base URL, e.g.
//     "http://127.0.0.1:40123". The process is stopped when the test ends.
//   - newBrowser(t) opens a tab in a browser context of its own (so no
//     cookies are shared between tests, or between a test's browsers) in
//     the one headless Chromium the tests share, and returns a chromedp
//     context with a time limit. Call it first in a test: it skips the
//     test when Chromium is missing.
//   - screenshot(t, ctx, name) saves a PNG of the page as it is now in
//     docs/screenshots, when UPDATE_SCREENSHOTS=1 (make screenshots).
//   - setViewport and setColorScheme size the window and emulate
//     prefers-color-scheme.
//
// Every test calls t.Parallel: each has an example process and browser
// contexts of its own, so they share nothing but Chromium and the CPU.
// A new test should do the same.
package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// exampleBin is the example application built by TestMain.
var exampleBin string

// repoRoot is the library's module root, the parent of this directory.
var repoRoot string

// TestMain builds the example once for all tests, and starts the
// Chromium they share meanwhile.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	repoRoot = filepath.Dir(wd)
	dir, err := os.MkdirTemp("", "gatehouse-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	go startBrowser() // newBrowser waits for it
	defer stopBrowser()
	exampleBin = filepath.Join(dir, "example")
	build := exec.Command("go", "build", "-o", exampleBin, "./example")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building the example: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// testSecret is the example's AUTH_SECRET in every test: fixed, so a
// failing run can be replayed, and long enough for the library's check.
const testSecret = "e2e-test-secret-not-for-production-0123456789"

// startExample runs the example application with env added to (and
// overriding) its defaults, waits until it answers, and returns its base
// URL without a trailing slash. The defaults are ADDR on a free
// 127.0.0.1 port, AUTH_SECRET=testSecret and DATABASE_URL a new SQLite
// file in t.TempDir(). The process gets no other environment variables
// from the test (only PATH, HOME and TMPDIR), so provider credentials in
// the developer's shell cannot change which providers it offers. With
// nothing else set, it offers the built-in development provider ("Sign in
// with Development") served at /dev.
//
// The process is interrupted when the test ends; its output is logged if
// the test failed.
func startExample(t *testing.T, env map[string]string) string {
	t.Helper()
	port := freePort(t)
	vars := map[string]string{
		"ADDR":         "127.0.0.1:" + port,
		"AUTH_SECRET":  testSecret,
		"DEV":          "1", // the development provider: AUTH_SECRET alone would make it refuse to start
		"DATABASE_URL": filepath.Join(t.TempDir(), "example.db"),
		"PATH":         os.Getenv("PATH"),
		"HOME":         os.Getenv("HOME"),
		"TMPDIR":       os.Getenv("TMPDIR"),
	}
	for k, v := range env {
		vars[k] = v
	}
	// An ADDR of the test's own (e.g. localhost:<port> for WebAuthn) is
	// where the example answers.
	if _, p, err := net.SplitHostPort(vars["ADDR"]); err == nil && p != "0" {
		port = p
	}
	cmd := exec.Command(exampleBin)
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the example: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("example output:\n%s", out.String())
		}
	})

	base := "http://127.0.0.1:" + port
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := client.Get(base + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the example exited before answering (%v):\n%s", err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the example did not answer on %s within 30s (last error: %v):\n%s", base, err, out.String())
		}
	}
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// lockedBuffer collects a process's output while tests read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// chromiumPath returns Chromium's path: $CHROMIUM, else /usr/bin/chromium.
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// browserTimeout bounds everything one test does in its browser.
const browserTimeout = 90 * time.Second

// browserStartTimeout bounds the start of the shared Chromium.
const browserStartTimeout = 60 * time.Second

// browserFlags are the flags of the one Chromium process the tests share.
// They keep Chromium from calling home: on a machine without Internet
// access, background networking (component updates, sync, QUIC probes)
// makes it hang at start.
func browserFlags(path, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1280, 800),
	}
}

// browser is the Chromium process every test opens its tabs in, started
// once, by TestMain while it builds the example, and stopped by TestMain
// when the tests are done. Starting Chromium costs seconds on a loaded
// machine; a test's own browser context (below) gives it the isolation
// a fresh process did.
var browser struct {
	once sync.Once
	ctx  context.Context // the browser's first tab; its children are new tabs
	err  error
	stop func()
}

// startBrowser starts the shared Chromium, once; later calls wait for
// the first and return its result. Without Chromium at chromiumPath() it
// returns an error wrapping fs.ErrNotExist.
func startBrowser() (context.Context, error) {
	browser.once.Do(func() {
		path := chromiumPath()
		if _, err := os.Stat(path); err != nil {
			browser.err = err
			return
		}
		profile, err := os.MkdirTemp("", "gatehouse-e2e-chromium-")
		if err != nil {
			browser.err = err
			return
		}
		// The errors Chromium's connection reports belong to no test.
		errorf := func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "chromium: "+format+"\n", args...)
		}
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserFlags(path, profile)...)
		ctx, cancelBrowser := chromedp.NewContext(allocCtx, chromedp.WithErrorf(errorf))
		browser.stop = func() {
			cancelBrowser()
			cancelAlloc()
			_ = os.RemoveAll(profile)
		}
		// The browser lives as long as the context of its first Run, so
		// the time limit on its start is kept here rather than in ctx.
		started := make(chan error, 1)
		go func() { started <- chromedp.Do(ctx) }()
		select {
		case err = <-started:
		case <-time.After(browserStartTimeout):
			err = fmt.Errorf("no answer within %v", browserStartTimeout)
		}
		if err != nil {
			browser.stop()
			browser.err = fmt.Errorf("starting Chromium (%s): %w", path, err)
			return
		}
		browser.ctx = ctx
	})
	return browser.ctx, browser.err
}

// stopBrowser stops the shared Chromium if it was started.
func stopBrowser() {
	if _, err := startBrowser(); err == nil {
		browser.stop()
	}
}

// newBrowser returns a chromedp context for a new tab in a browser
// context of its own (no cookies, storage or cache shared with other
// tests or with the test's other browsers, as a fresh profile would),
// valid until the test ends or browserTimeout passes. Without Chromium
// the test is skipped, or fails when $CI is set.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, browserTimeout)
}

// newBrowserFor is newBrowser with a time limit of its own, for a test
// that walks through many pages.
func newBrowserFor(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	root, err := startBrowser()
	if errors.Is(err, fs.ErrNotExist) {
		path := chromiumPath()
		if os.Getenv("CI") != "" {
			t.Fatalf("Chromium is needed at %s for the browser tests (apt-get install chromium): %v", path, err)
		}
		t.Skipf("skipping: Chromium not found at %s (apt-get install chromium, or set $CHROMIUM)", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	tab, cancelTab := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	// The tab's first Run binds it to ctx: it is closed when the time is
	// up, as the test's own browser used to be.
	ctx, cancelTimeout := context.WithTimeout(tab, timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab in Chromium: %v", err)
	}
	return ctx
}

// setViewport sizes the page's viewport in CSS pixels; mobile also
// emulates a touch phone. The device scale factor is 1, which keeps
// screenshots small.
func setViewport(width, height int64, mobile bool) chromedp.Action[chromedp.Void] {
	if mobile {
		return chromedp.EmulateViewport(width, height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	return chromedp.EmulateViewport(width, height)
}

// setColorScheme emulates prefers-color-scheme: "light" or "dark".
func setColorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// updateScreenshots is whether this run rewrites docs/screenshots
// (UPDATE_SCREENSHOTS=1, as make screenshots sets it).
var updateScreenshots = os.Getenv("UPDATE_SCREENSHOTS") == "1"

// screenshotDir is docs/screenshots in the repository, where screenshot
// writes when updateScreenshots is set.
var screenshotDir = sync.OnceValues(func() (string, error) {
	dir := filepath.Join(repoRoot, "docs", "screenshots")
	return dir, os.MkdirAll(dir, 0o755)
})

// screenshot saves a PNG of the whole page as it is now, as
// <screenshotDir>/<name>.png, when updateScreenshots is set. Otherwise
// it only checks the name: a full-page capture is the costliest step of
// many tests, and a run that keeps no picture gains nothing from it (the
// checks that go with a screenshot, such as shootViewport's, run either
// way).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	screenshotPart(t, ctx, name, wholePage)
}

// part is the part of a long page a screenshot keeps, the page's whole
// width from the top of the first element matching the CSS selector from
// to the bottom of the first matching to, with 24 px to spare on either
// side. An empty selector stands for the page's top or bottom.
type part struct{ from, to string }

// wholePage is the part that is the whole page.
var wholePage part

// screenshotPart is screenshot keeping the part p of the page.
func screenshotPart(t *testing.T, ctx context.Context, name string, p part) {
	t.Helper()
	if strings.ContainsAny(name, `/\`) || name == "" {
		t.Fatalf("screenshot name %q must be a plain file name", name)
	}
	if !updateScreenshots {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(png) < 8 || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("screenshot %s: not a PNG (%d bytes)", name, len(png))
	}
	if p != wholePage {
		png = cropRows(t, ctx, name, png, p)
	}
	dir, err := screenshotDir()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cropRows cuts the rows of p out of shot, a full-page screenshot of the
// page ctx shows (at a device scale factor of 1, so a CSS pixel is a
// pixel).
func cropRows(t *testing.T, ctx context.Context, name string, shot []byte, p part) []byte {
	t.Helper()
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`((from, to) => {
		const edge = (sel, side, none) => {
			if (!sel) return none;
			const e = document.querySelector(sel);
			return e ? e.getBoundingClientRect()[side] + window.scrollY : NaN;
		};
		return [edge(from, "top", 0), edge(to, "bottom", document.documentElement.scrollHeight)];
	})(`+strconv.Quote(p.from)+`, `+strconv.Quote(p.to)+`)`))
	if err != nil || len(rows) != 2 || math.IsNaN(rows[0]) || math.IsNaN(rows[1]) {
		t.Fatalf("screenshot %s: finding %q to %q: %v %v", name, p.from, p.to, rows, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	b := img.Bounds()
	top, bottom := max(b.Min.Y, int(rows[0])-24), min(b.Max.Y, int(math.Ceil(rows[1]))+24)
	if top >= bottom {
		t.Fatalf("screenshot %s: %q to %q is rows %v, nothing to keep", name, p.from, p.to, rows)
	}
	sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		t.Fatalf("screenshot %s: a %T cannot be cropped", name, img)
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, sub.SubImage(image.Rect(b.Min.X, top, b.Max.X, bottom))); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	return out.Bytes()
}

// errNoText is returned by textOf when the selector matches nothing.
var errNoText = errors.New("no such element")

// textOf returns the visible text of the first element matching the CSS
// selector sel, waiting for it to appear.
func textOf(ctx context.Context, sel string) (string, error) {
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", errNoText, sel, err)
	}
	return strings.TrimSpace(s), nil
}
