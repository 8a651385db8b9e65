package pages

import (
	"bytes"
	"compress/gzip"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// logoFile is the only form a logo file may have: one path on the 24×24
// grid.
var logoFile = regexp.MustCompile(`^<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="([^"]+)"/></svg>\n?$`)

// TestLogoArchive: logos.gz holds the path of every logos/<id>.svg and
// nothing else, and each file is a single path on the 24×24 grid. With
// -update it rewrites logos.gz from the files.
func TestLogoArchive(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("logos", "*.svg"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no logo files: %v", err)
	}
	want := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sub := logoFile.FindSubmatch(b)
		if sub == nil || !pathData.Match(sub[1]) {
			t.Fatalf("%s is not a single 24x24 SVG path", f)
		}
		want[strings.TrimSuffix(filepath.Base(f), ".svg")] = string(sub[1])
	}
	if *update {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		for _, id := range slices.Sorted(maps.Keys(want)) {
			zw.Write([]byte(id + " " + want[id] + "\n"))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("logos.gz", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !maps.Equal(logoPaths, want) {
		t.Errorf("logos.gz holds %d logos, logos/ %d, or their paths differ: run go test ./pages -run TestLogoArchive -update", len(logoPaths), len(want))
	}
}

// TestLogoFiles: every logo file is small, and is listed in logos/README.md with its source.
func TestLogoFiles(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("logos", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(logoPaths) < 50 {
		t.Errorf("only %d logos loaded", len(logoPaths))
	}
	for id := range logoPaths {
		if !strings.Contains(string(readme), "| `"+id+"` |") {
			t.Errorf("logos/%s.svg is not listed in logos/README.md", id)
		}
		if fi, err := os.Stat(filepath.Join("logos", id+".svg")); err != nil || fi.Size() > 8<<10 {
			t.Errorf("logos/%s.svg: %v, size over 8 KiB", id, err)
		}
	}
	for _, id := range []string{"github", "google", "gitlab", "discord", "twitter"} {
		if !HasLogo(id) {
			t.Errorf("no built-in logo for %s", id)
		}
	}
	if HasLogo("development") || HasLogo("") || HasLogo("../pages") {
		t.Error("HasLogo is true for a provider without a logo")
	}
}

// TestButtonLogos: a built-in provider's button draws its logo inline in
// the text colour; a Style.Logo from the application wins; any other
// provider gets the initial badge.
func TestButtonLogos(t *testing.T) {
	body := render(t, 200, SignIn{OAuth: []Button{
		{ID: "gitlab", Name: "GitLab", SigninURL: "/a"},
		{ID: "google", Name: "Google", SigninURL: "/b", Style: providers.Style{Logo: "/static/google-official.svg"}},
		{ID: "corp", Name: "Corp SSO", SigninURL: "/c"},
	}}).Body.String()
	for _, want := range []string{
		`<svg class="logo" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="currentColor" d="` + logoPaths["gitlab"] + `"></path></svg><span>Sign in with GitLab</span>`,
		`<img class="logo" src="/static/google-official.svg" alt="" width="20" height="20"><span>Sign in with Google</span>`,
		`<span class="logo badge" aria-hidden="true">C</span><span>Sign in with Corp SSO</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("output lacks %.160s", want)
		}
	}
	if strings.Contains(body, logoPaths["google"]) {
		t.Error("the built-in Google logo is drawn although Style.Logo is set")
	}
}
