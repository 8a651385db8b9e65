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
