package pages

import "html/template"

// StyleSheet returns the built-in pages' style sheet with t's colours,
// for pages of the application's own that should look like them. Put it
// in a <style> element, give <html> the class of the colour scheme
// ("auto" follows the system; "light" or "dark" fixes it), and lay the
// body out as the built-in pages do:
//
//	<main><img class="site-logo" src="/logo.svg" alt="Example"><div class="card"><h1>…</h1>…</div></main>
//
// The template helpers' buttons take the built-in looks with
// "class" "btn primary" or "class" "btn secondary".
func StyleSheet(t Theme) template.CSS { return template.CSS(styleSheet + themeRule(t)) }
