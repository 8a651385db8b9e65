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
// is called; later calls do nothing.
func (c *Catalogue) Add(english, german map[string]string) {
	c.once.Do(func() { add(english, german) })
}

// Set is messages by language tag and then by key, copy on write: what
// Load returns is never changed, so pages read it without a lock while
// messages are added. The zero value is empty and ready.
type Set struct {
	mu  sync.Mutex // serializes Add, so that no messages are lost
	cur atomic.Pointer[map[string]map[string]string]
}

// Add adds a copy of msgs to the messages of tag, replacing those of the
// same key; conflict, when not nil, is told of each key whose message
// changes (under the Set's lock).
func (s *Set) Add(tag string, msgs map[string]string, conflict func(key, old, new string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := map[string]map[string]string{}
	if cur := s.cur.Load(); cur != nil {
		maps.Copy(next, *cur) // the languages' maps are shared: none is written once published
	}
	merged := make(map[string]string, len(next[tag])+len(msgs))
	maps.Copy(merged, next[tag])
	for k, m := range msgs {
		if old, ok := merged[k]; ok && old != m && conflict != nil {
			conflict(k, old, m)
		}
		merged[k] = m
	}
	next[tag] = merged
	s.cur.Store(&next)
}

// Load returns the messages added so far, by language tag and then by
// key; nil before any. The caller must not change them.
func (s *Set) Load() map[string]map[string]string {
	if p := s.cur.Load(); p != nil {
		return *p
	}
	return nil
}

// builtin are the built-in messages: the core catalogue and the
// features' added so far.
var builtin Set

func add(english, german map[string]string) {
	for tag, msgs := range map[string]map[string]string{"en": english, "de": german} {
		builtin.Add(tag, msgs, func(k, old, m string) {
			conflictsMu.Lock()
			defer conflictsMu.Unlock()
			conflicts = append(conflicts, fmt.Sprintf("%s %q: %q and %q", tag, k, old, m))
		})
	}
}

// conflicts are the keys two catalogues gave different messages, under
// conflictsMu. Two features may share a key only with the same text.
var (
	conflictsMu sync.Mutex
	conflicts   []string
)

// Conflicts returns, one line each, the keys to which two catalogues
// added so far give different messages; none when every shared key has
// one text. A test that adds every catalogue checks it.
func Conflicts() []string {
	conflictsMu.Lock()
	defer conflictsMu.Unlock()
	return slices.Clone(conflicts)
}

// Load returns the built-in messages added so far, by language tag
// ("en", "de") and then by key; nil before any. The caller must not
// change them.
func Load() map[string]map[string]string { return builtin.Load() }

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
