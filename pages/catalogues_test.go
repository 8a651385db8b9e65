package pages_test

import (
	"bytes"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/adminflow"
	"github.com/gatehouse-auth/gatehouse/internal/catalog"
	"github.com/gatehouse-auth/gatehouse/internal/keyflow"
	"github.com/gatehouse-auth/gatehouse/internal/orgflow"
	"github.com/gatehouse-auth/gatehouse/internal/passkeyflow"
	"github.com/gatehouse-auth/gatehouse/internal/selfservice"
	"github.com/gatehouse-auth/gatehouse/internal/twofactorflow"
	"github.com/gatehouse-auth/gatehouse/mail"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers/passwordaccount"
)

// Every test of package pages, internal or external, may render the
// pages of any feature: the test binary adds the messages of every
// feature first, as a program that turns every one on does.
func init() {
	orgflow.AddMessages()
	adminflow.AddMessages()
	keyflow.AddMessages()
	selfservice.AddMessages()
	twofactorflow.AddMessages()
	passkeyflow.AddMessages()
	mail.NewData(mail.KindSignIn, "en", "a@example.com", "example.com", "https://example.com/l", time.Time{}) // package mail adds its messages
	passwordaccount.Config{}.Prepare()                                                                        // as does Prepare, which NewService and NewFlow call
}

// sameInGerman are the English messages that are the same word in German,
// by key: the untranslated-text check skips them.
var sameInGerman = map[string]bool{
	"field.name":      true, // "Name"
	"ways.passkey":    true, // "Passkey"
	"admin.roleAdmin": true, // "Administrator"
	"org.teams":       true, // "Teams"
}

// verbs returns a message's fmt verbs, in order.
func verbs(s string) []string { return regexp.MustCompile(`%[a-z]`).FindAllString(s, -1) }

// TestCatalogueComplete checks the catalogue of a program that turns
// every feature on: no two features give a shared key different texts,
// every key the templates and the Go code use is in it, and every key in
// it is used. (Each catalogue's German is checked in its own package.)
func TestCatalogueComplete(t *testing.T) {
	english := catalog.Load()["en"]
	if n, core := len(english), pages.CoreKeyCount(); n < 2*core {
		t.Fatalf("%d keys with every feature, %d without", n, core)
	}
	for _, k := range []string{"org.create", "admin.ban", "keys.create", "accounts.title", "tfsetup.turnOn", "webauthn.failed", "mail.signin.button", "passwordflow.continue"} {
		if pages.Text("de", k) == k || pages.Text("en", k) == k {
			t.Errorf("%s was not added", k)
		}
	}
	if c := catalog.Conflicts(); len(c) != 0 {
		t.Errorf("keys with two texts: %v", c)
	}
	// The keys used: Text(tag, "key") in the templ components,
	// Text(lang.Tag, "key") and the error keys in the Go code.
	used := map[string]bool{}
	tmpls, _ := filepath.Glob("*.templ")
	goFiles, _ := filepath.Glob("*.go")
	outside, _ := filepath.Glob("../internal/*/*.go")
	kinds, _ := filepath.Glob("../providers/*/*.go") // the flows the providers build
	rootFiles, _ := filepath.Glob("../*.go")
	goFiles = append(append(append(goFiles, outside...), kinds...), rootFiles...)
	for _, f := range append(tmpls, goFiles...) {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_templ.go") || filepath.Base(f) == "messages.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, re := range []*regexp.Regexp{
			regexp.MustCompile(`Text\((?:tag|l\.Lang), "([^"]+)"`),
			regexp.MustCompile(`Text\(lang\.Tag, "([^"]+)"`),
			regexp.MustCompile(`Text\(r, "([^"]+)"`),
			regexp.MustCompile(`"((?:selfservice|passwordflow|wrong|ways|device|org|admin|keys)\.[A-Za-z]+)"`),
			regexp.MustCompile(`return "(error\.heading\.[^"]+)"`),
		} {
			for _, m := range re.FindAllSubmatch(b, -1) {
				if bytes.HasSuffix(m[1], []byte(".")) {
					continue // a prefix: "passwordflow.err."+code
				}
				used[string(m[1])] = true
			}
		}
	}
	// The e-mails' keys: "mail.until", and "mail."+kind+"."+part for
	// each Kind and each part NewData looks up (package mail).
	mailGo, err := os.ReadFile("../mail/mail.go")
	if err != nil {
		t.Fatal(err)
	}
	used["mail.until"] = bytes.Contains(mailGo, []byte(`"mail.until"`))
	for _, kind := range regexp.MustCompile(`Kind = "(\w+)"`).FindAllSubmatch(mailGo, -1) {
		for _, part := range regexp.MustCompile(`key\+"(\w+)"`).FindAllSubmatch(mailGo, -1) {
			used["mail."+string(kind[1])+"."+string(part[1])] = true
		}
	}
	// passwordaccount.FormError's codes, looked up as "passwordflow.err."+code.
	for k := range english {
		if strings.HasPrefix(k, "passwordflow.err.") {
			used[k] = true
		}
	}
	for _, k := range pages.ErrorMessageKeys() {
		used[k] = true
	}
	if len(used) < 50 {
		t.Fatalf("found only %d keys in use; the patterns are out of date", len(used))
	}
	for k := range used {
		if _, ok := english[k]; !ok {
			t.Errorf("key %q is used but not in the catalogue", k)
		}
	}
	for k := range english {
		if !used[k] {
			t.Errorf("key %q is in the catalogue but never used", k)
		}
	}
}

var (
	skipElements = regexp.MustCompile(`(?s)<(style|script)>.*?</(style|script)>`)
	attrText     = regexp.MustCompile(`\s(?:alt|aria-label|placeholder|title|data-msg-[a-z]+)="([^"]*)"`)
	tags         = regexp.MustCompile(`<[^>]*>`)
)

// visibleText returns what a reader or a screen reader gets of a page:
// the text, the alt, aria-label, placeholder and title attributes, and
// the passkey script's messages (data-msg-*).
func visibleText(page string) string {
	page = skipElements.ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range attrText.FindAllStringSubmatch(page, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	b.WriteString(html.UnescapeString(tags.ReplaceAllString(page, "\n")))
	return b.String()
}

// TestEveryPageInGerman renders every built-in page in German and finds
// none of the English messages in it (nor a message key, the sign of a
// missing message), and finds the German lang attribute.
func TestEveryPageInGerman(t *testing.T) {
	english := catalog.Load()["en"]
	// What must not appear: every English message of at least four
	// characters that German does not share, and the literal parts of
	// those with arguments, of at least five.
	type needle struct{ key, text string }
	var needles []needle
	for k, en := range english {
		if sameInGerman[k] {
			continue
		}
		if len(verbs(en)) == 0 {
			if len(strings.TrimSpace(en)) >= 4 {
				needles = append(needles, needle{k, strings.TrimSpace(en)})
			}
			continue
		}
		for _, part := range regexp.MustCompile(`%[a-z]`).Split(en, -1) {
			if part = strings.TrimSpace(strings.Trim(strings.TrimSpace(part), ".?:")); len(part) >= 5 {
				needles = append(needles, needle{k, part})
			}
		}
	}
	sort.Slice(needles, func(i, j int) bool { return needles[i].key < needles[j].key })
	keys := pages.Keys()
	all := pages.EveryPage()
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		rec := httptest.NewRecorder()
		if err := pages.RenderIn(rec, pages.Language{Tag: "de"}, 0, all[name]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		body := rec.Body.String()
		if !strings.Contains(body, `<html lang="de" dir="ltr"`) {
			t.Errorf("%s: no German lang attribute", name)
		}
		text := visibleText(body)
		for _, n := range needles {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(n.text) + `\b`).MatchString(text) {
				t.Errorf("%s: English %q (%s) in the German page", name, n.text, n.key)
			}
		}
		for _, k := range keys {
			if strings.Contains(text, k) {
				t.Errorf("%s: message key %q shown", name, k)
			}
		}
		// The same page in English shows no German: the English messages
		// are used, not a stale German template set.
		rec = httptest.NewRecorder()
		if err := pages.Render(rec, 0, all[name]); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(rec.Body.String(), "Anmeld") {
			t.Errorf("%s: German in the English page", name)
		}
		for lang, page := range map[string]string{"en": rec.Body.String(), "de": body} {
			if strings.Contains(page, "%!") {
				t.Errorf("%s: a message's arguments do not fit it (%s)", name, lang)
			}
			en := visibleText(page)
			for _, k := range keys {
				if strings.Contains(en, k) {
					t.Errorf("%s: message key %q shown (%s)", name, k, lang)
				}
			}
		}
	}
}
