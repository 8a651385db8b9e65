package pages

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// The built-in providers' logos: the path data of logos/<id>.svg (see
// logos/README.md for their source, Simple Icons, CC0, and licence), one
// "<id> <path>" line per provider, sorted, gzipped. Stored so, they take
// 26 kB of every program instead of 65 kB; TestLogoArchive checks that
// the archive holds the files' paths, and rewrites it with -update.
//
//go:embed logos.gz
var logoArchive []byte

// logoPaths maps a provider id to its logo's SVG path data, on a 24×24
// grid. The pages draw it inline with fill="currentColor", so the logo
// takes the button's text colour, in both schemes.
var logoPaths = mustLoadLogos(logoArchive)

// pathData is what an SVG path's d attribute holds: commands, numbers,
// signs, points, commas and spaces. Checking it keeps the inline SVG to a
// drawing, whatever the archive holds.
var pathData = regexp.MustCompile(`^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\- ]+$`)

// mustLoadLogos reads the logo archive.
func mustLoadLogos(archive []byte) map[string]string {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		panic("pages: logos.gz: " + err.Error())
	}
	m := make(map[string]string, 64)
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<10)
	for sc.Scan() {
		id, d, ok := strings.Cut(sc.Text(), " ")
		if !ok || id == "" || !pathData.MatchString(d) {
			panic(fmt.Sprintf("pages: logos.gz: %.40q is not an id and a path", sc.Text()))
		}
		m[id] = d
	}
	if _, err := io.Copy(io.Discard, zr); sc.Err() != nil || err != nil {
		panic(fmt.Sprintf("pages: logos.gz: %v %v", sc.Err(), err))
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
