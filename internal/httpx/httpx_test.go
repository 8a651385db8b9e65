package httpx

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// Redirect's own way for a POST to an absolute URL writes what
// http.Redirect writes.
func TestRedirectAsNetHTTP(t *testing.T) {
	for _, target := range []string{"https://op.example/authorize?a=b&c=%20d", "http://app/x", "https://é.example/", "/relative", "https://op.example/a\x7fb", "https://op.example/a\tb", "javascript:x"} {
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			r := httptest.NewRequest(method, "http://app/auth/signin/dev", nil)
			got, want := httptest.NewRecorder(), httptest.NewRecorder()
			Redirect(got, r, target)
			code := http.StatusFound
			if method == http.MethodPost {
				code = http.StatusSeeOther
			}
			http.Redirect(want, r, target, code)
			if got.Code != want.Code || !reflect.DeepEqual(got.Header(), want.Header()) || got.Body.String() != want.Body.String() {
				t.Errorf("%s %q: got %d %v %q, want %d %v %q", method, target, got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
			}
		}
	}
}

// TestReadForm: a form is read whole, whether its length is declared or
// not, and a body over MaxFormBytes is refused either way.
func TestReadForm(t *testing.T) {
	body := "csrfToken=a%2Bb&callbackUrl=%2Fx"
	for _, declared := range []bool{true, false} {
		r := httptest.NewRequest(http.MethodPost, "http://app/auth/signin/dev", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if !declared {
			r.ContentLength = -1
		}
		f, err := ReadForm(r)
		if err != nil || f.Get("csrfToken") != "a+b" || f.Get("callbackUrl") != "/x" || r.PostForm.Get("csrfToken") != "a+b" {
			t.Errorf("declared %v: %v, %v", declared, f, err)
		}
		big := strings.Repeat("a", MaxFormBytes+1)
		r = httptest.NewRequest(http.MethodPost, "http://app/auth/signin/dev", strings.NewReader(big))
		if !declared {
			r.ContentLength = -1
		}
		if _, err := ReadForm(r); err == nil {
			t.Errorf("declared %v: a body over MaxFormBytes was read", declared)
		}
	}
}

// TestRecord: the handler's status, body and cookies are recorded; its
// cookies and other headers reach the real writer, its Content-Type and
// Content-Length do not (the wrapper answers with its own body).
func TestRecord(t *testing.T) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	rec := Record(w, r, func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "s", Value: "v"})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "7")
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"a":1}`))
	})
	if rec.Status() != http.StatusCreated || string(rec.Body()) != `{"a":1}` {
		t.Fatalf("recorded %d %q", rec.Status(), rec.Body())
	}
	h := w.Header()
	if h.Get("Set-Cookie") != "s=v" {
		t.Errorf("Set-Cookie = %q, want the handler's cookie", h.Get("Set-Cookie"))
	}
	if h.Get("Content-Type") != "" || h.Get("Content-Length") != "" {
		t.Errorf("the handler's Content-Type/Length reached the writer: %v", h)
	}
	if w.Body.Len() != 0 {
		t.Errorf("the handler's body reached the writer: %q", w.Body)
	}
}

// TestPrintableASCII: each byte value, at each position of a string of
// two words and a tail, makes the string printable exactly when it is
// 0x20 to 0x7e, whatever the bytes around it (the words are tested as
// wholes: a bad byte's borrow or carry must not hide it, nor a good one).
func TestPrintableASCII(t *testing.T) {
	for _, fill := range []byte{' ', 'a', '~'} {
		for pos := range 19 {
			for c := range 256 {
				s := []byte(strings.Repeat(string(fill), 19))
				s[pos] = byte(c)
				if got, want := PrintableASCII(string(s)), c >= 0x20 && c <= 0x7e; got != want {
					t.Fatalf("%q: %v, want %v", s, got, want)
				}
			}
		}
	}
}
