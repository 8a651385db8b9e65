package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

// TestRefusesToStartWithoutProvider: a deployment (AUTH_SECRET set) with
// no provider and no DEV=1 does not start, and says what to set. Before,
// it offered the development sign-in and the demo password to anyone.
func TestRefusesToStartWithoutProvider(t *testing.T) {
	env := siteEnv(t, "127.0.0.1", map[string]string{"AUTH_SECRET": testSecret})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := run(ctx, func(k string) string { return env[k] }, nil)
	if !errors.Is(err, errNoProvider) {
		t.Fatalf("run = %v, want errNoProvider", err)
	}
	for _, v := range []string{"AUTH_<ID>_ID", "AUTH_OIDC_ISSUER", "AUTH_EMAIL_SERVER", "DEV=1"} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("the message does not name %s:\n%v", v, err)
		}
	}
	// Without AUTH_SECRET (go run ./example), or with DEV=1, it starts with
	// the development provider.
	for _, env := range []map[string]string{{}, {"AUTH_SECRET": testSecret, "DEV": "1"}} {
		env["ADDR"], env["DATABASE_URL"] = "127.0.0.1:0", filepath.Join(t.TempDir(), "x.db")
		site := start(t, env)
		_, home := get(t, http.DefaultClient, site+"/")
		if !strings.Contains(home, "Sign in with Development") {
			t.Fatalf("env %v: no development sign-in", env)
		}
	}
}

// TestDevProviderRedirectsOnlyHome: the development provider sends the
// browser only to the example's own callback and sign-out return; any
// other redirect_uri or post_logout_redirect_uri gets an error page.
// Before, it redirected anywhere (an open redirect).
func TestDevProviderRedirectsOnlyHome(t *testing.T) {
	site := start(t, siteEnv(t, "127.0.0.1", nil))
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	authorize := site + "/dev/authorize?" + url.Values{"client_id": {authtest.DefaultClientID}, "response_type": {"code"},
		"scope": {"openid"}, "state": {"s"}, "redirect_uri": {"https://evil.example/cb"}}.Encode()
	resp, _ := get(t, c, authorize)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
		t.Fatalf("authorize with a foreign redirect_uri: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	logout := site + "/dev/end_session?" + url.Values{"client_id": {authtest.DefaultClientID},
		"post_logout_redirect_uri": {"https://evil.example/"}}.Encode()
	resp, _ = get(t, c, logout)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
		t.Fatalf("end_session with a foreign post_logout_redirect_uri: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Its own callback is still accepted.
	own := site + "/dev/authorize?" + url.Values{"client_id": {authtest.DefaultClientID}, "response_type": {"code"},
		"scope": {"openid"}, "state": {"s"}, "redirect_uri": {site + "/auth/callback/development"}}.Encode()
	resp, _ = get(t, c, own)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusOK && !strings.HasPrefix(loc, site+"/auth/callback/development?") {
		t.Fatalf("authorize with the example's callback: %d, Location %q", resp.StatusCode, loc)
	}
}

// serve runs newServer with t on loopback and returns its address.
func serve(t *testing.T, tm timeouts) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	}), tm)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes conn within d.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// TestServerBoundsSlowClients: a body trickled a byte at a time and an
// idle keep-alive connection are closed by the example's server, not
// held forever (before, only ReadHeaderTimeout was set).
func TestServerBoundsSlowClients(t *testing.T) {
	tm := timeouts{readHeader: time.Second, read: 300 * time.Millisecond, write: time.Second, idle: 300 * time.Millisecond}
	addr := serve(t, tm)

	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	io.WriteString(slow, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
	go func() {
		for range 20 {
			if _, err := slow.Write([]byte("a")); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	if !closedWithin(slow, 5*time.Second) {
		t.Fatal("a slow body held its connection past ReadTimeout")
	}

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(idle)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !closedWithin(idle, 5*time.Second) {
		t.Fatal("an idle keep-alive connection was held past IdleTimeout")
	}
	if d := newServer(nil, defaultTimeouts); d.ReadTimeout == 0 || d.WriteTimeout == 0 || d.IdleTimeout == 0 || d.MaxHeaderBytes == 0 {
		t.Fatalf("the example's server leaves a phase unbounded: %+v", d)
	}
}

// TestDevProviderAcceptsLibraryCallback: the development provider accepts
// the redirect_uri the library sends however AUTH_URL is spelled: with a
// trailing slash, or as a bare origin (the routes then live under /auth).
// Failed before: the example registered AUTH_URL+"/callback/development"
// as written, so both spellings got the provider's error page.
func TestDevProviderAcceptsLibraryCallback(t *testing.T) {
	for _, authURL := range []string{"http://localhost:1/auth/", "http://localhost:1"} {
		site := start(t, siteEnv(t, "127.0.0.1", map[string]string{"AUTH_URL": authURL}))
		c := newClient()
		_, home := get(t, c, site+"/")
		resp := submit(t, c, site+"/", home, "/auth/signin/development", nil)
		if page := read(t, resp); !strings.Contains(page, "Continue as Alice") {
			t.Errorf("AUTH_URL %s: the development provider refused the callback (%d %s):\n%.500s", authURL, resp.StatusCode, resp.Request.URL, page)
		}
	}
}
