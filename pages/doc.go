// Package pages renders Gatehouse's default pages: sign in, sign out, the
// error page and "Check your email", the pages Auth.js builds into its
// handler.
//
// Each page is a plain struct (SignIn, SignOut, Error, VerifyRequest, and
// for a signed-in user Sessions and Accounts) that the handler fills in
// and passes to Render, which writes a complete HTML document with
// security headers. The markup is written in templ (the *.templ files,
// compiled to Go), so every value is escaped for its context (text or
// attribute) and every link, form action and image source that the
// package has not checked itself is sanitized: only http and https URLs
// and those without a scheme are kept (a javascript:, data:, mailto: or
// tel: URL becomes about:invalid). The components are plain Go: unlike html/template's
// executor, rendering looks no method up by name, so the linker can drop
// the methods a program never calls. The sign-in page's forms
// (SignIn.Forms) build on that: each kind of form is a type implementing
// Form with its own component, so a program links the markup of only
// the kinds of form it adds (the built-in handler adds a kind where one
// of its providers is configured). The style sheet is one <style>
// element allowed by its hash in the Content-Security-Policy; the pages
// run no script and, unless the application configures logos elsewhere,
// load nothing from another site.
//
// The look follows the Theme: a light, dark or automatic colour scheme,
// a brand colour for primary buttons and accents, and a logo above the
// card. Colours are checked against a strict pattern (ValidColor) and
// invalid ones are dropped (Theme.Validate and ValidateStyle report them;
// gatehouse.New refuses them). Text on coloured buttons is the configured
// colour only when it contrasts with the button by WCAG's 4.5:1, else
// white, or black where white would not reach it. Each provider button shows
// the provider's Style.Logo, else its Style.Icon (SVG path data, drawn in
// the button's text colour; the built-in providers set their logo there),
// else a badge with its initial.
//
// Every word of the pages comes from a message catalogue, by key; English
// and German ship complete. The catalogue holds the core pages' messages
// and those of each feature the program configures: a feature's package
// (organizations, administration, API keys, self-service, two-factor
// sign-in, password accounts, passkeys, e-mails) adds its pages' messages
// when the feature is configured, so a program without it links none of
// them. Render writes English; RenderIn writes a
// given Language, which sets the page's lang and dir attributes, and
// LanguageFor (or RequestLanguage) picks one from an Accept-Language
// header: each preference exactly, then its base language, then English.
// AddMessages lets an application override messages or add a language,
// at any time; Text looks one up. Text the caller puts into a page (titles, notices,
// provider names, dates) is shown as given.
//
// The pages are usable without a mouse: every input has a label, every
// action is a real button or link reached with Tab, and focus shows as a
// 2px ring in a colour that contrasts with the card by at least 3:1.
//
//	err := pages.Render(w, pages.ErrorStatus(typ), pages.Error{
//		Type:      typ,
//		SignInURL: "/auth/signin",
//		HomeURL:   "/",
//	})
package pages
