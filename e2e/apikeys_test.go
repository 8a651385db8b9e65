package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAPIKeysPage: signed in to the example, Alice follows the private
// page's link to the built-in keys page and makes a key with
// profile:read. The page the form is redirected to shows the key once,
// and it works at the example's /api/me; reloaded, the page makes no
// second key and no longer shows the first; opened again, it shows only
// the key's start. She revokes it (behind its confirm step) and it stops
// working.
func TestAPIKeysPage(t *testing.T) {
	t.Parallel()
	base := startExample(t, nil)
	ctx := signedInBrowser(t, base, "")

	wantStatus(t, click(t, ctx, "#api-keys"), 200)
	wantPath(t, ctx, "/auth/api-keys")
	mustShow(t, ctx, "h1", "API keys")
	wantBody(t, ctx, "You have no API keys yet.")
	checkAccessible(t, ctx, "keys page")
	shootPage(t, ctx, "api-keys")

	typeInto(t, ctx, "#key-name", "deploy")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`input[name="permissions"][value="profile:read"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, ctx, `form[action$="/auth/api-keys"] button[type="submit"]`), 200)
	if u := wantPath(t, ctx, "/auth/api-keys"); u.RawQuery != "" {
		t.Errorf("the page with the new key is at %s; want no query", u)
	}
	key, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("new-key").value`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key, "gh_") || strings.Count(key, "_") != 2 {
		t.Fatalf("the key shown: %q", key)
	}
	wantBody(t, ctx, "Copy it now and keep it safe: it is shown this once")
	checkAccessible(t, ctx, "keys page, a new key")
	shootPage(t, ctx, "api-keys-new")
	if status := apiMe(t, base, key); status != http.StatusOK {
		t.Fatalf("/api/me with the key shown: %d", status)
	}

	// Reloaded: the GET the form was redirected to, not the form's POST
	// again; one key, and its secret no longer shown.
	wantStatus(t, load(t, ctx, "reloading the page with the new key", chromedp.Reload()), 200)
	if n, shown := count(t, ctx, `form[action$="/revoke"]`), count(t, ctx, "#new-key"); n != 1 || shown != 0 {
		t.Fatalf("reloaded: %d keys, the new key shown %d times; want 1 key, not shown", n, shown)
	}

	// Opened again: the start, never the secret.
	wantStatus(t, load(t, ctx, "opening the keys page again", chromedp.Navigate(base+"/auth/api-keys")), 200)
	start := key[:strings.LastIndex(key, "_")]
	body := bodyText(t, ctx)
	if strings.Contains(body, key[len(start)+1:]) || !strings.Contains(body, "deploy · "+start) || count(t, ctx, "#new-key") != 0 {
		t.Fatalf("the page opened again shows the secret, or not the start %s:\n%s", start, body)
	}
	checkAccessible(t, ctx, "keys page, a key")
	shootPage(t, ctx, "api-keys-list")

	// Revoke: the button is behind its confirm step.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`details:has(form[action$="/revoke"]) summary`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, click(t, ctx, `form[action$="/revoke"] button`), 200)
	if u := wantPath(t, ctx, "/auth/api-keys"); u.Query().Get("done") != "revoked" {
		t.Fatalf("revoking came back to %s", u)
	}
	wantText(t, ctx, `[role="status"]`, "Key revoked.")
	if n := count(t, ctx, `form[action$="/revoke"], form[action$="/rotate"]`); n != 0 {
		t.Errorf("a revoked key still has %d forms", n)
	}
	checkAccessible(t, ctx, "keys page, a key revoked")
	if status := apiMe(t, base, key); status != http.StatusUnauthorized {
		t.Errorf("/api/me with the revoked key: %d", status)
	}
}

// apiMe returns the status of the example's GET /api/me with key.
func apiMe(t *testing.T, base, key string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
