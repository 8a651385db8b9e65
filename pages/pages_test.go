package pages

//lint:file-ignore SA1019 these tests check that the deprecated Style.Bg and Style.Text are still honoured.

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"flag"
	"fmt"
	"html"
	"html/template"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/google"
	"github.com/gatehouse-auth/gatehouse/providers/zoom"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// render renders page and fails the test on an error.
func render(t *testing.T, status int, page any) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := Render(rec, status, page); err != nil {
		t.Fatalf("Render: %v", err)
	}
	return rec
}

// fullSignIn has one of everything the sign-in page can show.
func fullSignIn() SignIn {
	return SignIn{
		Theme:       Theme{BrandColor: "#0f766e"},
		CSRFToken:   "0123456789abcdef",
		CallbackURL: "https://app.example.com/dashboard?tab=1&x=2",
		Error:       "OAuthAccountNotLinked",
		OAuth: []Button{
			{ID: "github", Name: "GitHub", SigninURL: "/auth/signin/github", Style: providers.Style{BrandColor: "#24292f", Icon: github.Icon}},
			{ID: "yandex", Name: "Yandex", SigninURL: "/auth/signin/yandex", Style: providers.Style{Bg: "#ffcc00", Text: "#000"}},
			{ID: "acme", Name: "Acme SSO", SigninURL: "/auth/signin/acme", Style: providers.Style{Logo: "/static/acme.svg"}},
			{ID: "oidc", Name: "", SigninURL: "/auth/signin/oidc"},
		},
		Forms: []Form{
			EmailForm{ID: "email", Name: "Email", SigninURL: "/auth/signin/email"},
			CredentialsForm{
				ID: "credentials", Name: "Password", CallbackURL: "/auth/callback/credentials",
				Fields: []Field{
					{Name: "username", Label: "Username", Autocomplete: "username", Required: true},
					{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
					{Name: "otp", Placeholder: "123456", Type: "bogus"},
				},
			},
		},
	}
}

var goldenCases = []struct {
	name   string
	status int
	page   any
}{
	{"signin", 200, fullSignIn()},
	{"signin-oauth-only-dark", 200, &SignIn{
		Theme:     Theme{ColorScheme: "dark", BrandColor: "rebeccapurple", ButtonText: "#fefefe", Logo: "https://cdn.example.com/logo.svg"},
		Title:     "Sign in to Acme",
		CSRFToken: "tok",
		OAuth: []Button{
			{ID: "google", Name: "Google", SigninURL: "/auth/signin/google", Style: providers.Style{BrandColor: "#fff", Logo: "https://cdn.example.com/google.svg", Icon: google.Icon}},
			{ID: "zoom", Name: "Zoom", SigninURL: "/auth/signin/zoom", Style: providers.Style{BrandColor: "#0b5cff", Icon: zoom.Icon}},
		},
	}},
	{"signin-credentials-light", 200, SignIn{
		Theme:     Theme{ColorScheme: "light"},
		CSRFToken: "tok",
		Error:     "CredentialsSignin",
		Forms: []Form{CredentialsForm{ID: "pw", Name: "Password", CallbackURL: "/auth/callback/pw", Fields: []Field{
			{Name: "email", Label: "Email", Type: "email", Autocomplete: "username", Required: true},
			{Name: "password", Label: "Password", Type: "password", Autocomplete: "current-password", Required: true},
		}}},
	}},
	{"signout", 200, SignOut{CSRFToken: "tok", SignOutURL: "/auth/signout", CallbackURL: "/", HomeURL: "https://app.example.com/"}},
	{"error-configuration", ErrorStatus("Configuration"), Error{Type: "Configuration", SignInURL: "/auth/signin", HomeURL: "/"}},
	{"error-invalidcheck", ErrorStatus("InvalidCheck"), &Error{Theme: Theme{ColorScheme: "dark"}, Type: "InvalidCheck", Code: "state_mismatch", SignInURL: "/auth/signin"}},
	{"verify-request", 200, VerifyRequest{HomeURL: "https://app.example.com/", Host: "app.example.com"}},
	{"two-factor", 200, TwoFactorChallenge{CSRFToken: "tok", ActionURL: "/auth/two-factor", Error: "That code is not right.", SignInURL: "/auth/signin"}},
	{"two-factor-setup-off", 200, TwoFactorSetup{CSRFToken: "tok", EnrollURL: "/auth/two-factor/enroll", HomeURL: "/"}},
	{"two-factor-setup-enrolling", 200, &TwoFactorSetup{CSRFToken: "tok", QRCode: "data:image/png;base64,iVBORw0KGgo=", Secret: "JBSWY3DPEHPK3PXP", ConfirmURL: "/auth/two-factor/confirm"}},
	{"two-factor-setup-codes", 200, TwoFactorSetup{Enabled: true, BackupCodes: []string{"7kq2m-x9d0c", "<b>"}, Message: "Two-factor sign-in is on."}},
	{"two-factor-setup-on", 200, TwoFactorSetup{CSRFToken: "tok", Enabled: true, BackupCodesLeft: 1, BackupCodesURL: "/auth/two-factor/backup-codes", DisableURL: "/auth/two-factor/disable", Error: "That code is not right."}},
	{"sessions", 200, Sessions{CSRFToken: "tok", RevokeURL: "/auth/sessions/revoke", RevokeOthersURL: "/auth/sessions/revoke-others", RevokeAllURL: "/auth/sessions/revoke-all", HomeURL: "/account",
		Sessions: []SessionRow{
			{ID: "a1", Provider: "github", Device: "Firefox on Linux", Created: "2026-11-25 09:00 UTC", LastSeen: "2026-11-25 09:00 UTC", Expires: "2026-12-25 10:00 UTC", Current: true},
			{ID: "b2", Provider: "google", Expires: "2026-12-20 08:30 UTC"},
			{ID: "<c3>", Expires: "2026-12-01 00:00 UTC"},
		}}},
	{"accounts", 200, accountsPage()},
}

// TestGolden compares each page, with its status and headers, to
// testdata/<name>.golden. Run `go test ./pages -update` to rewrite them
// after an intended change, then look at the diff.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			rec := render(t, c.status, c.page)
			var got bytes.Buffer
			fmt.Fprintf(&got, "HTTP %d\n", rec.Code)
			keys := make([]string, 0, len(rec.Header()))
			for k := range rec.Header() {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&got, "%s: %s\n", k, rec.Header().Get(k))
			}
			got.WriteString("\n")
			got.Write(rec.Body.Bytes())

			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./pages -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from the output; run go test ./pages -update and review the diff\n%s", path, firstDiff(want, got.Bytes()))
			}
		})
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return ""
}

func TestErrorStatus(t *testing.T) {
	for typ, want := range map[string]int{
		"Configuration":          500,
		"AdapterError":           503,
		"CallbackRouteError":     500,
		"EmailSignin":            500,
		"AccessDenied":           403,
		"Verification":           403,
		"MissingCSRF":            403,
		"SessionRequired":        403,
		"InvalidCheck":           400,
		"OAuthCallbackError":     400,
		"OAuthAccountNotLinked":  400,
		"CredentialsSignin":      400,
		"OAuthSignin":            502,
		"OAuthProfileParseError": 502,
		"InvalidIDToken":         502,
		"TokenExchangeFailed":    502,
		"UserinfoFailed":         502,
		"ProviderUnavailable":    502,
		"UnknownProvider":        404,
		"":                       400,
		"NoSuchType":             400,
		"configuration":          400, // types are case-sensitive, as in Auth.js
	} {
		if got := ErrorStatus(typ); got != want {
			t.Errorf("ErrorStatus(%q) = %d, want %d", typ, got, want)
		}
	}
}

// TestErrorStatusDocTable keeps the table in ErrorStatus's doc comment in
// step with errorTypes.
func TestErrorStatusDocTable(t *testing.T) {
	src, err := os.ReadFile("errors.go")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^//\t([A-Za-z, ]+?)\s{2,}(\d{3})\s`)
	documented := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(string(src), -1) {
		var status int
		fmt.Sscan(m[2], &status)
		for _, name := range strings.Split(m[1], ", ") {
			documented[name] = status
		}
	}
	for typ, e := range errorTypes {
		if got, ok := documented[typ]; !ok || got != e.status {
			t.Errorf("doc table: %s is %d (present %v), errorTypes says %d", typ, got, ok, e.status)
		}
	}
	for typ := range documented {
		if _, ok := errorTypes[typ]; !ok && typ != "anything else" {
			t.Errorf("doc table lists %s, which errorTypes lacks", typ)
		}
	}
	if documented["anything else"] != ErrorStatus("anything else") {
		t.Errorf("doc table's default row disagrees with ErrorStatus")
	}
}

func TestErrorMessage(t *testing.T) {
	// The Auth.js sign-in page's own sentences.
	for typ, want := range map[string]string{
		"Signin":                "Try signing in with a different account.",
		"OAuthSignin":           "Try signing in with a different account.",
		"OAuthCallbackError":    "Try signing in with a different account.",
		"OAuthCreateAccount":    "Try signing in with a different account.",
		"EmailCreateAccount":    "Try signing in with a different account.",
		"Callback":              "Try signing in with a different account.",
		"OAuthAccountNotLinked": "To confirm your identity, sign in with the same account you used originally.",
		"EmailSignin":           "The e-mail could not be sent.",
		"CredentialsSignin":     "Sign-in failed. Check the details you provided are correct.",
		"SessionRequired":       "Please sign in to access this page.",
		"":                      "Unable to sign in.",
		"<b>bogus</b>":          "Unable to sign in.",
	} {
		if got := ErrorMessage(typ); got != want {
			t.Errorf("ErrorMessage(%q) = %q, want %q", typ, got, want)
		}
	}
	// Every type the brief names has its own sentence, ending in a full stop.
	for _, typ := range []string{"Configuration", "AccessDenied", "Verification", "MissingCSRF",
		"InvalidCheck", "OAuthCallbackError", "OAuthSignin", "OAuthAccountNotLinked",
		"OAuthProfileParseError", "InvalidIDToken", "TokenExchangeFailed", "UserinfoFailed",
		"ProviderUnavailable", "CredentialsSignin", "EmailSignin", "SessionRequired",
		"UnknownProvider", "AdapterError", "CallbackRouteError"} {
		m := ErrorMessage(typ)
		if m == msgUnknown || !strings.HasSuffix(m, ".") {
			t.Errorf("ErrorMessage(%q) = %q: want a sentence of its own", typ, m)
		}
	}
}

func TestValidColor(t *testing.T) {
	for s, want := range map[string]bool{
		"#fff":                   true,
		"#FFF":                   true,
		"#ffff":                  true,
		"#24292f":                true,
		"#24292F80":              true,
		" #abc ":                 true,
		"red":                    true,
		"RebeccaPurple":          true,
		"transparent":            true,
		"lightgoldenrodyellow":   true,
		"":                       false,
		"#":                      false,
		"#ff":                    false,
		"#fffff":                 false,
		"#fffffff":               false,
		"#ggg":                   false,
		"#-12":                   false,
		"#+12":                   false,
		"#0x1":                   false,
		"fff":                    false,
		"rgb(0,0,0)":             false,
		"var(--x)":               false,
		"currentcolor":           false,
		"notacolour":             false,
		"red;}</style><script>":  false,
		"red; background:url(x)": false,
		"#fff;":                  false,
		"#fff\n}":                false,
		"red\x00":                false,
	} {
		if got := ValidColor(s); got != want {
			t.Errorf("ValidColor(%q) = %v, want %v", s, got, want)
		}
	}
	if c, _ := parseColor("#abc"); c != (rgba{0xaa, 0xbb, 0xcc, 0xff}) {
		t.Errorf("#abc parsed as %v", c)
	}
	if c, _ := parseColor("#11223344"); c != (rgba{0x11, 0x22, 0x33, 0x44}) {
		t.Errorf("#11223344 parsed as %v", c)
	}
	if c, _ := parseColor("Navy"); c != (rgba{0, 0, 0x80, 0xff}) {
		t.Errorf("navy parsed as %v", c)
	}
	if len(namedColors) != 148 {
		t.Errorf("%d named colours, want the 148 of CSS Color 4", len(namedColors))
	}
	for name, hex := range namedColors {
		if _, ok := parseHex(hex); !ok || len(hex) != 6 || name != strings.ToLower(name) {
			t.Errorf("named colour %s: bad entry %q", name, hex)
		}
	}
}

func TestContrast(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.01 }
	if l := black.luminance(); l != 0 {
		t.Errorf("luminance(black) = %v", l)
	}
	if l := white.luminance(); !near(l, 1) {
		t.Errorf("luminance(white) = %v", l)
	}
	if r := contrastRatio(black, white); !near(r, 21) {
		t.Errorf("contrast(black, white) = %v, want 21", r)
	}
	if r := contrastRatio(white, black); !near(r, 21) {
		t.Errorf("contrast is not symmetric: %v", r)
	}
	grey, _ := parseColor("#777")
	if r := contrastRatio(grey, white); !near(r, 4.48) {
		t.Errorf("contrast(#777, white) = %.3f, want 4.48", r)
	}
	red, _ := parseColor("red")
	if r := contrastRatio(red, white); !near(r, 4.0) {
		t.Errorf("contrast(red, white) = %.3f, want 4.00", r)
	}

	for bg, want := range map[string]string{
		"#000":      "#fff",
		"#fff":      "#000",
		"#24292f":   "#fff", // GitHub
		"#ffcc00":   "#000", // Yandex
		"#0b5cff":   "#fff", // Zoom
		"#1877f2":   "#000", // a mid blue: 4.2:1 with white, 5.0:1 with black
		"#ff0000":   "#000", // pure red: 4.0:1 with white, 5.25:1 with black
		"yellow":    "#000",
		"#777":      "#000", // mid grey: black contrasts more (4.69 vs 4.48)
		"#00000000": "#000", // fully transparent over white is white
		"#00000080": "#000", // half black over white is #808080: 5.3:1 with black
		"#000000c0": "#fff", // three-quarter black over white is #404040
		"#1a73e8":   "#fff", // Google blue: white 4.6:1 is enough, though black has 4.6:1 too
		"#5865f2":   "#fff", // Discord: white 4.6:1
		"#1da1f2":   "#000", // light blue: white only 2.8:1
	} {
		c, ok := parseColor(bg)
		if !ok {
			t.Fatalf("parseColor(%q) failed", bg)
		}
		if got := textOn(c); got != want {
			t.Errorf("textOn(%s) = %s, want %s", bg, got, want)
		}
		// Whatever is picked reaches WCAG's 4.5:1.
		pick := black
		if textOn(c) == "#fff" {
			pick = white
		}
		if r := contrastRatio(c.overWhite(), pick); r < 4.5 {
			t.Errorf("textOn(%s) = %s with contrast %.2f", bg, textOn(c), r)
		}
	}
}

func TestEscaping(t *testing.T) {
	const xss = `<script>alert(1)</script>`
	page := SignIn{
		Theme: Theme{
			BrandColor: "red;}</style><script>alert(1)</script>",
			ButtonText: "#fff;}</style>",
			Logo:       "javascript:alert(1)",
		},
		Title:       xss,
		CSRFToken:   `"><script>alert(1)</script>`,
		CallbackURL: `javascript:alert(1)`,
		Error:       xss,
		OAuth: []Button{{
			ID: "x", Name: xss, SigninURL: `javascript:alert(1)`,
			Style: providers.Style{BrandColor: "red;}</style><script>", Text: "</style>", Logo: `javascript:alert(1)`},
		}},
		Forms: []Form{
			EmailForm{ID: "e", Name: xss, SigninURL: "/auth/signin/e"},
			CredentialsForm{ID: "c", Name: xss, CallbackURL: "/auth/callback/c", Fields: []Field{
				{Name: `"><script>`, Label: xss, Type: `text" onfocus="alert(1)`, Placeholder: xss, Autocomplete: `" autofocus onfocus="alert(1)`},
			}},
		},
	}
	body := render(t, 200, page).Body.String()
	// The callbackUrl hidden field may hold any text (the handler checks
	// the value it receives); what must not appear is a javascript: URL
	// in a place the browser follows, or an attribute broken out of.
	for _, bad := range []string{"<script", `href="javascript:`, `action="javascript:`, `src="javascript:`, ` onfocus="`, "red;", "</style><script", "#fff;}"} {
		if strings.Contains(body, bad) {
			t.Errorf("output contains %q:\n%s", bad, body[strings.Index(body, "</style>"):])
		}
	}
	if n := strings.Count(body, "</style>"); n != 1 || !strings.Contains(body, "</style></head>") {
		t.Errorf("%d </style> in the output, want 1, ending the head's style element", n)
	}
	for _, want := range []string{
		"Sign in with &lt;script&gt;alert(1)&lt;/script&gt;",
		"<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>",
		`value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`,
		"Unable to sign in.", // the unknown error type is not echoed
		`type="text"`,
		"--brand: " + defaultBrand, // the invalid brand colour was dropped
	} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(body, `<img class="site-logo"`) {
		t.Error("a javascript: site logo was shown")
	}
	if strings.Contains(body, "provider-0") {
		t.Error("an invalid button colour got a colour class")
	}

	// The other pages escape their fields too.
	for _, p := range []any{
		SignOut{CSRFToken: xss, SignOutURL: "javascript:alert(1)", CallbackURL: xss},
		Error{Type: xss, Code: xss, SignInURL: "javascript:alert(1)", HomeURL: "javascript:alert(1)"},
		VerifyRequest{HomeURL: "javascript:alert(1)", Host: xss},
	} {
		body := render(t, 200, p).Body.String()
		if strings.Contains(body, "<script") || strings.Contains(body, `href="javascript:`) || strings.Contains(body, `action="javascript:`) {
			t.Errorf("%T: unescaped input in the output", p)
		}
	}
}

func TestImageSource(t *testing.T) {
	for _, c := range []struct {
		in, origin string
		ok         bool
	}{
		{"/static/logo.svg", "", true},
		{"img/logo.png?v=2", "", true},
		{"https://cdn.example.com/logo.svg", "https://cdn.example.com", true},
		{"https://CDN.Example.com:8443/logo.svg", "https://cdn.example.com:8443", true},
		{"http://localhost:3000/logo.png", "http://localhost:3000", true},
		{"data:image/png;base64,iVBORw0KGgo=", "", true},
		{`data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>`, "", true},
		{"", "", false},
		{"javascript:alert(1)", "", false},
		{"JavaScript:alert(1)", "", false},
		{"data:text/html,<script>alert(1)</script>", "", false},
		{"//evil.example/logo.png", "", false},
		{"/\\evil.example/logo.png", "", false},
		{"https://user:pw@cdn.example.com/logo.png", "", false},
		{"https://cdn.example.com;script-src/x.png", "", false},
		{"https://[::1]/x.png", "", false},
		{"ftp://cdn.example.com/logo.png", "", false},
		{"/logo.png\" onerror=\"alert(1)", "", false},
	} {
		_, origin, ok := imageSource(c.in)
		if ok != c.ok || origin != c.origin {
			t.Errorf("imageSource(%q) = %q, %v; want %q, %v", c.in, origin, ok, c.origin, c.ok)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	pages := []any{fullSignIn(), SignOut{}, Error{Type: "AccessDenied"}, VerifyRequest{}}
	for _, p := range pages {
		rec := render(t, 200, p)
		h := rec.Header()
		for k, want := range map[string]string{
			"Content-Type":           "text/html; charset=utf-8",
			"Referrer-Policy":        "no-referrer",
			"X-Content-Type-Options": "nosniff",
			"X-Frame-Options":        "DENY",
			"Cache-Control":          "no-store",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("%T: %s = %q, want %q", p, k, got, want)
			}
		}
		csp := h.Get("Content-Security-Policy")
		body := rec.Body.String()
		style := body[strings.Index(body, "<style>")+len("<style>") : strings.Index(body, "</style>")]
		sum := sha256.Sum256([]byte(style))
		hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		for _, want := range []string{"default-src 'none'", "style-src " + hash + ";", "frame-ancestors 'none'", "base-uri 'none'", "img-src 'self' data:"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%T: CSP %q lacks %q", p, csp, want)
			}
		}
		for _, bad := range []string{"script-src", "unsafe-inline", "unsafe-eval", "*", "form-action"} {
			if strings.Contains(csp, bad) {
				t.Errorf("%T: CSP %q contains %q", p, csp, bad)
			}
		}
		// No inline script, no style attribute, no event handler: all
		// would be blocked by the policy or are not wanted.
		for _, bad := range []string{"<script", " style=", " onclick=", " onload="} {
			if strings.Contains(body, bad) {
				t.Errorf("%T: output contains %q", p, bad)
			}
		}
		if strings.Count(body, "<style>") != 1 {
			t.Errorf("%T: want exactly one <style> element", p)
		}
	}

	// Logos add their origins, each once, in order.
	rec := render(t, 200, SignIn{
		Theme: Theme{Logo: "https://b.example.com/logo.svg"},
		OAuth: []Button{
			{Name: "A", Style: providers.Style{Logo: "https://a.example.com/a.svg"}},
			{Name: "B", Style: providers.Style{Logo: "https://b.example.com/b.svg"}},
			{Name: "C", Style: providers.Style{Logo: "/c.svg"}},
		},
	})
	if csp, want := rec.Header().Get("Content-Security-Policy"), "img-src 'self' data: https://a.example.com https://b.example.com;"; !strings.Contains(csp, want) {
		t.Errorf("CSP %q lacks %q", csp, want)
	}
}

// TestNoThirdPartyByDefault: without configured logos, a page refers to
// no other site (Auth.js loads provider logos from its own site).
func TestNoThirdPartyByDefault(t *testing.T) {
	p := fullSignIn()
	p.CallbackURL = "/dashboard"
	rec := render(t, 200, p)
	for _, s := range []string{"http://", "https://", "//"} {
		body := rec.Body.String()
		// The CSS's comments contain no URLs either; "//" would catch a
		// protocol-relative reference.
		if strings.Contains(body, s) {
			t.Errorf("output contains %q", s)
		}
	}
	if strings.Contains(rec.Header().Get("Content-Security-Policy"), "http") {
		t.Errorf("CSP allows an origin: %s", rec.Header().Get("Content-Security-Policy"))
	}
}

func TestRenderRefuses(t *testing.T) {
	for _, c := range []struct {
		status int
		page   any
	}{
		{200, nil},
		{200, "not a page"},
		{200, (*SignIn)(nil)},
		{200, (*Error)(nil)},
		{99, SignOut{}},
		{1000, SignOut{}},
		{101, SignOut{}},
	} {
		rec := httptest.NewRecorder()
		if err := Render(rec, c.status, c.page); err == nil {
			t.Errorf("Render(%d, %#v) succeeded", c.status, c.page)
		}
		if rec.Body.Len() != 0 || len(rec.Header()) != 0 {
			t.Errorf("Render(%d, %#v) wrote before failing", c.status, c.page)
		}
	}
	if rec := render(t, 0, VerifyRequest{}); rec.Code != http.StatusOK {
		t.Errorf("status 0 gave %d, want 200", rec.Code)
	}
	if rec := render(t, 403, &Error{Type: "AccessDenied"}); rec.Code != 403 {
		t.Errorf("status 403 gave %d", rec.Code)
	}
}

func TestColorScheme(t *testing.T) {
	for scheme, want := range map[string]string{
		"":       `<html lang="en" dir="ltr" class="auto">`,
		"auto":   `<html lang="en" dir="ltr" class="auto">`,
		"Dark":   `<html lang="en" dir="ltr" class="dark">`,
		"light":  `<html lang="en" dir="ltr" class="light">`,
		"purple": `<html lang="en" dir="ltr" class="auto">`,
	} {
		body := render(t, 200, SignOut{Theme: Theme{ColorScheme: scheme}}).Body.String()
		if !strings.Contains(body, want) {
			t.Errorf("ColorScheme %q: output lacks %s", scheme, want)
		}
	}
}

// TestThemeColors checks the brand rule's choices: readable text on the
// brand, and the brand for links and focus only where it is readable.
func TestThemeColors(t *testing.T) {
	for _, c := range []struct {
		theme Theme
		want  string
	}{
		{Theme{}, "--brand: #2f5bd3; --on-brand: #fff; --link-l: #2f5bd3; --link-d: #e7e9ed; --focus-l: #2f5bd3; --focus-d: #e7e9ed;"},
		{Theme{BrandColor: "Gold"}, "--brand: gold; --on-brand: #000; --link-l: #1c1f24; --link-d: gold; --focus-l: #1c1f24; --focus-d: gold;"},
		{Theme{BrandColor: "#000", ButtonText: "#ff0"}, "--brand: #000; --on-brand: #ff0; --link-l: #000; --link-d: #e7e9ed;"},
		{Theme{BrandColor: "#00000080"}, "--link-l: #1c1f24; --link-d: #e7e9ed; --focus-l: #1c1f24;"},
	} {
		if got := themeRule(c.theme); !strings.Contains(got, c.want) {
			t.Errorf("themeRule(%+v) = %q, want it to contain %q", c.theme, got, c.want)
		}
	}
	rule, class := buttonRule(3, providers.Style{Bg: "#fff"})
	if class != "provider-3" || rule != ".provider-3 { --btn-bg: #fff; --btn-fg: #000; --btn-bd-l: var(--border); --btn-bd-d: #fff; }\n" {
		t.Errorf("buttonRule(white) = %q, %q", rule, class)
	}
	if rule, _ := buttonRule(0, providers.Style{BrandColor: "#24292f", Bg: "#fff", Text: "#eee"}); !strings.Contains(rule, "--btn-bg: #24292f; --btn-fg: #eee;") {
		t.Errorf("BrandColor must win over Bg, and Text be kept: %q", rule)
	}
	if rule, class := buttonRule(0, providers.Style{Text: "#fff"}); rule != "" || class != "" {
		t.Errorf("a style without background got a rule: %q", rule)
	}
}

// TestLabels: every visible input has a label pointing at it, every
// button is a real <button> (or a link on the error page), and ids are
// unique.
func TestLabels(t *testing.T) {
	body := render(t, 200, fullSignIn()).Body.String()
	inputs := regexp.MustCompile(`<input id="([^"]+)" type="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(inputs) != 4 {
		t.Fatalf("%d visible inputs, want 4", len(inputs))
	}
	seen := map[string]bool{}
	for _, m := range inputs {
		if seen[m[1]] {
			t.Errorf("duplicate id %s", m[1])
		}
		seen[m[1]] = true
		if !strings.Contains(body, `<label for="`+m[1]+`">`) {
			t.Errorf("input %s has no label", m[1])
		}
	}
	if n := strings.Count(body, `<input type="hidden" name="csrfToken" value="0123456789abcdef">`); n != 6 {
		t.Errorf("%d forms carry the CSRF token, want 6", n)
	}
	if n := strings.Count(body, `<button type="submit"`); n != 6 {
		t.Errorf("%d submit buttons, want 6", n)
	}
	if n := strings.Count(body, `<div class="sep">or</div>`); n != 2 {
		t.Errorf("%d separators, want 2", n)
	}
	for _, want := range []string{
		`<svg class="logo" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 .297c-6.63`, // GitHub's built-in logo
		`<img class="logo" src="/static/acme.svg" alt="" width="20" height="20"><span>Sign in with Acme SSO</span>`,
		`<span class="logo badge" aria-hidden="true">O</span><span>Sign in with oidc</span>`, // no name: the id
		`<label for="credentials-0-2">otp</label>`, // no label: the name
		`<div class="alert" role="alert">To confirm your identity`,
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func TestInitial(t *testing.T) {
	for _, c := range []struct{ name, id, want string }{
		{"GitHub", "github", "G"},
		{"  éclair", "x", "É"},
		{"<script>", "x", "S"},
		{"", "okta", "O"},
		{"42 Auth", "", "4"},
		{"!!!", "---", "?"},
	} {
		if got := initial(c.name, c.id); got != c.want {
			t.Errorf("initial(%q, %q) = %q, want %q", c.name, c.id, got, c.want)
		}
	}
}

// withURLs returns a copy of page with every non-empty string field named
// …URL, at any depth (rows, buttons, forms), set to u, and how many
// fields it set.
func withURLs(page any, u string) (any, int) {
	n := 0
	v := reflect.New(reflect.TypeOf(page)).Elem()
	v.Set(reflect.ValueOf(page))
	var set func(reflect.Value)
	set = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				c := reflect.New(v.Elem().Type())
				c.Elem().Set(v.Elem())
				v.Set(c)
				set(c.Elem())
			}
		case reflect.Slice:
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			v.Set(c)
			for i := range c.Len() {
				set(c.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Field(i)
				if f.Kind() == reflect.String && strings.HasSuffix(v.Type().Field(i).Name, "URL") {
					if f.String() != "" {
						f.SetString(u)
						n++
					}
				} else if v.Type().Field(i).IsExported() {
					set(f)
				}
			}
		}
	}
	set(v)
	return v.Interface(), n
}

// TestScriptURLsRefused gives every URL of every page a URL of another
// scheme than http(s): a script URL, or one no built-in page means to
// link to (tel:, ftp:, mailto:, data:, which templ.URL alone lets
// through or not). No link, form action or image source keeps it; each
// becomes templ's about:invalid placeholder.
func TestScriptURLsRefused(t *testing.T) {
	urlAttr := regexp.MustCompile(`\b(href|action|src)="([^"]*)"`)
	// clean is a URL as a browser reads its scheme: without the controls
	// and spaces it drops, in lower case.
	clean := func(s string) string {
		return strings.ToLower(strings.Map(func(r rune) rune {
			if r <= ' ' {
				return -1
			}
			return r
		}, s))
	}
	for _, bad := range []string{"javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)", "vbscript:msgbox(1)",
		"data:text/html,<script>alert(1)</script>", "data:image/svg+xml,<svg/onload=alert(1)>", "tel:+15555550100", "TEL:+15555550100",
		"ftp://files.example.com/x", "ftps://files.example.com/x", "mailto:ada@example.com", "sms:+15555550100", "file:///etc/passwd"} {
		for name, page := range everyPage() {
			page, n := withURLs(page, bad)
			body := render(t, 200, page).Body.String()
			for _, m := range urlAttr.FindAllStringSubmatch(body, -1) {
				v := clean(html.UnescapeString(m[2]))
				if strings.HasPrefix(v, clean(bad)) || strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:text") {
					t.Errorf("%s: %s=%q kept %q", name, m[1], m[2], bad)
				}
			}
			if n > 0 && !strings.Contains(body, `="about:invalid#TemplFailedSanitizationURL"`) {
				t.Errorf("%s: no URL was replaced for %q", name, bad)
			}
		}
	}
}

// TestPageURL: pageURL keeps http(s) URLs and those without a scheme,
// and makes every other scheme about:invalid.
func TestPageURL(t *testing.T) {
	for _, ok := range []string{"", "/auth/signin", "signin?x=1", "?callbackUrl=https://a.example/", "#top", "/a:b", "/p?next=javascript:x",
		"//cdn.example.com/a", "http://a.example/", "https://a.example/x?y=z:1", "HTTPS://A.EXAMPLE/"} {
		if got := pageURL(ok); string(got) != ok {
			t.Errorf("pageURL(%q) = %q; want it kept", ok, got)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "tel:+15555550100", "ftp://x", "ftps://x", "mailto:a@b", "data:,x", "vbscript:x",
		"a:b", " https://a.example/", "http\t://x", "https\n://x", ":x"} {
		if got := pageURL(bad); got != templ.FailedSanitizationURL {
			t.Errorf("pageURL(%q) = %q; want about:invalid", bad, got)
		}
	}
}

// TestAttributeQuotes: a quote in any value stays inside its attribute.
func TestAttributeQuotes(t *testing.T) {
	const q = `x" onmouseover="alert(1)`
	body := render(t, 200, SignIn{CSRFToken: q, CallbackURL: q, OAuth: []Button{{ID: "a", Name: q, SigninURL: "/s?" + q}},
		Forms: []Form{CredentialsForm{ID: "c", Name: q, CallbackURL: "/c", Fields: []Field{{Name: q, Label: q, Placeholder: q, Autocomplete: q}}}},
	}).Body.String()
	if strings.Contains(body, ` onmouseover="`) {
		t.Errorf("a quote ended an attribute:\n%s", body)
	}
	for _, want := range []string{`name="csrfToken" value="x&#34; onmouseover=&#34;alert(1)"`, `action="/s?x&#34; onmouseover=&#34;alert(1)"`} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %s", want)
		}
	}
}

// TestHelperFormsEscape: the template helpers' forms escape their values
// and refuse a script URL as the action.
func TestHelperFormsEscape(t *testing.T) {
	f := HelperForm{Action: "javascript:alert(1)", CSRF: `"><script>`, Callback: `"><script>`, Name: "<script>alert(1)</script>", Class: `x" onclick="y`, Lang: "en",
		Fields: []Field{{Name: `"><script>`, Label: "<script>", Type: `text" onfocus="x`, Placeholder: `"`, Autocomplete: `"`}}}
	for kind, out := range map[string]template.HTML{"button": f.Button(), "email": f.Email(), "credentials": f.Credentials()} {
		s := string(out)
		if strings.Contains(s, "<script") || strings.Contains(s, ` onclick="`) || strings.Contains(s, ` onfocus="`) || strings.Contains(s, `action="javascript:`) {
			t.Errorf("%s: unescaped input: %s", kind, s)
		}
		if !strings.Contains(s, `action="about:invalid#TemplFailedSanitizationURL"`) || !strings.Contains(s, "Sign in with &lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s: %s", kind, s)
		}
	}
}

// TestHelperFormsSpacing: the helper forms keep their spaces, which show
// when the application puts them in running text.
func TestHelperFormsSpacing(t *testing.T) {
	f := HelperForm{Action: "/a", Name: "X", Lang: "en", Fields: []Field{{Name: "u", Label: "User"}, {Name: "p", Type: "password"}}}
	if got, want := string(f.Email()), `aria-label="Email" required> <button type="submit">Sign in with X</button></form>`; !strings.HasSuffix(got, want) {
		t.Errorf("Email() = %s, want it to end %s", got, want)
	}
	if got, want := string(f.Credentials()), `<label>User <input type="text" name="u"></label> <label>p <input type="password" name="p"></label> <button type="submit">`; !strings.Contains(got, want) {
		t.Errorf("Credentials() = %s, want %s", got, want)
	}
}
