package pages

// Contrast returns the contrast ratio of the text colour fg on the
// background bg (laid over white), and whether fg is opaque.
func Contrast(fg, bg string) (float64, bool) {
	b, _ := parseColor(bg)
	f, ok := parseColor(fg)
	return contrastRatio(f, b.overWhite()), ok && f.a == 255
}
