package catalog

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestAdd adds catalogues the way features do, from several goroutines
// while others read, as two Handlers configured at once may: under -race
// it fails if the catalogue is written while read. Each catalogue is
// added once however often Add is called, no key is lost, a published
// catalogue never changes, and a shared key with two texts is reported.
func TestAdd(t *testing.T) {
	firstEN := map[string]string{"test.first": "First"}
	var first Catalogue
	first.Add(firstEN, map[string]string{"test.first": "Erste"})
	before := Load()
	beforeEN := len(before["en"])
	const n = 8
	cats := make([]Catalogue, n)
	var wg sync.WaitGroup
	for i := range n {
		en := map[string]string{fmt.Sprintf("test.k%d", i): fmt.Sprintf("English %d", i), "test.shared": "Same"}
		de := map[string]string{fmt.Sprintf("test.k%d", i): fmt.Sprintf("Deutsch %d", i), "test.shared": "Gleich"}
		for range 3 {
			wg.Go(func() { cats[i].Add(en, de) })
		}
		wg.Go(func() {
			for range 100 {
				m := Load()
				_ = m["en"]["test.k0"] + m["de"]["test.shared"]
			}
		})
	}
	wg.Wait()
	got := Load()
	for i := range n {
		k := fmt.Sprintf("test.k%d", i)
		if got["en"][k] != fmt.Sprintf("English %d", i) || got["de"][k] != fmt.Sprintf("Deutsch %d", i) {
			t.Errorf("%s lost: %q, %q", k, got["en"][k], got["de"][k])
		}
	}
	if len(got["en"]) != beforeEN+n+1 {
		t.Errorf("%d English keys, want %d", len(got["en"]), beforeEN+n+1)
	}
	if len(before["en"]) != beforeEN || len(firstEN) != 1 {
		t.Error("a published catalogue was changed")
	}
	if c := Conflicts(); len(c) != 0 {
		t.Errorf("conflicts %v", c)
	}
	var other Catalogue
	other.Add(map[string]string{"test.shared": "Different"}, map[string]string{"test.shared": "Gleich"})
	if c := Conflicts(); len(c) != 1 || !strings.Contains(c[0], `"test.shared"`) || !strings.HasPrefix(c[0], "en ") {
		t.Errorf("conflicts %v, want the English test.shared", c)
	}
}

// TestCheck finds a missing key on each side, different verbs and an
// empty message, and nothing in a complete catalogue.
func TestCheck(t *testing.T) {
	if p := Check(map[string]string{"a": "A %s", "b": "B"}, map[string]string{"a": "X %s", "b": "Y"}); len(p) != 0 {
		t.Errorf("a complete catalogue: %v", p)
	}
	p := Check(map[string]string{"a": "A %s", "b": "B", "c": "C"}, map[string]string{"a": "X %d", "c": " ", "d": "D"})
	want := []string{`"a": German verbs`, `German lacks "b"`, `"c": a message is empty`, `German has "d"`}
	if len(p) != len(want) {
		t.Fatalf("problems %v, want %d", p, len(want))
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(p, "\n"), w) {
			t.Errorf("no %q in %v", w, p)
		}
	}
}
