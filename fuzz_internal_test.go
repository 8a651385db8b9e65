package gatehouse

import (
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
)

// FuzzCallbackParams: the callback's parameter reader never panics and
// never returns a parameter twice.
func FuzzCallbackParams(f *testing.F) {
	f.Add("GET", "code=a&state=b&iss=c", "")
	f.Add("POST", "", "code=a&code=b")
	f.Add("POST", "", "%zz=%")
	f.Fuzz(func(t *testing.T, method, query, body string) {
		if method != "GET" && method != "POST" {
			method = "GET"
		}
		r := httptest.NewRequest(method, "http://app/auth/callback/x", strings.NewReader(body))
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		v, err := httpx.CallbackParams(r)
		if err != nil {
			return
		}
		for k, vs := range v {
			if len(vs) != 1 {
				t.Fatalf("parameter %q returned %d times", k, len(vs))
			}
		}
		// decode(encode(v)) == v.
		if back, err := url.ParseQuery(v.Encode()); err != nil || !reflect.DeepEqual(back, v) && len(v) > 0 {
			t.Fatalf("parameters %v re-encode to %v (%v)", v, back, err)
		}
	})
}
