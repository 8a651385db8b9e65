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
