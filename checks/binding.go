package checks

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
)

// Binding a sign-in to the browser that started it.
//
// An attacker who controls a browser can start a sign-in with their own
// provider account, stop before the callback, plant their check cookie
// in a victim's browser (cookie tossing from a plain-http page or a
// sibling subdomain) and send the victim to the callback URL. Without a
// binding the victim's signed-in user would get the attacker's provider
// account linked, or a signed-out victim would be signed in as the
// attacker (login CSRF; RFC 9700 §4.7, OAuth 2.0 Security BCP).
//
// So the check cookie records who started the flow (Transaction.Binding):
// a digest of the session the browser held, and a digest of the
// browser's CSRF cookie, a secret only that browser has. The attacker can
// write cookies into the victim's browser but cannot read them, so a
// planted check cookie carries the attacker's digests, not the victim's.
// On https the cookies are also __Host- cookies, which no other origin can
// write at all.

// BindingLen is the length of one digest of a binding: 96 bits, base64url
// (16 characters). The digests only need to be unguessable for a value
// the attacker cannot read (a session token, a CSRF cookie: 256 bits).
const BindingLen = 16

// Session is the session a browser holds, as a binding names it.
type Session struct {
	label string
	parts [2]string
	n     int
}

// DatabaseSession is a database session, named by its token.
func DatabaseSession(token string) Session {
	return Session{label: "gatehouse session database\x00", parts: [2]string{token}, n: 1}
}

// JWTSession is a JWT session, named by its jti and subject, which stay
// the same when the cookie is re-sealed to roll its expiry.
func JWTSession(id, subject string) Session {
	return Session{label: "gatehouse session jwt\x00", parts: [2]string{id, subject}, n: 2}
}

// NoSession is a browser with no (readable) session.
func NoSession() Session { return Session{label: "gatehouse no session\x00"} }

// Binding returns the binding of a browser: the digest of its session,
// then the digest of its CSRF cookie (2*BindingLen characters). A
// ceremony bound to the session only keeps the first BindingLen.
func Binding(s Session, csrfCookie string) string {
	var out [2 * BindingLen]byte
	digest(out[:BindingLen], s.label, s.parts[:s.n]...)
	digest(out[BindingLen:], "gatehouse browser\x00", csrfCookie)
	return string(out[:])
}

// digest writes the base64url of the first 96 bits of SHA-256 over label
// and parts into dst, without allocating for values of usual size.
func digest(dst []byte, label string, parts ...string) {
	var buf [512]byte
	in := append(buf[:0], label...)
	for _, p := range parts {
		in = append(append(in, p...), 0)
	}
	sum := sha256.Sum256(in)
	base64.RawURLEncoding.Encode(dst, sum[:12])
}

// Mismatch is what CompareBinding found.
type Mismatch int

// What CompareBinding finds.
const (
	SameBrowser  Mismatch = iota // the same session and browser
	NoBinding                    // the recorded value is not a binding
	OtherSession                 // another session (or none, or a new one)
	OtherBrowser                 // the same session in another browser
)

// CompareBinding compares, in constant time, a binding recorded when a
// sign-in started with the browser finishing it (now, from Binding). A
// recorded binding of one digest names the session only.
func CompareBinding(recorded, now string) Mismatch {
	if len(recorded) != BindingLen && len(recorded) != 2*BindingLen || len(now) != 2*BindingLen {
		return NoBinding
	}
	if subtle.ConstantTimeCompare([]byte(recorded[:BindingLen]), []byte(now[:BindingLen])) != 1 {
		return OtherSession
	}
	if len(recorded) == 2*BindingLen && subtle.ConstantTimeCompare([]byte(recorded[BindingLen:]), []byte(now[BindingLen:])) != 1 {
		return OtherBrowser
	}
	return SameBrowser
}
