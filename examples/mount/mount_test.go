package mount

import (
	"net/http"
	"testing"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/internal/mounttest"
)

// TestMount: the Handler mounted in gin (gin.WrapH) and echo
// (echo.WrapHandler), at the root and in a group, serves a whole sign-in
// through the in-process provider, the session JSON, a page behind
// Require and a template's {{ signIn }} form, with every link on
// Config.URL's base path. (The root package's TestMount does the same
// for http.ServeMux, http.StripPrefix and chi.)
func TestMount(t *testing.T) {
	for _, c := range []struct {
		name, base string
		site       func(auth *gatehouse.Handler, private, page http.Handler) http.Handler
	}{
		{"gin", "/auth", Gin},
		{"gin-group", "/api/auth", GinGroup},
		{"echo", "/auth", Echo},
		{"echo-group", "/api/auth", EchoGroup},
	} {
		t.Run(c.name, func(t *testing.T) { mounttest.Check(t, c.base, c.site) })
	}
}
