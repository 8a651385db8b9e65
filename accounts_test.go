package gatehouse_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// linkedApp is an app with two OpenID providers, dev and corp, and an
// adapter; unlinked records Events.UnlinkAccount.
func linkedApp(t *testing.T) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	return linkedAppWith(t, nil)
}

// linkedAppWith is linkedApp with more configuration.
func linkedAppWith(t *testing.T, more func(*gatehouse.Config)) (a *app, st *store, unlinked *[]string) {
	t.Helper()
	corp := authtest.NewServer(authtest.Options{AutoApprove: true})
	t.Cleanup(corp.Close)
	st = openStore(t, "memory")
	var mu sync.Mutex
	unlinked = &[]string{}
	a, _ = newDBApp(t, st, authtest.Options{}, func(cfg *gatehouse.Config) {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "corp", Name: "Corp", Type: providers.TypeOIDC, Issuer: corp.Issuer(),
			ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
		})
		cfg.Events.UnlinkAccount = func(_ context.Context, u profile.User, acct account.Account) {
			mu.Lock()
			defer mu.Unlock()
			*unlinked = append(*unlinked, u.Email+" "+acct.Provider)
		}
		if more != nil {
			more(cfg)
		}
	})
	return a, st, unlinked
}

func (b *browser) accounts(a *app) (int, []map[string]any) { return b.getList(a, "/auth/accounts") }

// getList GETs path at the app and decodes a JSON list of objects.
func (b *browser) getList(a *app, path string) (int, []map[string]any) {
	b.t.Helper()
	resp := b.get(a.url + path)
	defer resp.Body.Close()
	var out []map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (b *browser) unlink(a *app, provider string) (int, string) {
	b.t.Helper()
	resp := b.post(a.url+"/auth/accounts/unlink/"+provider, url.Values{"csrfToken": {b.csrf(a)}})
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestAccountLinks: GET {base}/accounts lists the signed-in user's linked
// providers; POST {base}/accounts/unlink/{provider} removes one, but never
// the last way to sign in; the event is told.
func TestAccountLinks(t *testing.T) {
	a, st, unlinked := linkedApp(t)
	b := newBrowser(t)
	if code, _ := b.accounts(a); code != http.StatusUnauthorized {
		t.Fatalf("accounts without a session: %d", code)
	}
	signedIn(t, a, b)
	if code, list := b.accounts(a); code != http.StatusOK || len(list) != 1 || list[0]["provider"] != "dev" || list[0]["name"] != "Development" {
		t.Fatalf("accounts: %d %v", code, list)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusConflict || !json.Valid([]byte(body)) {
		t.Fatalf("unlinking the last account: %d %s", code, body)
	}
	// Link corp: a sign-in with it while signed in, started by this session.
	b.signIn(a, "corp", "/")
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("after linking corp: %v", list)
	}
	if code, body := b.unlink(a, "nobody"); code != http.StatusNotFound {
		t.Fatalf("unlinking an unknown provider: %d %s", code, body)
	}
	if code, body := b.unlink(a, "dev"); code != http.StatusOK {
		t.Fatalf("unlinking dev: %d %s", code, body)
	}
	if _, list := b.accounts(a); len(list) != 1 || list[0]["provider"] != "corp" {
		t.Fatalf("after unlinking dev: %v", list)
	}
	if len(*unlinked) != 1 || (*unlinked)[0] != "alice@example.com dev" {
		t.Fatalf("UnlinkAccount events: %q", *unlinked)
	}
	if _, err := st.raw.GetAccount(context.Background(), "dev", "alice"); err == nil {
		t.Fatal("the dev account is still stored")
	}
	// The token is not in the listing.
	resp := b.get(a.url + "/auth/accounts")
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{"access_token", "refresh_token", "accessToken", "id_token"} {
		if strings.Contains(strings.ToLower(string(raw)), strings.ToLower(secret)) {
			t.Fatalf("the listing shows %s: %s", secret, raw)
		}
	}
}

// TestUnlinkRefusesCrossSite: a form on another site cannot unlink.
func TestUnlinkRefusesCrossSite(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	req, _ := http.NewRequest(http.MethodPost, a.url+"/auth/accounts/unlink/dev", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp := b.do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site unlink: %d", resp.StatusCode)
	}
	if _, list := b.accounts(a); len(list) != 2 {
		t.Fatalf("accounts after the refused unlink: %v", list)
	}
}

// TestConcurrentUnlinks: of two unlinks at once of the user's last two
// accounts, one wins; the user keeps a way to sign in.
func TestConcurrentUnlinks(t *testing.T) {
	a, _, _ := linkedApp(t)
	b := newBrowser(t)
	signedIn(t, a, b)
	b.signIn(a, "corp", "/")
	csrf := b.csrf(a)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i, prov := range []string{"dev", "corp"} {
		wg.Go(func() {
			resp := b.post(a.url+"/auth/accounts/unlink/"+prov, url.Values{"csrfToken": {csrf}})
			resp.Body.Close()
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	if _, list := b.accounts(a); len(list) != 1 {
		t.Fatalf("codes %v, accounts left %v", codes, list)
	}
}
