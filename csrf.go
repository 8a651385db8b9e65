package gatehouse

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"

	"github.com/gatehouse-auth/gatehouse/checks"
	"github.com/gatehouse-auth/gatehouse/internal/sessioncookie"
)

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomToken() string { return randomHex(32) }

// sameOrigin refuses a state-changing request a browser sent from another
// origin (checks.SameOrigin).
func (h *Handler) sameOrigin(r *http.Request, b *base) error {
	return checks.SameOrigin(h.crossOrigin, r, b.origin)
}

// csrfOK reports whether submitted is the CSRF token of r's CSRF cookie
// (checks.CSRF: the signed double-submit cookie).
func (h *Handler) csrfOK(r *http.Request, b *base, submitted string) bool {
	return h.csrf.Verify(sessioncookie.Value(r, b.cookies.CSRF), submitted)
}
