package pages

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Theme is the look of every page: Auth.js's theme option.
type Theme struct {
	// ColorScheme is "auto" (the default: follow the visitor's system
	// setting), "light" or "dark". Any other value means "auto".
	ColorScheme string
	// BrandColor is the accent colour: primary buttons, and links and
	// focus rings where it is readable. A hex colour or CSS colour name
	// (see ValidColor); anything else is ignored.
	BrandColor string
	// Logo is the URL of the site's logo, shown above the card: a path on
	// this site, an http(s) URL or a data:image URL. Other schemes are
	// ignored.
	Logo string
	// ButtonText is the text colour on BrandColor buttons. When empty,
	// invalid, or contrasting with BrandColor by less than WCAG's 4.5:1,
	// white is used, or black where white falls short (Validate
	// reports the last two).
	ButtonText string
}

// Button is one OAuth or OIDC provider's "Sign in with <Name>" button.
type Button struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name.
	Name string
	// SigninURL is where the button POSTs: {base}/signin/{id}.
	SigninURL string
	// Style colours the button: Style.Background() (invalid colours are
	// ignored; none gives a plain button with a border), Style.Text when
	// it is valid and contrasts with the background by at least 4.5:1
	// (else white, or black where white falls short), and Style.Logo
	// (else Style.Icon drawn in the text colour, as the built-in
	// providers set it, else a badge with the name's first letter).
	Style providers.Style
}

// Field is one input of a credentials form.
type Field struct {
	// Name is the form field's name, as the provider's authorize function
	// reads it.
	Name string
	// Label is the visible label; Name when empty.
	Label string
	// Type is the input type: text (the default), password, email, tel,
	// number, url, search or date. Other values mean text.
	Type string
	// Placeholder is the input's placeholder text, if any.
	Placeholder string
	// Autocomplete is the input's autocomplete token, e.g. "username" or
	// "current-password", if any.
	Autocomplete string
	// Required marks the input as required.
	Required bool
}

// EmailForm is an e-mail (magic link) provider's form.
type EmailForm struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name, for "Sign in with <Name>".
	Name string
	// SigninURL is where the form POSTs: {base}/signin/{id}.
	SigninURL string
}

// CredentialsForm is a credentials provider's form.
type CredentialsForm struct {
	// ID is the provider id.
	ID string
	// Name is the provider's display name, for "Sign in with <Name>".
	Name string
	// CallbackURL is where the form POSTs: {base}/callback/{id}.
	CallbackURL string
	// Fields are the form's inputs, in order.
	Fields []Field
}

// SignIn is the sign-in page: the OAuth providers' buttons, then the
// other providers' forms (Forms), with "or" between them.
type SignIn struct {
	// Theme is the page's look.
	Theme Theme
	// Title is the heading and the document title; "Sign in" when empty.
	Title string
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// CallbackURL, when set, goes into every form as the hidden
	// callbackUrl field: where to land after signing in.
	CallbackURL string
	// Error is the ?error= type, e.g. "OAuthAccountNotLinked"; "" for
	// none. When set, a banner shows ErrorMessage(Error).
	Error string
	// Failed, when set with Error, is the id of the credentials or
	// password provider whose form was refused: its inputs are marked
	// invalid (aria-invalid) and described by the error shown in the
	// form (aria-describedby), and keep Values.
	Failed string
	// Values are what was typed into Failed's form, by field name. A
	// password input is never filled.
	Values map[string]string
	// OAuth are the OAuth and OIDC providers' buttons.
	OAuth []Button
	// Forms are the other providers' forms, in provider order: each an
	// EmailForm, CredentialsForm, PasswordForm or WebAuthnForm. The page
	// shows the e-mail forms first, then the credentials, password and
	// passkey forms, each kind in the order of Forms; nil entries are
	// skipped.
	Forms []Form
}

// SignOut is the sign-out confirmation page.
type SignOut struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into the form as the hidden csrfToken field.
	CSRFToken string
	// SignOutURL is where the form POSTs: {base}/signout.
	SignOutURL string
	// CallbackURL, when set, goes into the form as the hidden callbackUrl
	// field: where to land after signing out.
	CallbackURL string
	// HomeURL, when set, is linked as "Cancel": the way out for someone
	// who does not want to sign out after all.
	HomeURL string
}

// Error is the error page.
type Error struct {
	// Theme is the page's look.
	Theme Theme
	// Type is the ?error= type; it picks the heading and ErrorMessage's
	// sentence.
	Type string
	// Code is a detail for support, shown small (e.g. "state_mismatch");
	// the page shows Type when Code is empty.
	Code string
	// SignInURL, when set, is linked as "Sign in".
	SignInURL string
	// HomeURL, when set, is linked as "Go to the home page".
	HomeURL string
	// BanReason and BanExpires, for Type "Banned", are the ban's reason
	// (when its administrator chose to show it) and when it ends, as
	// shown; "" for none.
	BanReason, BanExpires string
}

// VerifyRequest is the "Check your email" page shown after an e-mail
// sign-in link was sent.
type VerifyRequest struct {
	// Theme is the page's look.
	Theme Theme
	// HomeURL, when set, is linked as "Back to <Host>".
	HomeURL string
	// Host is the site's host name, for the link's text.
	Host string
}

// Sessions is the session management page: the signed-in user's
// sessions, each but this browser's with a button that ends it, and one
// that ends every other.
type Sessions struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Sessions are the user's sessions, this browser's first.
	Sessions []SessionRow
	// RevokeURL is where a session's form POSTs its id:
	// {base}/sessions/revoke. RevokeOthersURL is where the "everywhere
	// else" form POSTs: {base}/sessions/revoke-others; RevokeAllURL the
	// "everywhere" one, this browser included: {base}/sessions/revoke-all.
	RevokeURL, RevokeOthersURL, RevokeAllURL string
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

// SessionRow is one session on the Sessions page.
type SessionRow struct {
	// ID names the session in the revoke form.
	ID string
	// Provider names the provider the session signed in with, if
	// recorded: its display name, as the Accounts page shows it.
	Provider string
	// Device is the coarse description of the browser that made the
	// session ("Firefox on Linux"), if recorded.
	Device string
	// Created and LastSeen are when the session was made and last
	// extended, as shown; empty when not recorded.
	Created, LastSeen string
	// Expires is when the session ends unless used, as shown.
	Expires string
	// Current marks this browser's session.
	Current bool
}

// styleSheet is the fixed part of every page's CSS.
//
//go:embed templates/style.css
var styleSheet string

// supported returns lang when there are messages for its tag, else its
// base language when there are for that, else English: what a page is
// rendered in.
func supported(lang Language) Language {
	tag := strings.ToLower(strings.TrimSpace(lang.Tag))
	switch {
	case tag == "" || tag == "en":
		return English
	case known(tag):
		return languageOf(tag)
	case known(baseOf(tag)):
		return languageOf(baseOf(tag))
	}
	return English
}

// Render writes page, one of SignIn, SignOut, Error, VerifyRequest,
// Sessions, Accounts, TwoFactorChallenge, TwoFactorSetup, Password,
// Notice, Invitation, Organization, Organizations, AdminUsers, AdminUser or APIKeys (or a pointer to one), as a complete HTML document with the
// given status (0 means 200).
//
// It sets Content-Type text/html; charset=utf-8 and these security
// headers:
//
//   - Content-Security-Policy: default-src 'none', so no script runs and
//     nothing loads that is not allowed below (a sign-in page with
//     passkeys adds script-src with its one script's hash, and
//     connect-src 'self' for that script's requests); style-src with the SHA-256
//     hash of the page's one <style> element (a hash rather than a nonce
//     keeps the output byte-for-byte reproducible); img-src 'self' and
//     data: plus the origins of the logos the page shows, since only
//     logos the application configured are loaded; base-uri 'none';
//     frame-ancestors 'none'. There is no form-action: browsers apply it
//     to the redirect that follows a form POST, and the sign-in buttons'
//     POST is answered with a redirect to the provider.
//   - X-Frame-Options: DENY (frame-ancestors for older browsers),
//     Referrer-Policy: no-referrer, X-Content-Type-Options: nosniff and
//     Cache-Control: no-store.
//
// The page is rendered into memory first: when Render returns an error
// before anything was written (an unknown page type, an invalid status),
// the caller can still send its own answer.
func Render(w http.ResponseWriter, status int, page any) error {
	return RenderIn(w, English, status, page)
}

// RenderIn is Render in the language lang: every word of the page comes
// from the message catalogue (Text) in that language, and the page's
// lang and dir attributes are lang's. A language there are no messages
// for falls back to its base language, then to English. Choose lang with
// RequestLanguage, or however the application likes; text the caller
// puts in a page (a title, a notice, a provider's name) is shown as
// given.
func RenderIn(w http.ResponseWriter, lang Language, status int, page any) error {
	return RenderWithBanner(w, lang, status, page, nil)
}

// Banner is the notice every built-in page shows above its card while an
// administrator sees the site as another user (impersonation), with the
// form that ends it.
type Banner struct {
	// User names whom the administrator sees the site as.
	User string
	// StopURL is where the stop form posts, with CSRFToken.
	StopURL, CSRFToken string
}

// RenderWithBanner is RenderIn with b shown above the page (nil: none).
func RenderWithBanner(w http.ResponseWriter, lang Language, status int, page any, b *Banner) error {
	if status == 0 {
		status = http.StatusOK
	}
	if status < 200 || status > 599 {
		return fmt.Errorf("pages: invalid status %d for a page", status)
	}
	lang = supported(lang)
	d, err := build(page, lang)
	if err != nil {
		return err
	}
	d.layout.Banner = b
	var buf bytes.Buffer
	if err := base(&d.layout, d.body).Render(context.Background(), &buf); err != nil {
		return fmt.Errorf("pages: rendering %T: %w", page, err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", d.csp())
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, err = w.Write(buf.Bytes())
	return err
}

// document is a page ready to render: the layout around it, its own
// content, and the image origins its CSP must allow.
type document struct {
	layout    layout
	body      templ.Component
	imgOrigin []string
}

// layout is what the base component puts around every page.
type layout struct {
	Lang, Dir  string // <html lang dir>
	Scheme     string // class on <html>: auto, light or dark
	MetaScheme string // <meta name="color-scheme">
	Title      string
	CSS        string  // the whole <style> element's content
	Logo       string  // the site logo, checked by imageSource; "" for none
	Script     string  // the page's one <script>; "" for none (webauthn.go)
	Banner     *Banner // the impersonation notice; nil for none
}

// csp returns the Content-Security-Policy header value.
func (d *document) csp() string {
	sum := sha256.Sum256([]byte(d.layout.CSS))
	img := append([]string{"'self'", "data:"}, d.imgOrigin...)
	js := ""
	if d.layout.Script != "" {
		// The passkey script, by its hash, and its fetches to this origin.
		js = "; script-src " + scriptSource(d.layout.Script) + "; connect-src 'self'"
	}
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; img-src " + strings.Join(img, " ") + js + "; base-uri 'none'; frame-ancestors 'none'"
}

// The views of the pages' components.
type (
	signInView struct {
		Title, CSRFToken, CallbackURL string
		Error                         string // the banner's sentence

		Sections []templ.Component // the buttons, then each form
	}
	buttonView struct {
		Name, SigninURL string
		Class           string // the colour class, "" for a plain button
		Logo            string // the Style.Logo image, checked by imageSource, if any
		Icon            string // else Style.Icon's SVG path data, if any
		Initial         string // else the badge's letter
	}
	emailView struct {
		Name, SigninURL, InputID string
	}
	credentialsView struct {
		Name, CallbackURL string
		Fields            []fieldView
		ErrorID           string // after a refusal (SignIn.Failed)
	}
	fieldView struct {
		ID, Name, Label, Type, Placeholder, Autocomplete string
		Required, Autofocus                              bool
		Value, ErrorID                                   string // after a refusal (SignIn.Failed)
	}
	signOutView struct {
		CSRFToken, SignOutURL, CallbackURL, HomeURL string
	}
	errorView struct {
		Heading, Message, Code, SignInURL, HomeURL string
		BanReason, BanExpires                      string
	}
	verifyRequestView struct {
		HomeURL, Host string
	}
)

// page is what every page type implements: it builds the page's
// document. The method has a value receiver, so a page is accepted as a
// value or as a pointer. Dispatching through this interface, not through
// a list of every page type, means a program links a page's component
// only when it constructs that page.
type page interface {
	document(lang Language) *document
}

// build turns a page value into a document.
func build(p any, lang Language) (*document, error) {
	pg, ok := p.(page)
	if !ok {
		return nil, fmt.Errorf("pages: cannot render a %T", p)
	}
	// A nil pointer to a page type has the method too, but calling it
	// would dereference nil.
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, errors.New("pages: cannot render a nil page")
	}
	return pg.document(lang), nil
}

// newDocument fills in what every page shares: scheme, title, site logo
// and the style sheet with the theme's colours and the extra rules.
func newDocument(lang Language, t Theme, title string, extra []string, body templ.Component) *document {
	d := &document{body: body}
	scheme := strings.ToLower(strings.TrimSpace(t.ColorScheme))
	meta := scheme
	switch scheme {
	case "light", "dark":
	default:
		scheme, meta = "auto", "light dark"
	}
	var logo string
	if src, origin, ok := imageSource(t.Logo); ok {
		logo = src
		d.addOrigin(origin)
	}
	d.layout = layout{
		Lang:       lang.Tag,
		Dir:        lang.Dir,
		Scheme:     scheme,
		MetaScheme: meta,
		Title:      title,
		CSS:        styleSheet + themeRule(t) + strings.Join(extra, ""),
		Logo:       logo,
	}
	return d
}

func (d *document) addOrigin(origin string) {
	if origin == "" {
		return
	}
	i := sort.SearchStrings(d.imgOrigin, origin)
	if i < len(d.imgOrigin) && d.imgOrigin[i] == origin {
		return
	}
	d.imgOrigin = append(d.imgOrigin, "")
	copy(d.imgOrigin[i+1:], d.imgOrigin[i:])
	d.imgOrigin[i] = origin
}

func (value SignIn) document(lang Language) *document {
	p := &value
	title := strings.TrimSpace(p.Title)
	if title == "" {
		title = Text(lang.Tag, "signin.title")
	}
	v := &signInView{Title: title, CSRFToken: p.CSRFToken, CallbackURL: p.CallbackURL}
	if p.Error != "" {
		v.Error = errorMessage(lang, p.Error)
	}
	build := &signInBuild{page: p, view: v, tag: lang.Tag}
	var logos []string // origins, added to the document below
	if len(p.OAuth) > 0 {
		buttons := make([]buttonView, len(p.OAuth))
		for i, b := range p.OAuth {
			buttons[i] = mark(i, b.ID, b.Name, b.Style, &build.rules, &logos)
			buttons[i].SigninURL = b.SigninURL
		}
		v.Sections = append(v.Sections, signInButtons(lang.Tag, v, buttons))
	}
	build.addForms(p.Forms)
	d := newDocument(lang, p.Theme, title, build.rules, signInContent(lang.Tag, v))
	d.layout.Script = build.script
	for _, o := range logos {
		d.addOrigin(o)
	}
	return d
}

func (value SignOut) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "signout.title"), nil, signOutContent(lang.Tag, &signOutView{
		CSRFToken: p.CSRFToken, SignOutURL: p.SignOutURL, CallbackURL: p.CallbackURL, HomeURL: p.HomeURL,
	}))
}

func (value Error) document(lang Language) *document {
	p := &value
	heading := Text(lang.Tag, errorHeading(p.Type))
	code := p.Code
	if code == "" {
		code = p.Type
	}
	return newDocument(lang, p.Theme, heading, nil, errorContent(lang.Tag, &errorView{
		Heading:   heading,
		Message:   errorMessage(lang, p.Type),
		Code:      code,
		SignInURL: p.SignInURL,
		HomeURL:   p.HomeURL,
		BanReason: p.BanReason, BanExpires: p.BanExpires,
	}))
}

func (value Sessions) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "sessions.title"), []string{
		".session { padding: .75rem 0; border-top: 1px solid var(--border); }",
		".session p { margin: 0 0 .5rem; }",
	}, sessionsContent(lang.Tag, p))
}

// sessionTimes is a session's line of times: since, last seen (each when
// recorded) and until.
func sessionTimes(tag string, s SessionRow) string {
	var b strings.Builder
	if s.Created != "" {
		b.WriteString(Text(tag, "sessions.since", s.Created) + " · ")
	}
	if s.LastSeen != "" {
		b.WriteString(Text(tag, "sessions.lastSeen", s.LastSeen) + " · ")
	}
	b.WriteString(Text(tag, "sessions.until", s.Expires))
	return b.String()
}

func (value VerifyRequest) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "verify.title"), nil, verifyRequestContent(lang.Tag, &verifyRequestView{
		HomeURL: p.HomeURL, Host: p.Host,
	}))
}

// The colours the fixed style sheet gives the card in each scheme; the
// link and focus colours are chosen against them.
var (
	lightCard = rgba{0xff, 0xff, 0xff, 0xff}
	darkCard  = rgba{0x1a, 0x1d, 0x23, 0xff}
	lightText = "#1c1f24"
	darkText  = "#e7e9ed"
)

// defaultBrand is the accent colour when the theme has none.
const defaultBrand = "#2f5bd3"

// themeRule returns the :root rule with the theme's colours: the brand
// colour and its text colour, and per scheme the link colour (the brand
// where it reaches WCAG's 4.5:1 against the card, else the text colour)
// and the focus ring colour (the brand where it reaches 3:1, else the
// text colour).
func themeRule(t Theme) string {
	brand, ok := cssColor(t.BrandColor)
	if !ok {
		brand = defaultBrand
	}
	c, _ := parseColor(brand)
	onBrand := readableText(t.ButtonText, c)
	pick := func(card rgba, min float64, fallback string) string {
		if c.a == 255 && contrastRatio(c, card) >= min {
			return brand
		}
		return fallback
	}
	return fmt.Sprintf("\n:root { --brand: %s; --on-brand: %s; --link-l: %s; --link-d: %s; --focus-l: %s; --focus-d: %s; }\n",
		brand, onBrand,
		pick(lightCard, 4.5, lightText), pick(darkCard, 4.5, darkText),
		pick(lightCard, 3, lightText), pick(darkCard, 3, darkText))
}

// buttonRule returns the CSS rule and class name that colour the i-th
// provider button, or "", "" when its style has no valid background (the
// button then keeps the plain look). The border is the background itself
// unless that is too close to the card (under 1.5:1), when it is the
// theme's border colour.
// mark is the i-th provider button (or linked account's mark) of a page:
// the provider's name and initial, the class of its colours, whose rule
// is added to rules, and its logo: Style.Logo, whose origin is added to
// origins (the page's Content-Security-Policy allows it), else
// Style.Icon when it is SVG path data, else none (the initial shows).
func mark(i int, id, name string, s providers.Style, rules, origins *[]string) buttonView {
	bv := buttonView{Name: displayName(name, id), Initial: initial(name, id)}
	if rule, class := buttonRule(i, s); rule != "" {
		*rules = append(*rules, rule)
		bv.Class = class
	}
	if src, origin, ok := imageSource(s.Logo); ok {
		bv.Logo = src
		*origins = append(*origins, origin)
	} else if isPathData(s.Icon) {
		bv.Icon = s.Icon
	}
	return bv
}

func buttonRule(i int, s providers.Style) (rule, class string) {
	bg, ok := cssColor(s.Background())
	if !ok {
		return "", ""
	}
	c, _ := parseColor(bg)
	//lint:ignore SA1019 Text is honoured for configurations written for Auth.js.
	fg := readableText(s.Text, c)
	border := func(card rgba) string {
		if c.a == 255 && contrastRatio(c, card) >= 1.5 {
			return bg
		}
		return "var(--border)"
	}
	class = "provider-" + strconv.Itoa(i)
	rule = fmt.Sprintf(".%s { --btn-bg: %s; --btn-fg: %s; --btn-bd-l: %s; --btn-bd-d: %s; }\n",
		class, bg, fg, border(lightCard), border(darkCard))
	return rule, class
}

// minTextContrast is WCAG 2.2's contrast minimum for normal text
// (success criterion 1.4.3, level AA).
const minTextContrast = 4.5

// readableText returns the text colour for the background bg: text when
// it is a valid opaque colour that contrasts with bg (composited over
// white) by at least minTextContrast, else textOn(bg): white, or black
// where white falls short. Either way the result reaches 4.5:1.
func readableText(text string, bg rgba) string {
	if fg, ok := cssColor(text); ok {
		if c, _ := parseColor(fg); c.a == 255 && contrastRatio(c, bg.overWhite()) >= minTextContrast {
			return fg
		}
	}
	return textOn(bg)
}

// displayName returns name, or id when name is blank.
func displayName(name, id string) string {
	if strings.TrimSpace(name) == "" {
		return id
	}
	return name
}

// initial returns the badge letter for a provider without a logo: the
// first letter or digit of its name (else its id), upper-cased, or "?".
func initial(name, id string) string {
	for _, s := range []string{name, id} {
		for _, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return string(unicode.ToUpper(r))
			}
		}
	}
	return "?"
}

// inputTypes are the input types a credentials Field may ask for.
var inputTypes = map[string]bool{
	"text": true, "password": true, "email": true, "tel": true,
	"number": true, "url": true, "search": true, "date": true,
}

func inputType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	if inputTypes[t] {
		return t
	}
	return "text"
}

var (
	hostPattern     = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$`)
	dataImagePrefix = regexp.MustCompile(`^data:image/(png|gif|jpeg|webp|avif|svg\+xml)(;base64)?,`)
)

// imageSource checks a logo URL. It accepts a path on this site ("/logo.svg",
// "img/logo.png"), an http or https URL with a plain host name, or a
// data:image URL of a common image type, and returns the URL for the
// page (which writes it as a templ.SafeURL, since pageURL refuses data:
// URLs) and the origin the CSP must allow ("" when 'self' or data:
// covers it). Anything else (javascript:, protocol-relative "//host",
// user info, backslashes) is refused, and the page shows no logo or the
// initial badge.
func imageSource(s string) (src, origin string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || !utf8.ValidString(s) {
		return "", "", false
	}
	if dataImagePrefix.MatchString(strings.ToLower(s[:min(len(s), 40)])) {
		// An image document cannot run script, whatever it holds, and
		// the attribute's escaping keeps a raw SVG's quotes and angle
		// brackets inside the src value.
		return s, "", true
	}
	if strings.ContainsAny(s, "\\\"'<>` \t\r\n") {
		return "", "", false
	}
	u, err := url.Parse(s)
	if err != nil || u.User != nil || u.Opaque != "" {
		return "", "", false
	}
	switch {
	case u.Scheme == "" && u.Host == "" && !strings.HasPrefix(s, "//"):
		return s, "", true
	case u.Scheme == "http" || u.Scheme == "https":
		host := strings.ToLower(u.Host)
		if !hostPattern.MatchString(host) {
			return "", "", false
		}
		return s, u.Scheme + "://" + host, true
	}
	return "", "", false
}
