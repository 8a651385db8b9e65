// Package password is the core of password accounts: argon2id hashing in
// the PHC string format, the NIST SP 800-63B rules for choosing a
// password, and the guards a sign-in endpoint needs (equal cost for
// unknown users, a bound on concurrent hashes). It has no HTTP handlers
// and no storage: the caller keeps the encoded hash in its user table.
//
// # Hashing
//
// A [Hasher] hashes with argon2id and encodes the result as the standard
// PHC string
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>
//
// with a random 16-byte salt and a 32-byte hash, both in unpadded
// standard base64. [DefaultParams] is the configuration the OWASP Password
// Storage Cheat Sheet gives as its minimum for argon2id (m=19 MiB, t=2,
// p=1); see [DefaultParams] for why this package stops there rather than
// going higher. [Hasher.Verify] compares in constant time and decodes the
// stored string with a bounded parser, so a tampered row that asks for
// terabytes of memory or billions of passes is refused with [ErrParams]
// instead of being run. [Hasher.NeedsRehash] reports a stored hash whose
// parameters differ from the hasher's, so a successful sign-in can store a
// fresh hash after the parameters change.
//
// Each hash holds m KiB of memory while it runs; a flood of sign-ins would
// otherwise hold that much per request. A Hasher lets at most a fixed
// number of hashes run at once (GOMAXPROCS by default) and makes the
// others wait, giving up when their context ends.
//
// Passwords are normalised to Unicode NFKC before hashing and before their
// length is counted, as SP 800-63B asks, so the same password typed on two
// keyboards that produce different code points for it still matches.
//
// # Choosing a password
//
// [Policy.Check] applies the SP 800-63B rules: a length between 8 and 128
// characters by default, counted in Unicode code points after NFKC
// normalisation; no composition rules (no "one digit, one symbol"); and an
// optional [Policy.Breached] hook that refuses passwords known from
// breaches. [RangeAPI] builds such a hook for a k-anonymity range API like
// Have I Been Pwned's Pwned Passwords, which sees only the first five hex
// digits of the password's SHA-1. The errors [ErrTooShort], [ErrTooLong]
// and [ErrBreached] name the rule that failed and never the password.
//
// SP 800-63B revision 4 (2025) requires at least 15 characters when the
// password is the only authentication factor and allows 8 only when it is
// one factor of several; set [Policy.MinLength] to 15 for single-factor
// sign-in.
//
// # Unknown users
//
// A sign-in for an address with no account must cost the same as a wrong
// password, or the response time tells an attacker which addresses have
// accounts. [Hasher.DummyVerify] runs the same verification, with the
// hasher's parameters, against a hash no password matches.
//
// # Usage
//
//	h, err := password.NewHasher(password.DefaultParams, 0)
//	if err != nil { ... }
//	policy := password.Policy{Breached: password.RangeAPI(nil, password.PwnedPasswordsURL)}
//
//	// Sign-up or password change.
//	if err := policy.Check(ctx, pw); err != nil {
//		// errors.Is(err, password.ErrTooShort) etc.: show the rule.
//	}
//	encoded, err := h.Hash(ctx, pw)
//	// store encoded with the user
//
//	// Sign-in.
//	user, found := lookup(email)
//	if !found {
//		h.DummyVerify(ctx, pw) // same cost as a wrong password
//		return errBadCredentials
//	}
//	if err := h.Verify(ctx, pw, user.PasswordHash); err != nil {
//		return errBadCredentials // ErrMismatch, or a malformed stored hash
//	}
//	if h.NeedsRehash(user.PasswordHash) {
//		if encoded, err := h.Hash(ctx, pw); err == nil {
//			// store encoded
//		}
//	}
package password
