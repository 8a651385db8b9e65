package main

import (
	"go/format"
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
