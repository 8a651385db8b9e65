package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// TestDocsTable checks the generated table of docs/providers.md against
// the registry: every OAuth and OpenID Connect id is listed once, with
// its display name and type, and "_ISSUER (required)" exactly where the
// configuration does not validate without an issuer.
func TestDocsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "providers.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "<!-- The table is generated")
	table, _, ok2 := strings.Cut(table, "<!-- End of the generated table. -->")
	if !ok || !ok2 {
		t.Fatal("docs/providers.md: the generated table's marker lines are missing")
	}
	listed := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[0]), "`") {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		id := strings.Trim(cells[0], "`")
		if _, dup := listed[id]; dup {
			t.Errorf("%s is listed twice", id)
		}
		listed[id] = cells
	}
	for _, id := range IDs() {
		if !id.IsOAuth() {
			continue
		}
		cells, ok := listed[string(id)]
		if !ok {
			t.Errorf("%s is not in the table (go generate ./... writes it)", id)
			continue
		}
		delete(listed, string(id))
		factory, _ := Lookup(id)
		o := factory(Options{ClientID: "cid", ClientSecret: "secret"}).(providers.OAuthProvider).OAuth()
		required := o.Issuer == "" && o.WellKnown == "" && o.Validate() != nil
		if cells[1] != o.Name || cells[2] != string(o.Type) || strings.Contains(cells[3], "(required)") != required {
			t.Errorf("%s: the table says %q, want name %q, type %q, issuer required %v", id, cells[1:], o.Name, o.Type, required)
		}
	}
	for id := range listed {
		t.Errorf("%s is in the table but not registered", id)
	}
}
