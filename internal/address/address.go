// Package address checks and normalizes e-mail addresses, for every part
// of the library that takes one (e-mail sign-in, invitations).
package address

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ErrInvalid is wrapped by Normalize's errors.
var ErrInvalid = errors.New("invalid e-mail address")

// Normalize returns the canonical
// form of a typed address, or an error wrapping ErrInvalid that says
// what is wrong with it.
//
// The order matters. NFKC normalisation comes first and every check runs
// on its result: checking before normalising let full-width and small
// commercial at signs (U+FF20, U+FE6B) pass a one-'@' check and become
// real '@'s later, so that a link went to an attacker (GHSA-7rqj-j65f-68wh).
// Then the address is trimmed and lower-cased, and must be a plain
// local@domain: no display name, quotes, comments, lists or
// whitespace, which is how one sign-in once went to two mailboxes
// (CVE-2022-35924). Auth.js cuts the domain at a comma; a comma is
// refused here instead.
func Normalize(address string) (string, error) {
	if len(address) > 1024 || !utf8.ValidString(address) {
		return "", invalid("is too long or not UTF-8")
	}
	a := strings.ToLower(strings.TrimSpace(norm.NFKC.String(address)))
	if a == "" {
		return "", invalid("is empty")
	}
	if len(a) > 254 {
		return "", invalid("is longer than 254 bytes")
	}
	for _, r := range a {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"(),:;<>[\]`, r) {
			return "", invalid(fmt.Sprintf("contains %q", r))
		}
	}
	local, domain, ok := strings.Cut(a, "@")
	switch {
	case !ok:
		return "", invalid("has no @")
	case strings.Contains(domain, "@"):
		return "", invalid("has more than one @")
	case local == "":
		return "", invalid("has nothing before the @")
	case domain == "":
		return "", invalid("has nothing after the @")
	}
	if err := checkLocal(local); err != nil {
		return "", err
	}
	if err := checkDomain(domain); err != nil {
		return "", err
	}
	return a, nil
}

// checkLocal accepts an RFC 5322 dot-atom (§3.2.3), with the non-ASCII
// letters and digits of RFC 6531.
func checkLocal(s string) error {
	if len(s) > 64 {
		return invalid("has more than 64 bytes before the @")
	}
	if strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
		return invalid("has a misplaced dot before the @")
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r)) {
			return invalid(fmt.Sprintf("contains %q before the @", r))
		}
	}
	return nil
}

// checkDomain accepts a host name of at least two labels (RFC 1035 §2.3.1,
// with non-ASCII letters for internationalised names).
func checkDomain(s string) error {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return invalid("has a domain without a dot")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") {
			return invalid("has a malformed domain")
		}
		for _, r := range l {
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-') {
				return invalid(fmt.Sprintf("contains %q in the domain", r))
			}
		}
	}
	return nil
}

func invalid(reason string) error { return fmt.Errorf("%w: the address %s", ErrInvalid, reason) }
