package main

import (
	"go/format"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCatalog checks the table's rows and that the code written from
// each is valid Go with the header that marks generated files.
func TestCatalog(t *testing.T) {
	if err := check(catalog); err != nil {
		t.Fatal(err)
	}
	for _, p := range catalog {
		src := providerFile(p)
		if !strings.HasPrefix(string(src), "// Code generated ") || !strings.Contains(string(src), "DO NOT EDIT.\n") {
			t.Errorf("%s: no generated-code header", p.ID)
		}
		if _, err := format.Source(src); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
		if p.Map == "hook" && !strings.Contains(string(src), "mapProfile(ctx, p, tokens)") {
			t.Errorf("%s: the hook is not called", p.ID)
		}
	}
	for _, src := range [][]byte{idsFile(catalog), registryFile(catalog)} {
		if _, err := format.Source(src); err != nil {
			t.Error(err)
		}
	}
}

// TestCheckRefuses: rows out of order, twice, or without a kind are
// refused before any file is written.
func TestCheckRefuses(t *testing.T) {
	a := Provider{ID: "a", Package: "a", Const: "A", Name: "A", Kind: "oauth"}
	b := Provider{ID: "b", Package: "b", Const: "B", Name: "B", Kind: "oidc"}
	noKind := b
	noKind.Kind = ""
	for name, rows := range map[string][]Provider{
		"out of order": {b, a},
		"twice":        {a, a},
		"no kind":      {a, noKind},
	} {
		if check(rows) == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := check([]Provider{a, b}); err != nil {
		t.Errorf("good rows: %v", err)
	}
}

// TestIcons: every logo in logos/ is small, listed in logos/README.md
// with its source, and read; a provider with a logo gets the Icon
// constant and a generated Defaults sets Style.Icon to it.
func TestIcons(t *testing.T) {
	icons, err := loadIcons("logos", catalog)
	if err != nil {
		t.Fatal(err)
	}
	if len(icons) < 50 {
		t.Errorf("only %d logos", len(icons))
	}
	readme, err := os.ReadFile(filepath.Join("logos", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for id := range icons {
		if !strings.Contains(string(readme), "| `"+id+"` |") {
			t.Errorf("logos/%s.svg is not listed in logos/README.md", id)
		}
		if fi, err := os.Stat(filepath.Join("logos", id+".svg")); err != nil || fi.Size() > 8<<10 {
			t.Errorf("logos/%s.svg: %v, size over 8 KiB", id, err)
		}
	}
	for _, p := range catalog {
		if p.ID != "discord" {
			continue
		}
		p.Icon = icons[p.ID]
		src := string(providerFile(p))
		if !strings.Contains(src, "\tIcon = "+strconv.Quote(icons["discord"])+"\n") || !strings.Contains(src, "Icon: Icon}") {
			t.Errorf("discord: the Icon constant or its use is missing:\n%s", src)
		}
	}
}

// TestLoadIconsRefuses: a logo named after no provider, or that is not
// a single path of path data, is refused.
func TestLoadIconsRefuses(t *testing.T) {
	rows := []Provider{{ID: "a"}}
	for name, svg := range map[string]string{
		"a.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0z" onload="x"/></svg>`,
		"b.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0z"/></svg>`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(svg), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := loadIcons(dir, rows); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>`+"\n"), 0o644)
	if icons, err := loadIcons(dir, rows); err != nil || icons["a"] != "M0 0h24v24H0z" {
		t.Errorf("a good logo: %v, %v", icons, err)
	}
}
