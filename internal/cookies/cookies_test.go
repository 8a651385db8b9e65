package cookies

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// FuzzCookieValue checks that the allocation-free cookie lookup finds what
// net/http's r.Cookie finds, for any Cookie header.
func FuzzCookieValue(f *testing.F) {
	f.Add("authjs.session-token=abc; authjs.csrf-token=x|y", "", "authjs.session-token")
	f.Add(` a=1 ;a=2; b="q"; c="; c=ok`, "a=3", "c")
	f.Add(`x=bad\value; x=good`, "", "x")
	f.Add(`b="q"`, "b=\"\"", "b")
	f.Add("n= v ; n=w", "", "n")
	f.Fuzz(func(t *testing.T, line1, line2, name string) {
		if !validName(name) {
			return // the names looked up are Gatehouse's own
		}
		r := &http.Request{Header: http.Header{"Cookie": {line1}}}
		if line2 != "" {
			r.Header["Cookie"] = append(r.Header["Cookie"], line2)
		}
		// r.Cookie's answer, except that a name given twice reads as
		// none (a planted duplicate).
		want, n := "", 0
		for _, c := range r.Cookies() {
			if c.Name == name {
				want, n = c.Value, n+1
			}
		}
		if n != 1 {
			want = ""
		}
		if got := Value(r, name); got != want {
			t.Fatalf("Value(%q) = %q, r.Cookie gives %q (header %q)", name, got, want, r.Header["Cookie"])
		}
	})
}

// validName is an RFC 7230 token, as cookie names are.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || stringsContainsByte("\"(),/:;<=>?@[\\]{}", c) {
			return false
		}
	}
	return true
}

func stringsContainsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func TestCookieValueNoAllocs(t *testing.T) {
	r := &http.Request{Header: http.Header{"Cookie": {"authjs.csrf-token=a|b; authjs.session-token=eyJhbGciOiJkaXIifQ..x.y.z"}}}
	if n := testing.AllocsPerRun(100, func() { Value(r, "authjs.session-token") }); n != 0 {
		t.Fatalf("Value allocates %v times", n)
	}
	if v := Value(r, "authjs.session-token"); v != "eyJhbGciOiJkaXIifQ..x.y.z" {
		t.Fatalf("got %q", v)
	}
}

// TestChunkedValueAnonymous: a request without a session cookie (an
// anonymous visitor with other cookies) reads its cookies without
// parsing them all, and chunks are still joined.
func TestChunkedValueAnonymous(t *testing.T) {
	r := &http.Request{Header: http.Header{"Cookie": {"authjs.csrf-token=a|b; theme=dark; _ga=GA1.2.3"}}}
	if n := testing.AllocsPerRun(100, func() { ChunkedValue(r, "authjs.session-token") }); n != 0 {
		t.Fatalf("ChunkedValue allocates %v times for an anonymous request", n)
	}
	r.Header["Cookie"] = []string{"authjs.session-token.1=cd; theme=dark; authjs.session-token.0=ab"}
	if v := ChunkedValue(r, "authjs.session-token"); v != "abcd" {
		t.Fatalf("chunks joined as %q", v)
	}
	if v, chunks := ReadChunked(r, "authjs.session-token"); v != "abcd" || len(chunks) != 2 {
		t.Fatalf("readChunked = %q %v", v, chunks)
	}
}

// setCookie must write what http.SetCookie writes for the same cookie,
// whichever way it takes.
func TestSetCookieAsNetHTTP(t *testing.T) {
	now := time.Now()
	values := []string{"", "abc", "a.b-c_d~e", "eyJhbGciOi.J9..x", "with space", "a,b", "quote\"d", "semi;colon", "back\\slash", "é", "http://app/a?b=c&d=e#f"}
	names := []string{"authjs.session-token", "__Host-authjs.csrf-token", "bad name", "bad;name", ""}
	expiries := []time.Time{{}, now.Add(15 * time.Minute), now.Add(-time.Hour), time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), now.Add(30 * 24 * time.Hour)}
	for _, name := range names {
		for _, value := range values {
			for _, exp := range expiries {
				for _, maxAge := range []int{0, -1, 900} {
					for _, secure := range []bool{false, true} {
						for _, ss := range []http.SameSite{http.SameSiteLaxMode, http.SameSiteNoneMode, http.SameSiteStrictMode} {
							got, want := httptest.NewRecorder(), httptest.NewRecorder()
							setCookie(got, name, value, exp, maxAge, secure, ss)
							http.SetCookie(want, &http.Cookie{Name: name, Value: value, Path: "/", Expires: exp, MaxAge: maxAge, HttpOnly: true, Secure: secure, SameSite: ss})
							if g, w := got.Header()["Set-Cookie"], want.Header()["Set-Cookie"]; !slices.Equal(g, w) {
								t.Fatalf("setCookie(%q, %q, %v, %d, %v, %v) = %q, http.SetCookie %q", name, value, exp, maxAge, secure, ss, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// TestValidCookieValueWords: the eight-bytes-at-a-time check agrees with
// the byte table for every byte value at every position of a word, next
// to every other byte value, and on random strings of every length.
func TestValidCookieValueWords(t *testing.T) {
	want := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if !cookieValueByte[s[i]] {
				return false
			}
		}
		return true
	}
	for pos := range 8 {
		for b := range 256 {
			for c := range 256 {
				w := []byte("abcdefghij")
				w[pos], w[pos+1] = byte(b), byte(c)
				if s := string(w); validCookieValue(s) != want(s) {
					t.Fatalf("%q: %v, want %v", s, validCookieValue(s), want(s))
				}
			}
		}
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		n := rnd.IntN(40)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(0x1e + rnd.IntN(0x64)) // mostly valid, some not
			if rnd.IntN(50) == 0 {
				b[i] = byte(rnd.IntN(256))
			}
		}
		if s := string(b); validCookieValue(s) != want(s) {
			t.Fatalf("%q: %v, want %v", s, validCookieValue(s), want(s))
		}
	}
}

// benchHeader is the Cookie header of a signed-in browser, as a JWT
// session and the CSRF cookie make it: about 670 bytes.
var benchHeader = "authjs.csrf-token=" + strings.Repeat("c", 64) + "%7C" + strings.Repeat("d", 64) +
	"; authjs.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0.." + strings.Repeat("x", 430)

// BenchmarkValue is the lookup of the session cookie in benchHeader.
func BenchmarkValue(b *testing.B) {
	r := &http.Request{Header: http.Header{"Cookie": {benchHeader}}}
	b.ReportAllocs()
	for b.Loop() {
		if Value(r, "authjs.session-token") == "" {
			b.Fatal("no session cookie")
		}
	}
}

// TestValueCookieLimit: at and past net/http's limit on the cookies of a
// request, Value answers as r.Cookie does, however short the pairs.
func TestValueCookieLimit(t *testing.T) {
	for _, others := range []int{maxCookies - 1, maxCookies} {
		for _, sep := range []string{";", "; "} {
			line := strings.Repeat("a=1"+sep, others) + "n=v"
			r := &http.Request{Header: http.Header{"Cookie": {line}}}
			want := ""
			if c, err := r.Cookie("n"); err == nil {
				want = c.Value
			}
			if got := Value(r, "n"); got != want {
				t.Fatalf("%d other cookies: Value = %q, r.Cookie %q", others, got, want)
			}
			if others < maxCookies && want != "v" {
				t.Fatalf("%d other cookies: net/http found none", others)
			}
		}
	}
}

// BenchmarkSetCookie is the check cookie a sign-in sets: a sealed value
// of about 270 characters.
func BenchmarkSetCookie(b *testing.B) {
	n := NewNames(false, false)
	value := strings.Repeat("91ds3Iz4dTE3uKBlAoswpLnMPHk-_", 9)
	expires := time.Now().Add(15 * time.Minute)
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		clear(w.Header())
		n.Set(w, n.Checks, value, expires)
	}
}

// cookieValueByte is net/http's validCookieValueByte as a table.
var cookieValueByte = func() (t [256]bool) {
	for b := 0x20; b < 0x7f; b++ {
		t[b] = b != '"' && b != ';' && b != '\\'
	}
	return t
}()
