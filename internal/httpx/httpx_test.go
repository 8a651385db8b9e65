package httpx

import (
	"net/http"
	"net/http/httptest"
	"reflect"
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
