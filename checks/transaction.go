package checks

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
)

// Transaction is the set of check values of one sign-in: those the
// provider uses, the others empty. It travels to the callback in one
// sealed cookie (SealTransaction), not in one cookie per check: one seal,
// one Set-Cookie header and one random read per sign-in instead of three.
// The state still travels in the authorization URL too, and the callback
// compares that copy with the sealed one (VerifyState).
type Transaction struct {
	Verifier string // PKCE code verifier (RFC 7636 §4.1)
	State    string
	Nonce    string
	// Binding says who started the sign-in: a digest of the browser's
	// session and of a secret cookie of that browser (see the root
	// package's binding.go). The callback compares it with the browser
	// that finishes the sign-in, so a check cookie planted in another
	// browser (cookie tossing) cannot finish there. Base64url, no '.'.
	Binding string
}

// NewTransaction returns fresh values for the checks asked for, each 256
// bits from crypto/rand, drawn in one read and encoded into one string
// that the values share.
func NewTransaction(pkce, state, nonce bool) Transaction {
	var b [3 * 32]byte
	// crypto/rand.Read never fails on supported platforms (Go 1.24+).
	_, _ = rand.Read(b[:])
	var text [3 * 43]byte // 43 base64url characters a value
	enc := text[:0]
	for i, want := range [3]bool{pkce, state, nonce} {
		if want {
			enc = base64.RawURLEncoding.AppendEncode(enc, b[32*i:32*(i+1)])
		}
	}
	all := string(enc)
	next := func(want bool) (v string) {
		if want {
			v, all = all[:43], all[43:]
		}
		return v
	}
	var t Transaction
	t.Verifier = next(pkce)
	t.State = next(state)
	t.Nonce = next(nonce)
	return t
}

// The values are base64url, which has no '.': the sealed text is
// "verifier.state.nonce.binding", empty fields for checks not in use.
const sep = "."

// SealTransaction returns the cookie value for t, bound to the cookie's
// name and to the provider and valid for MaxAge, like Seal.
func (s *Sealer) SealTransaction(name, provider string, t Transaction) (string, error) {
	if strings.Contains(t.Binding, sep) {
		return "", fail(State, ErrCookieInvalid)
	}
	return s.seal(name, provider, t.Verifier, t.State, t.Nonce, t.Binding), nil
}

// OpenTransaction opens a cookie made by SealTransaction, under the same
// name and provider. A failure is reported as a failure of check k, the
// first check the caller needs from it.
func (s *Sealer) OpenTransaction(k Kind, name, provider, cookie string) (Transaction, error) {
	v, err := s.Open(k, name, provider, cookie)
	if err != nil {
		return Transaction{}, err
	}
	parts := strings.Split(v, sep)
	if len(parts) != 4 {
		return Transaction{}, fail(k, ErrCookieInvalid)
	}
	return Transaction{Verifier: parts[0], State: parts[1], Nonce: parts[2], Binding: parts[3]}, nil
}

// Need reports, as an *Error of that check, the first of the checks asked
// for whose value t lacks: a cookie sealed for a sign-in that did not use
// the check cannot stand in for it.
func (t Transaction) Need(pkce, state, nonce bool) error {
	switch {
	case state && t.State == "":
		return fail(State, ErrCookieInvalid)
	case pkce && t.Verifier == "":
		return fail(PKCE, ErrCookieInvalid)
	case nonce && t.Nonce == "":
		return fail(Nonce, ErrCookieInvalid)
	}
	return nil
}
