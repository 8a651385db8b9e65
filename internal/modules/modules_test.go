package modules

import (
	"archive/zip"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// version is the version the local proxy serves every module at: the
// release the modules' go.mod files require.
const version = "v0.1.0"

// TestModulesResolveOutside builds, in modules of their own outside the
// repository, a program that requires otelgatehouse alone and one that
// requires examples/mount alone, by their module paths. The three are served by a
// module proxy in a directory (GOPROXY=file://…) made from the working
// tree, as a release would publish them; everything else comes from the
// module cache or the go command's own proxy. The repository's replace directives do not
// apply there, so a module that requires a Gatehouse version no release
// has, or that builds only against the tree beside it, fails here.
func TestModulesResolveOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three modules with the go command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	for _, m := range []struct{ path, dir string }{
		{"github.com/gatehouse-auth/gatehouse", root},
		{"github.com/gatehouse-auth/gatehouse/otelgatehouse", filepath.Join(root, "otelgatehouse")},
		{"github.com/gatehouse-auth/gatehouse/examples/mount", filepath.Join(root, "examples", "mount")},
	} {
		publish(t, proxy, m.path, m.dir)
	}

	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	upstream := strings.TrimSpace(string(out))

	// Each module alone, as a user who needs just it would require it.
	for name, prog := range map[string]string{
		"otelgatehouse": `auth, err := gatehouse.New(otelgatehouse.Instrument(gatehouse.Config{}))
	_, _ = auth, err`,
		"examples/mount": `var auth *gatehouse.Handler
	_ = mount.Gin(auth, http.NotFoundHandler(), http.NotFoundHandler())`,
	} {
		t.Run(name, func(t *testing.T) {
			user := t.TempDir()
			write(t, filepath.Join(user, "go.mod"), "module example.com/user\n\ngo 1.26\n\nrequire github.com/gatehouse-auth/gatehouse/"+name+" "+version+"\n")
			write(t, filepath.Join(user, "main.go"), `package main

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/`+name+`"
)

var _ = http.NotFoundHandler

func main() {
	`+prog+`
}
`)
			cmd := exec.Command("go", "build", "-o", os.DevNull, ".")
			cmd.Dir = user
			cmd.Env = append(os.Environ(),
				// The three modules from the file proxy; the rest from the
				// module cache or, on a machine that has not fetched them
				// yet, the proxy the go command uses. The file proxy
				// answers first, so the published tree is what resolves.
				"GOPROXY=file://"+filepath.ToSlash(proxy)+","+upstream,
				"GOFLAGS=-mod=mod", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("a user's build of %s failed: %v\n%s", name, err, out)
			}
		})
	}
}

// publish writes module path, from dir, into the file proxy at proxy as
// version: its list, .info, .mod and .zip (the layout of
// `go help goproxy`). The zip holds what a release would: dir's files
// without the nested modules, version control and installed packages.
func publish(t *testing.T, proxy, path, dir string) {
	t.Helper()
	at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(at, "list"), version+"\n")
	write(t, filepath.Join(at, version+".info"), `{"Version":"`+version+`"}`)
	write(t, filepath.Join(at, version+".mod"), string(mod))
	f, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata" || exists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasSuffix(p, ".png") {
			return nil // the screenshots are not needed to build
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := z.Create(path + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
