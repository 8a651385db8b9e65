package mounttest

import (
	"net/http"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
)

// TestCheckServeMux: a Handler mounted as the documentation shows, in an
// http.ServeMux under /auth/ and wrapped in the Middleware, passes Check:
// a whole sign-in, the session, the private page and the links.
func TestCheckServeMux(t *testing.T) {
	Check(t, "/auth", func(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
		mux := http.NewServeMux()
		mux.Handle("/auth/", auth)
		mux.Handle("/private", private)
		mux.Handle("/page", page)
		return auth.Middleware(mux)
	})
}
