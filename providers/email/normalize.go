package email

import "github.com/gatehouse-auth/gatehouse/internal/address"

// Normalize is the default NormalizeIdentifier: it returns the canonical
// form of a typed address, or an error wrapping ErrInvalidAddress that says
// what is wrong with it (lower case, NFKC, one @, an RFC 5322 dot-atom
// before it and a host name of two labels or more after it; a comma is
// refused rather than cut at, as CVE-2022-35924 taught).
func Normalize(addr string) (string, error) { return address.Normalize(addr) }
