// Package catalog holds the built-in messages of the pages, by language
// tag and then by key: the core ones, which package pages adds when it
// is initialized, and those of each feature, which the feature's own
// package adds when the feature is configured (its constructor or route
// builder). A feature's messages are package-level maps read only by the
// function that adds them, so a program that never turns the feature on
// links none of its text.
//
// The catalogue is copy on write: what Load returns is never changed, so
// the pages read it without a lock while features are added.
package catalog

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Catalogue is one feature's messages, added at most once. Its zero
// value is ready: a package keeps one as a package-level variable.
type Catalogue struct{ once sync.Once }

// Add adds the English and German messages, by key, the first time it
// is called; later calls do nothing. The maps are kept, not copied: they
// must never be changed after.
func (c *Catalogue) Add(english, german map[string]string) {
	c.once.Do(func() { add(english, german) })
}

var (
	mu      sync.Mutex // serializes add, so that no feature's messages are lost
	current atomic.Pointer[map[string]map[string]string]
)

func add(english, german map[string]string) {
	mu.Lock()
	defer mu.Unlock()
	next := map[string]map[string]string{}
	if cur := current.Load(); cur != nil {
		maps.Copy(next, *cur) // the languages' maps are shared: none is written once published
	}
	for tag, msgs := range map[string]map[string]string{"en": english, "de": german} {
		if next[tag] == nil {
			next[tag] = msgs // the first catalogue of a language is kept as it is
			continue
		}
		merged := make(map[string]string, len(next[tag])+len(msgs))
		maps.Copy(merged, next[tag])
		for k, m := range msgs {
			if old, ok := merged[k]; ok && old != m {
				conflicts = append(conflicts, fmt.Sprintf("%s %q: %q and %q", tag, k, old, m))
			}
			merged[k] = m
		}
		next[tag] = merged
	}
	current.Store(&next)
}

// conflicts are the keys two catalogues gave different messages, under
// mu. Two features may share a key only with the same text.
var conflicts []string

// Conflicts returns, one line each, the keys to which two catalogues
// added so far give different messages; none when every shared key has
// one text. A test that adds every catalogue checks it.
func Conflicts() []string {
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(conflicts)
}

// Load returns the messages added so far, by language tag ("en", "de")
// and then by key; nil before any. The caller must not change them.
func Load() map[string]map[string]string {
	if p := current.Load(); p != nil {
		return *p
	}
	return nil
}

// Check returns what is wrong with a catalogue's German: a key English
// has and German lacks, or the other way round, a message that is empty,
// or one whose fmt verbs differ from the English one's. None for a
// complete catalogue. The tests of each catalogue call it.
func Check(english, german map[string]string) []string {
	verb := regexp.MustCompile(`%[a-z]`)
	var out []string
	for k, en := range english {
		de, ok := german[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("German lacks %q", k))
		case strings.Join(verb.FindAllString(en, -1), " ") != strings.Join(verb.FindAllString(de, -1), " "):
			out = append(out, fmt.Sprintf("%q: German verbs %v, English %v", k, verb.FindAllString(de, -1), verb.FindAllString(en, -1)))
		case strings.TrimSpace(de) == "" || strings.TrimSpace(en) == "":
			out = append(out, fmt.Sprintf("%q: a message is empty", k))
		}
	}
	for k := range german {
		if _, ok := english[k]; !ok {
			out = append(out, fmt.Sprintf("German has %q, English does not", k))
		}
	}
	return out
}
