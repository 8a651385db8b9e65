package pages

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/catalog"
)

// Language is the language a page is written in: its BCP 47 tag, which
// becomes the page's lang attribute, and its text direction, the dir
// attribute. The zero Language is English.
type Language struct {
	// Tag is the language tag, e.g. "en" or "de"; lower case.
	Tag string
	// Dir is "ltr" or "rtl".
	Dir string
}

// English is the default language, and the fallback for every message
// another language lacks.
var English = Language{Tag: "en", Dir: "ltr"}

// AddMessages adds the application's own messages for the language tag,
// by message key: they override the built-in ones, and a tag the pages
// do not ship (e.g. "fr") adds a language, chosen like the built-in ones.
// A key missing from a language falls back to the built-in message of
// that language, then of its base language ("pt" for "pt-br"), then to
// English. The keys are those of the English catalogue (see Text and
// Keys); a message with arguments has them as fmt verbs (%s, %d) in the
// same order as the English one.
//
// Messages added for a tag before are kept, those of the same key
// replaced; an empty tag adds nothing. AddMessages may be called at any time, while pages are
// rendered too: it copies messages, and the pages read a catalogue that
// is never changed once published (copy on write). Its messages take
// precedence over those of Messages.
//
//	pages.AddMessages("de", map[string]string{"signin.title": "Willkommen zurück"})
//	pages.AddMessages("fr", map[string]string{"signin.title": "Se connecter", "signin.with": "Se connecter avec %s"})
func AddMessages(tag string, messages map[string]string) {
	if tag = strings.ToLower(strings.TrimSpace(tag)); tag != "" {
		added.Add(tag, messages, nil)
	}
}

// added are the messages of AddMessages, by lower-case tag and then by
// key (a pointer, which a test replaces with an empty Set).
var added = new(catalog.Set)

// addedMessages returns the catalogue of AddMessages, nil for none.
func addedMessages() map[string]map[string]string { return added.Load() }

// Messages are the application's own messages, by language tag and then
// by message key, as AddMessages adds them.
//
// Deprecated: use AddMessages, which is safe while pages are rendered.
// Messages is read without a lock: an application that still sets it
// must do so before serving, and never change it (nor the maps in it)
// after.
var Messages map[string]map[string]string

// rtlLanguages are the base languages written right to left.
var rtlLanguages = map[string]bool{
	"ar": true, "arc": true, "ckb": true, "dv": true, "fa": true,
	"he": true, "iw": true, "ks": true, "ps": true, "sd": true,
	"ug": true, "ur": true, "yi": true,
}

// languageOf returns the Language of a tag: lower-cased, with its
// direction from its base language.
func languageOf(tag string) Language {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if tag == "" || tag == "en" {
		return English
	}
	dir := "ltr"
	if rtlLanguages[baseOf(tag)] {
		dir = "rtl"
	}
	return Language{Tag: tag, Dir: dir}
}

func baseOf(tag string) string {
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		return tag[:i]
	}
	return tag
}

// known reports whether tag, lower case, has messages: built-in, added
// or in Messages.
func known(tag string) bool {
	if _, ok := catalog.Load()[tag]; ok {
		return true
	}
	if _, ok := addedMessages()[tag]; ok {
		return true
	}
	for t := range Messages {
		if strings.EqualFold(t, tag) {
			return true
		}
	}
	return false
}

// Languages returns the tags of every language there are messages for:
// the built-in ones, those added (AddMessages) and those of Messages,
// sorted.
func Languages() []string {
	set := map[string]bool{}
	for t := range catalog.Load() {
		set[t] = true
	}
	for t := range addedMessages() {
		set[t] = true
	}
	for t := range Messages {
		set[strings.ToLower(t)] = true
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// LanguageFor picks a language for an Accept-Language header value: the
// visitor's preferences in order of their q values, each matched exactly
// (de-at to de-at), then by its base language (de-at to de); English when
// nothing matches. Tags with q=0 are ignored.
func LanguageFor(acceptLanguage string) Language {
	type pref struct {
		tag string
		q   float64
	}
	var prefs []pref
	for part := range strings.SplitSeq(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(part, ";")
		tag = strings.ToLower(strings.TrimSpace(tag))
		if tag == "" || tag == "*" || len(tag) > 35 {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		if q > 0 {
			prefs = append(prefs, pref{tag, q})
		}
		if len(prefs) == 32 {
			break
		}
	}
	sort.SliceStable(prefs, func(i, j int) bool { return prefs[i].q > prefs[j].q })
	for _, p := range prefs {
		if known(p.tag) {
			return languageOf(p.tag)
		}
		if b := baseOf(p.tag); known(b) {
			return languageOf(b)
		}
	}
	return English
}

// RequestLanguage is LanguageFor(r's Accept-Language header).
func RequestLanguage(r *http.Request) Language {
	return LanguageFor(r.Header.Get("Accept-Language"))
}

// Text returns the message key in the language tag, with args put in
// with fmt.Sprintf when there are any: from those added (AddMessages),
// else from Messages, else the built-in catalogue, for the tag, then its
// base language, then English. The built-in catalogue is the core one
// and those of the features configured so far (a feature's package adds
// its messages when it is configured). A key that none has comes back as
// itself.
func Text(tag, key string, args ...any) string {
	msg, ok := lookup(strings.ToLower(tag), key)
	if !ok {
		return key
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}

func lookup(tag, key string) (string, bool) {
	add, built := addedMessages(), catalog.Load() // one catalogue of each for the whole lookup
	for _, t := range []string{tag, baseOf(tag), "en"} {
		if t == "" {
			continue
		}
		if s, ok := add[t][key]; ok {
			return s, true
		}
		for mt, m := range Messages {
			if strings.EqualFold(mt, t) {
				if s, ok := m[key]; ok {
					return s, true
				}
			}
		}
		if s, ok := built[t][key]; ok {
			return s, true
		}
	}
	return "", false
}

// Keys returns every message key of the built-in English catalogue,
// sorted: those of the core pages and of the features configured so far
// in this program (organizations, administration, API keys, self-service,
// two-factor sign-in, password accounts, passkeys, e-mails), whose
// packages add their messages when the feature is configured.
func Keys() []string {
	en := catalog.Load()["en"]
	out := make([]string, 0, len(en))
	for k := range en {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
