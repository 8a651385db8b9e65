package pages

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// FuzzValidColor: whatever the input, an accepted colour's canonical form
// is only '#', hex digits or letters, so it cannot end a CSS rule or the
// <style> element it is written into.
func FuzzValidColor(f *testing.F) {
	for _, s := range []string{"#fff", "#24292F80", "red", "red;}</style>", "#ggg", " navy ", "transparent"} {
		f.Add(s)
	}
	safe := regexp.MustCompile(`^(#[0-9a-f]{3,8}|[a-z]+)$`)
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := cssColor(s)
		if ok != ValidColor(s) {
			t.Fatalf("cssColor and ValidColor disagree on %q", s)
		}
		if ok && !safe.MatchString(c) {
			t.Fatalf("accepted %q as %q", s, c)
		}
	})
}

// FuzzImageSource: an accepted logo's CSP origin is one plain
// scheme://host[:port] token, and a non-data URL has no character that
// could leave its attribute.
func FuzzImageSource(f *testing.F) {
	for _, s := range []string{"/logo.svg", "https://cdn.example.com/a.png", "javascript:alert(1)", "//x", "data:image/png;base64,AA=="} {
		f.Add(s)
	}
	origin := regexp.MustCompile(`^https?://[a-z0-9.-]+(:[0-9]+)?$`)
	f.Fuzz(func(t *testing.T, s string) {
		src, o, ok := imageSource(s)
		if !ok {
			return
		}
		if o != "" && !origin.MatchString(o) {
			t.Fatalf("imageSource(%q): origin %q", s, o)
		}
		lower := strings.ToLower(string(src))
		if strings.HasPrefix(lower, "data:") {
			if !strings.HasPrefix(lower, "data:image/") {
				t.Fatalf("imageSource(%q) accepted a non-image data URL", s)
			}
			return
		}
		if strings.ContainsAny(string(src), "\"'<> \t\r\n\\`") {
			t.Fatalf("imageSource(%q) = %q", s, src)
		}
		if u, err := url.Parse(string(src)); err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
			t.Fatalf("imageSource(%q) accepted scheme of %q", s, src)
		}
	})
}

var (
	brandRule = regexp.MustCompile(`--brand: ([^;]+); --on-brand: ([^;]+);`)
	styleEnds = regexp.MustCompile(`(?i)</style`)
)

// FuzzTheme renders the sign-in page with arbitrary theme and button
// colours. Whatever they are, the page renders with one style element,
// every button's text reaches 4.5:1 on its background, and a theme that
// Validate accepts is used as given.
func FuzzTheme(f *testing.F) {
	f.Add("#2f6f4e", "", "#1da1f2", "#fff", "/logo.svg")
	f.Add("red;}</style><script>", "#fff", "", "", "javascript:x")
	f.Add("#ffcc00", "#ffffff", "#0000", "#000", "data:image/png;base64,AA")
	f.Add("navy", "#0008", "#777", "#888", "https://cdn.example.com/l.png")
	f.Fuzz(func(t *testing.T, brand, text, bg, fg, logo string) {
		theme := Theme{BrandColor: brand, ButtonText: text, Logo: logo}
		page := SignIn{Theme: theme, OAuth: []Button{{ID: "github", Name: "GitHub", SigninURL: "/s", Style: providers.Style{Bg: bg, Text: fg, Logo: logo}}}}
		body := render(t, 200, page).Body.String()
		if n := len(styleEnds.FindAllStringIndex(body, -1)); n != 1 {
			t.Fatalf("%d </style> in the page", n)
		}
		m := brandRule.FindStringSubmatch(body)
		if m == nil {
			t.Fatal("no brand rule")
		}
		check := func(what, bgc, fgc string) {
			b, ok1 := parseColor(bgc)
			c, ok2 := parseColor(fgc)
			if !ok1 || !ok2 || c.a != 255 {
				t.Fatalf("%s: unparsable or translucent %q on %q", what, fgc, bgc)
			}
			if r := contrastRatio(c, b.overWhite()); r < 4.5 {
				t.Fatalf("%s: %s on %s is %.2f:1", what, fgc, bgc, r)
			}
		}
		check("theme", m[1], m[2])
		for _, r := range buttonRuleRe.FindAllStringSubmatch(body, -1) {
			check("button", r[2], r[3])
		}
		if theme.Validate() == nil && brand != "" {
			if want, _ := cssColor(brand); m[1] != want {
				t.Fatalf("valid brand %q rendered as %q", brand, m[1])
			}
			if text != "" {
				if want, _ := cssColor(text); m[2] != want {
					t.Fatalf("valid button text %q rendered as %q", text, m[2])
				}
			}
		}
	})
}
