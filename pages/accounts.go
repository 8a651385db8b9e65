package pages

import (
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Accounts is the linked accounts page: the providers linked to the
// signed-in user, each with a button that unlinks it unless it is the
// user's last way to sign in, then a button per provider that could be
// linked. Linking is a sign-in with that provider started from this page,
// by this browser's session.
type Accounts struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// CallbackURL is where to land once linked, usually this page: each
	// link form sends it as the hidden callbackUrl field with
	// linked=<provider id> added to its query, so that the page can say
	// what was linked.
	CallbackURL string
	// Linked are the user's linked accounts.
	Linked []LinkedAccount
	// Link are the OAuth and OIDC providers not linked yet, as on the
	// sign-in page (their SigninURL: {base}/signin/{id}).
	Link []Button
	// Notice, when set, is a message about what just happened ("Linked
	// GitHub."), shown as a status above the list.
	Notice string
	// Error, when set, is a message about what could not be done, shown
	// as an alert above the list.
	Error string
	// HomeURL, when set, is linked as "Back".
	HomeURL string
	// Ways are the user's other ways to sign in, which are not linked
	// accounts ("Password", "Email link", "2 passkeys"), listed under the
	// accounts so that the page shows every way in.
	Ways []string
	// Confirm, when set, asks the user to confirm an unlinking first.
	Confirm *UnlinkConfirm
}

// UnlinkConfirm asks to confirm the unlinking of one account, saying what
// remains.
type UnlinkConfirm struct {
	// Name is the provider's display name.
	Name string
	// UnlinkURL is where the confirmation POSTs (with confirm=yes);
	// CancelURL where "Cancel" leads, the accounts page.
	UnlinkURL, CancelURL string
	// Remaining are the ways to sign in that are left after it.
	Remaining []string
}

// LinkedAccount is one linked account on the Accounts page.
type LinkedAccount struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name; ID when empty.
	Name string
	// AccountID is the account's id at the provider; the page shows it
	// shortened.
	AccountID string
	// Style gives the provider's colours and logo, as on its sign-in
	// button (see Button.Style).
	Style providers.Style
	// UnlinkURL is where the account's Unlink form POSTs:
	// {base}/accounts/unlink/{id}. Empty means the account cannot be
	// unlinked, being the user's last way to sign in: the page says so
	// instead of offering the button.
	UnlinkURL string
}

// The views of the accounts page's component.
type (
	accountsView struct {
		CSRFToken, Notice, Error, HomeURL string
		Linked                            []linkedView
		Link                              []linkView
		Ways                              []string
		Confirm                           *UnlinkConfirm
	}
	// linkView is a provider's Link button; Callback its callbackUrl.
	linkView struct {
		buttonView
		Callback string
	}
	linkedView struct {
		Mark                   buttonView // the provider's logo, in its colours
		AccountID, ShortID     string
		UnlinkURL, UnlinkLabel string
	}
)

func (value Accounts) document(lang Language) *document {
	p := &value
	v := &accountsView{CSRFToken: p.CSRFToken, Notice: p.Notice, Error: p.Error, HomeURL: p.HomeURL, Ways: p.Ways, Confirm: p.Confirm}
	rules := []string{
		".linked { display: flex; align-items: center; gap: .75rem; padding: .75rem 0; border-top: 1px solid var(--border); }",
		".linked .who { flex: 1; min-width: 0; margin: 0; overflow-wrap: anywhere; }",
		".linked .btn { width: auto; }",
		".mark { display: inline-flex; flex: none; align-items: center; justify-content: center; width: 2.25rem; height: 2.25rem; border-width: 1px; border-style: solid; border-radius: 8px; }",
		".notice { margin: 0 0 1.5rem; padding: .75rem 1rem; font-size: .9375rem; border: 1px solid var(--border); border-left: 4px solid var(--brand); border-radius: 8px; }",
		"h2 { margin: 1.5rem 0 .75rem; font-size: 1rem; font-weight: 600; }",
		".notice h2 { margin-top: 0; }",
	}
	var origins []string
	class := 0
	view := func(id, name string, style providers.Style) buttonView {
		class++
		return mark(class-1, id, name, style, &rules, &origins)
	}
	for _, a := range p.Linked {
		mark := view(a.ID, a.Name, a.Style)
		lv := linkedView{Mark: mark, AccountID: a.AccountID, ShortID: shortID(a.AccountID), UnlinkURL: a.UnlinkURL}
		lv.UnlinkLabel = Text(lang.Tag, "accounts.unlinkName", mark.Name)
		v.Linked = append(v.Linked, lv)
	}
	for _, b := range p.Link {
		bv := view(b.ID, b.Name, b.Style)
		bv.SigninURL = b.SigninURL
		v.Link = append(v.Link, linkView{buttonView: bv, Callback: withQuery(p.CallbackURL, "linked", b.ID)})
	}
	d := newDocument(lang, p.Theme, Text(lang.Tag, "accounts.title"), rules, accountsContent(lang.Tag, v))
	for _, o := range origins {
		d.addOrigin(o)
	}
	return d
}

// shortID shortens a provider's account id for display: ids of up to 16
// characters as they are, longer ones as their first 8 and last 4
// characters around an ellipsis.
func shortID(id string) string {
	r := []rune(id)
	if len(r) <= 16 {
		return id
	}
	return string(r[:8]) + "…" + string(r[len(r)-4:])
}

// withQuery returns u without its fragment and with key=value added to
// its query, or "" when u is empty.
func withQuery(u, key, value string) string {
	if u == "" {
		return ""
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + url.QueryEscape(key) + "=" + url.QueryEscape(value)
}

// unlinkText is the unlink confirmation's sentence: the account will no
// longer sign in, and which ways remain.
func unlinkText(tag string, c *UnlinkConfirm) string {
	s := Text(tag, "accounts.noLonger", c.Name)
	if len(c.Remaining) > 0 {
		s += Text(tag, "accounts.stillWith", strings.Join(c.Remaining, ", "))
	}
	return s
}

// spaced returns class with a space before it, or "" for none: the
// colour class after a button's fixed classes.
func spaced(class string) string {
	if class == "" {
		return ""
	}
	return " " + class
}
