// Package twofactor is the core of two-factor sign-in: time-based
// one-time passwords from an authenticator app (TOTP, RFC 6238), single-use
// backup codes, and the pending state that carries a sign-in from its
// first factor to its second. It does no HTTP: the sign-in routes call it.
//
// # Enrolment
//
// A signed-in user turns two-factor sign-in on in two steps. Enroll makes
// a secret, stores it sealed but not enabled, and returns an Enrollment to
// show once: the QR code (Enrollment.QRDataURL for an <img>), and the
// secret for typing in by hand. The user scans it and types the code the
// app shows; Confirm checks it, enables two-factor sign-in and returns ten
// backup codes, also to show once.
//
//	svc, err := twofactor.New(twofactor.Config{
//		TOTP:   twofactor.TOTP{Issuer: "Example"},
//		Secret: []string{os.Getenv("AUTH_SECRET")},
//		Store:  store, // the adapter's
//	})
//	e, err := svc.Enroll(ctx, user.ID, user.Email)
//	// show e.QRDataURL() and e.Secret; then, with the code typed:
//	codes, err := svc.Confirm(ctx, user.ID, code)
//	// show codes, once
//
// # Sign-in
//
// When the first factor passes (a password, a magic link, an OAuth
// callback) for a user whose Status is Enabled, the sign-in does not make
// a session: it calls StartPending and sends the sealed value to the
// browser. The value names the user, the provider and the time, and is
// bound to a string tied to the browser that the caller passes: the CSRF
// cookie's value, as the sign-in's own binding is. The second step opens
// it with the same binding, then verifies the code the user typed, which
// is either a TOTP code or a backup code:
//
//	p, err := svc.OpenPending(sealed, csrfCookie) // ErrExpired, ErrBindingMismatch, ErrPendingInvalid
//	method, err := svc.Verify(ctx, p.UserID, code) // ErrInvalidCode, ErrReplayed
//	// on success: make the session for p.UserID and delete the pending value
//
// A pending sign-in lasts PendingMaxAge (5 minutes).
//
// # What the caller must limit
//
// A TOTP code has 6 digits and three of them are good at any time (one
// step of skew either side), so unlimited guessing finds one in about
// 330,000 tries on average. Verify counts nothing; the caller must, before
// it calls Verify (package limit's Reserve does this atomically):
//
//   - per pending sign-in (Pending.ID): at most a few attempts, such as
//     5, after which the pending value is refused and the user starts over
//     with the first factor;
//   - per user (Pending.UserID): failed second factors across pending
//     sign-ins, such as 10 in 15 minutes, since whoever knows the password
//     can start new pending sign-ins at will;
//   - per client address, as for any sign-in attempt.
//
// A success resets the per-user count. Tell the user by e-mail when their
// second factor fails repeatedly: their password is known to someone.
//
// # Replay
//
// A TOTP code is accepted at most once: Verify returns the time step it
// matched and the Store records it as the user's last step, atomically,
// refusing the same step or an earlier one after that (RFC 6238 §5.2).
// A backup code is consumed by an atomic delete. Two requests racing with
// one code therefore get one success between them.
//
// # What is stored
//
// A Store keeps one Secret per user. The TOTP secret is sealed with
// AES-256-GCM under a key derived from the app secret with HKDF, and bound
// to the user's ID, so a copy of the database does not give the secrets
// away and a secret cannot be moved to another user's row. Backup codes
// are stored as HMAC-SHA-256 hashes under another derived key; they are
// random enough that a slow hash would add nothing (see
// Keys.NewBackupCodes). Rotating the app secret works as for sessions:
// put the new secret first and keep the old one while anything sealed
// under it is in use.
package twofactor
