// Package pages renders Gatehouse's default pages: sign in, sign out, the
// error page and "Check your email", the pages Auth.js builds into its
// handler.
//
// Each page is a plain struct (SignIn, SignOut, Error, VerifyRequest) that
// the handler fills in and passes to Render, which writes a complete HTML
// document with security headers. The markup lives in embedded
// html/template files, so every value is escaped for its context, and the
// style sheet is one <style> element allowed by its hash in the
// Content-Security-Policy; the pages run no script and, unless the
// application configures logos elsewhere, load nothing from another site.
//
// The look follows the Theme: a light, dark or automatic colour scheme,
// a brand colour for primary buttons and accents, and a logo above the
// card. Colours are checked against a strict pattern (ValidColor) and
// invalid ones are dropped; text on coloured buttons is black or white,
// whichever contrasts more by WCAG's relative luminance.
//
//	err := pages.Render(w, pages.ErrorStatus(typ), pages.Error{
//		Type:      typ,
//		SignInURL: "/auth/signin",
//		HomeURL:   "/",
//	})
package pages
