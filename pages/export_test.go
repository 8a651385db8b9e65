package pages

// For the tests of package pages_test, which may import the built-in
// providers (they import package mail, which imports this package).

// Contrast returns the contrast ratio of the text colour fg on the
// background bg (over white), and whether fg parses and is opaque.
func Contrast(fg, bg string) (float64, bool) {
	b, _ := parseColor(bg)
	f, ok := parseColor(fg)
	if !ok || f.a != 255 {
		return 0, false
	}
	return contrastRatio(f, b.overWhite()), true
}

// FullSignIn is the sign-in page with a provider of each kind.
func FullSignIn() SignIn { return fullSignIn() }

// ErrorTypes returns the ?error= types the pages know.
func ErrorTypes() []string {
	out := make([]string, 0, len(errorTypes))
	for typ := range errorTypes {
		out = append(out, typ)
	}
	return out
}

// ErrorMessageKeys returns the catalogue keys of the error types'
// sentences, and that of a type the pages do not know.
func ErrorMessageKeys() []string {
	out := []string{msgUnknown}
	for _, e := range errorTypes {
		out = append(out, e.message)
	}
	return out
}

// EveryPage returns every built-in page in each of its states, by name
// (everyPage).
func EveryPage() map[string]any { return everyPage() }

// CoreKeyCount returns the number of keys of the core catalogue.
func CoreKeyCount() int { return len(english) }
