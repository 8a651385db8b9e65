package sitetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestBrowser: Follow follows redirects one at a time, recording each
// hop and keeping the cookies set on the way, which Request carries;
// Post sends its form URL-encoded.
func TestBrowser(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "k", Value: "v", Path: "/"})
		http.Redirect(w, r, "/b", http.StatusSeeOther)
	})
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie("k")
		if err != nil {
			http.Error(w, "no cookie", http.StatusBadRequest)
			return
		}
		io.WriteString(w, c.Value)
	})
	mux.HandleFunc("/form", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.PostFormValue("x")) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := NewBrowser(t)
	resp := b.Get(srv.URL + "/a")
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("Get followed the redirect by itself: %d", resp.StatusCode)
	}
	resp = b.Follow(resp)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "v" || len(b.Hops) != 1 || b.Hops[0] != srv.URL+"/b" {
		t.Errorf("Follow: %q, hops %v", body, b.Hops)
	}
	if c, err := b.Request(srv.URL, srv.URL+"/app").Cookie("k"); err != nil || c.Value != "v" {
		t.Errorf("Request's cookie: %v, %v", c, err)
	}
	resp = b.Post(srv.URL+"/form", url.Values{"x": {"a b&c"}})
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "a b&c" {
		t.Errorf("Post: %q", body)
	}
}
