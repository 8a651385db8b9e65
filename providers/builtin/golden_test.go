package builtin

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

var update = flag.Bool("update", false, "rewrite testdata/providers from the providers' code (review the diff)")

// golden is what testdata/providers/<id>.json says of a built-in OAuth or
// OpenID Connect provider: its whole configuration as its factory makes
// it with a client id and secret (every exported field; for a callback,
// whether it is set), whether that configuration validates, and whether
// it then needs an issuer; and sample profiles with the user each maps
// to.
type golden struct {
	Config      map[string]any `json:"config"`
	Validates   bool           `json:"validates"`
	NeedsIssuer bool           `json:"needsIssuer,omitempty"`
	Profiles    []sample       `json:"profiles"`
}

// sample is a profile as the provider sends it, the tokens the mapping is
// given, and the user it maps to (EmailVerified: set or not) or a refusal.
type sample struct {
	Profile  json.RawMessage  `json:"profile"`
	Tokens   account.TokenSet `json:"tokens,omitzero"`
	User     profile.User     `json:"user,omitzero"`
	Verified bool             `json:"verified,omitempty"`
	Err      bool             `json:"err,omitempty"`
}

// TestBuiltinGoldens checks every built-in OAuth and OpenID Connect
// provider against its testdata/providers file: the table test of the
// providers' facts and profile mappings. `go test -update` rewrites the
// files from the code; the diff is the review.
func TestBuiltinGoldens(t *testing.T) {
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range registry {
			if !yield(string(id)) {
				return
			}
		}
	})
	for _, id := range ids {
		op, ok := registry[providers.BuiltinID(id)](Options{ClientID: "cid", ClientSecret: "secret"}).(providers.OAuthProvider)
		if !ok {
			continue // e-mail and credentials: their own packages' tests
		}
		t.Run(id, func(t *testing.T) {
			path := filepath.Join("testdata", "providers", id+".json")
			var want golden
			raw, err := os.ReadFile(path)
			if err == nil {
				err = json.Unmarshal(raw, &want)
			}
			if err != nil && !*update {
				t.Fatalf("%s: %v (go test -update writes it)", path, err)
			}
			got := goldenOf(t, op.OAuth(), id, want.Profiles)
			if *update {
				out, err := json.MarshalIndent(got, "", "\t")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			// Compare through JSON, as the file holds it.
			g, _ := json.Marshal(got)
			var back golden
			json.Unmarshal(g, &back)
			if !reflect.DeepEqual(back.Config, want.Config) {
				for k := range mergeKeys(back.Config, want.Config) {
					if !reflect.DeepEqual(back.Config[k], want.Config[k]) {
						t.Errorf("config %s = %v, want %v", k, back.Config[k], want.Config[k])
					}
				}
			}
			if back.Validates != want.Validates || back.NeedsIssuer != want.NeedsIssuer {
				t.Errorf("validates %v (needs an issuer %v), want %v (%v)", back.Validates, back.NeedsIssuer, want.Validates, want.NeedsIssuer)
			}
			if !slices.ContainsFunc(want.Profiles, func(s sample) bool { return !s.Err }) {
				t.Errorf("%s: no sample profile that maps to a user: add one as the provider sends it and run go test -update", path)
			}
			for i := range want.Profiles {
				w, g := want.Profiles[i], back.Profiles[i]
				if g.Err != w.Err || g.Verified != w.Verified || g.User != w.User {
					t.Errorf("profile %d maps to %+v (verified %v, refused %v), want %+v (%v, %v)", i, g.User, g.Verified, g.Err, w.User, w.Verified, w.Err)
				}
			}
		})
	}
}

// TestGoldenFilesRegistered fails for a file in testdata/providers whose
// id is not a registered provider: a fixture left behind by a rename.
func TestGoldenFilesRegistered(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "providers", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		if _, ok := Lookup(providers.BuiltinID(id)); !ok {
			t.Errorf("%s: %q is not a registered provider", f, id)
		}
	}
}

// goldenOf describes o, mapping each of samples' profiles.
func goldenOf(t *testing.T, o *providers.OAuth, id string, samples []sample) golden {
	g := golden{Config: dump(reflect.ValueOf(*o)).(map[string]any), Validates: o.Validate() == nil}
	if s, ok := g.Config["Style"].(map[string]any); ok && s["Icon"] != nil {
		s["Icon"] = true // whether it is set: TestIcons checks the path data
	}
	if !g.Validates {
		withIssuer := *o
		withIssuer.Issuer = "https://issuer.example/" + id
		if err := withIssuer.Validate(); err != nil {
			t.Errorf("Validate with an issuer: %v", err)
		}
		g.NeedsIssuer = true
	}
	for _, s := range samples {
		out := sample{Profile: s.Profile, Tokens: s.Tokens}
		p, err := o.DecodeProfile(s.Profile)
		if err != nil {
			t.Errorf("DecodeProfile(%s): %v", s.Profile, err)
			continue
		}
		u, err := o.MapProfile(context.Background(), p, s.Tokens)
		out.Err = err != nil
		out.Verified = u.EmailVerified != nil
		u.EmailVerified = nil
		out.User = u
		g.Profiles = append(g.Profiles, out)
	}
	return g
}

// dump is v's exported fields, recursively, as JSON would hold them;
// a function is whether it is set.
func dump(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Func:
		return !v.IsNil()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return dump(v.Elem())
	case reflect.Struct:
		if v.Type().PkgPath() != "" && v.Type().Name() != "" && v.NumField() == 0 {
			return nil
		}
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if d := dump(v.Field(i)); d != nil && !isZero(d) {
				m[f.Name] = d
			}
		}
		return m
	case reflect.Map:
		if v.Len() == 0 {
			return nil
		}
		m := map[string]any{}
		for _, k := range v.MapKeys() {
			m[k.String()] = dump(v.MapIndex(k))
		}
		return m
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			return nil
		}
		var out []any
		for i := range v.Len() {
			out = append(out, dump(v.Index(i)))
		}
		return out
	}
	// Basic values, as JSON writes them (a key's material included: the
	// factories here are given none).
	b, _ := json.Marshal(v.Interface())
	var x any
	json.Unmarshal(b, &x)
	return x
}

func isZero(x any) bool {
	switch y := x.(type) {
	case bool:
		return !y
	case string:
		return y == ""
	case float64:
		return y == 0
	case map[string]any:
		return len(y) == 0
	}
	return false
}

func mergeKeys(a, b map[string]any) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}
