package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestLogoNames: every logo file of the built-in pages is named after a
// built-in provider. (The pages' own tests cannot import this package:
// the providers' flows import the pages.)
func TestLogoNames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "pages", "logos", "*.svg"))
	if err != nil || len(files) < 50 {
		t.Fatalf("%d logo files, %v", len(files), err)
	}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".svg")
		if _, ok := Lookup(providers.BuiltinID(id)); !ok {
			t.Errorf("pages/logos/%s.svg: %q is not a built-in provider id", id, id)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "pages", "logos", "github.svg")); err != nil {
		t.Errorf("the GitHub logo: %v", err)
	}
}
