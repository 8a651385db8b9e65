package builtin

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// svgPath is the path data of a logo file.
var svgPath = regexp.MustCompile(`<path d="([^"]+)"/>`)

// TestIcons: every built-in provider with a logo file in
// providers/internal/gen/logos has that file's path data as its
// Style.Icon, whether its Defaults are generated or hand-written, and no
// other has an Icon; and every file is named after a built-in provider.
func TestIcons(t *testing.T) {
	dir := filepath.Join("..", "internal", "gen", "logos")
	files, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil || len(files) < 50 {
		t.Fatalf("%d logo files, %v", len(files), err)
	}
	want := map[string]string{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".svg")
		if _, ok := Lookup(providers.BuiltinID(id)); !ok {
			t.Errorf("%s: %q is not a built-in provider id", f, id)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := svgPath.FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no path", f)
		}
		want[id] = string(m[1])
	}
	n := 0
	for _, id := range IDs() {
		factory, _ := Lookup(id)
		op, ok := factory(Options{ClientID: "cid", ClientSecret: "secret", Issuer: "https://issuer.example"}).(providers.OAuthProvider)
		if !ok {
			continue
		}
		if got := op.OAuth().Style.Icon; got != want[string(id)] {
			t.Errorf("%s: Style.Icon is %.40q…, want the path of %s.svg, %.40q…", id, got, id, want[string(id)])
		}
		if want[string(id)] != "" {
			n++
		}
	}
	if n != len(want) {
		t.Errorf("%d providers have an icon, %d logo files", n, len(want))
	}
}
