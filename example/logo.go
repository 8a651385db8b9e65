package main

import "net/http"

// logoSVG is the example's site logo, shown above the built-in pages'
// card (pages.Theme.Logo). Its own media query lightens the word in the
// dark colour scheme.
const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40" width="200" height="40">
<style>text{fill:#1c1f24}@media (prefers-color-scheme:dark){text{fill:#e7e9ed}}</style>
<rect x="2" y="4" width="32" height="32" rx="8" fill="#2f6f4e"/>
<path d="M10 28V15l8-6 8 6v13h-5.5v-7h-5v7z" fill="#fff"/>
<text x="44" y="27" font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="20" font-weight="600">Gatehouse</text>
</svg>`

func serveLogo(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	_, _ = w.Write([]byte(logoSVG))
}
