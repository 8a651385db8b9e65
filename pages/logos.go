package pages

import (
	"embed"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// The built-in providers' logos, one <id>.svg per provider id; see
// logos/README.md for their source (Simple Icons, CC0) and licence.
//
//go:embed logos/*.svg
var logoFiles embed.FS

// logoPaths maps a provider id to its logo's SVG path data, on a 24×24
// grid. The pages draw it inline with fill="currentColor", so the logo
// takes the button's text colour, in both schemes.
var logoPaths = mustLoadLogos()

var (
	// logoFile is the only form a logo file may have: one path on the
	// 24×24 grid.
	logoFile = regexp.MustCompile(`^<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="([^"]+)"/></svg>\n?$`)
	// pathData is what an SVG path's d attribute holds: commands,
	// numbers, signs, points, commas and spaces. Checking it keeps the
	// inline SVG to a drawing, whatever a file holds.
	pathData = regexp.MustCompile(`^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\- ]+$`)
)

func mustLoadLogos() map[string]string {
	entries, err := logoFiles.ReadDir("logos")
	if err != nil {
		panic(err)
	}
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".svg")
		b, err := logoFiles.ReadFile(path.Join("logos", e.Name()))
		if err != nil {
			panic(err)
		}
		sub := logoFile.FindSubmatch(b)
		if sub == nil || !pathData.Match(sub[1]) {
			panic(fmt.Sprintf("pages: logos/%s is not a single 24x24 SVG path", e.Name()))
		}
		m[id] = string(sub[1])
	}
	return m
}

// HasLogo reports whether the default sign-in page has a built-in logo
// for the provider id (e.g. "github"). Providers without one show a badge
// with their initial unless their Style.Logo is set.
func HasLogo(id string) bool {
	_, ok := logoPaths[id]
	return ok
}
