package cookies

import "testing"

// TestBearerToken: the Authorization header forms RFC 6750 §2.1 and
// RFC 9110 §11 allow, and the ones refused.
func TestBearerToken(t *testing.T) {
	for _, tc := range []struct {
		header []string
		token  string
		bearer bool
	}{
		{[]string{"Bearer abc.def-_~+/"}, "abc.def-_~+/", true},
		{[]string{"bearer abc"}, "abc", true},
		{[]string{"BEARER   abc=="}, "abc==", true},
		{[]string{"Bearer"}, "", true},
		{[]string{"Bearer a b"}, "", true},
		{[]string{"Bearer =abc"}, "", true},
		{[]string{"Bearer ab=c"}, "", true},
		{[]string{"Bearer ab%20c"}, "", true},
		{[]string{"Bearer abc", "Bearer def"}, "", true},
		// A Bearer header beside another, in either order, is a Bearer
		// request whose token is not taken: never one judged by its
		// cookie instead.
		{[]string{"Basic dXNlcjpwYXNz", "Bearer abc"}, "", true},
		{[]string{"Bearer abc", "Basic dXNlcjpwYXNz"}, "", true},
		// A tab is not the space RFC 9110 §11.4 puts after the scheme:
		// the scheme is Bearer, the token malformed.
		{[]string{"Bearer\tabc"}, "", true},
		{[]string{"bearer\t"}, "", true},
		{[]string{"Bearerabc"}, "", false},
		{[]string{"Basic dXNlcjpwYXNz"}, "", false},
		{[]string{"DPoP abc"}, "", false},
		{[]string{""}, "", false},
	} {
		token, bearer := BearerToken(tc.header)
		if token != tc.token || bearer != tc.bearer {
			t.Errorf("%q: got %q %v, want %q %v", tc.header, token, bearer, tc.token, tc.bearer)
		}
	}
}
