package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
)

// Defaults of the callback URLs, as gatehouse.Config has them.
const (
	defaultURL  = "http://localhost:3000"
	defaultBase = "/auth"
)

func runProviders(ctx context.Context, e env, args []string) int {
	fl := flags(e, "providers", " [id ...]", `Lists the built-in providers: their name, type and the environment
variables that configure them; with ids, shows each in full, with the
callback URL to register with the provider. The URL is built from -url, else AUTH_URL,
else `+defaultURL+`, and the base path (-base, else the path of the URL,
else `+defaultBase+`); AUTH_REDIRECT_PROXY_URL replaces both when set.
Settings the environment leaves unset are read from the env file (.env,
or -env-file); the environment wins.`)
	site := siteFlags(fl)
	envFile := envFileFlag(fl)
	if code, ok := parse(fl, args); !ok {
		return code
	}
	if _, code, ok := readEnvFile(&e, "providers", fl, *envFile); !ok {
		return code
	}
	cb, err := site.callbacks(e.getenv)
	if err != nil {
		return usageError(e, "providers", "%v", err)
	}
	ids := registered()
	if fl.NArg() == 0 {
		listProviders(e, ids, cb)
		return exitOK
	}
	for _, a := range fl.Args() {
		if !slices.Contains(ids, providers.BuiltinID(a)) {
			msg := fmt.Sprintf("%q is not a built-in provider id", a)
			if near := nearIDs(a, ids); len(near) > 0 {
				msg += "; did you mean " + strings.Join(near, ", ") + "?"
			}
			return usageError(e, "providers", "%s", msg)
		}
	}
	for i, a := range fl.Args() {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		showProvider(e, providers.BuiltinID(a), cb)
	}
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, fromEnvNote)
	return exitOK
}

// listProviders prints the table of providers ids, narrow enough for an
// 80-column terminal: the variables by their suffix, and the callback URL
// once as a pattern (showProvider gives them in full).
func listProviders(e env, ids []providers.BuiltinID, cb func(string) string) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tTYPE\tVARIABLES (AUTH_<ID>_...)")
	for _, id := range ids {
		factory, _ := builtin.Lookup(id)
		b := factory(builtin.Options{ClientID: "x"}).ProviderBase()
		var suffixes []string
		for _, v := range envVars(id) {
			suffixes = append(suffixes, v[strings.LastIndexByte(v, '_')+1:])
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", id, printable(b.Name), b.Type, cmp.Or(strings.Join(suffixes, " "), "- (set in code)"))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, "\n<ID> is the id in capitals, \"-\" as \"_\": AUTH_MICROSOFT_ENTRA_ID_ID.")
	fmt.Fprintln(e.stdout, "Callback URL to register (oauth, oidc):", cb("<id>"))
	fmt.Fprintln(e.stdout, "gatehouse providers <id> shows one provider's variables and callback URL in full.")
	fmt.Fprintln(e.stdout)
	fmt.Fprintln(e.stdout, fromEnvNote)
}

// fromEnvNote says which variables the library reads.
const fromEnvNote = "builtin.FromEnv, and gatehouse.New for a provider that leaves them empty,\n" +
	"read AUTH_<ID>_ID, _SECRET and _ISSUER; gatehouse.New reads AUTH_<ID>_KEY\n" +
	"for an e-mail API provider made without a key."

// showProvider prints everything about provider id, one field a line.
func showProvider(e env, id providers.BuiltinID, cb func(string) string) {
	factory, _ := builtin.Lookup(id)
	b := factory(builtin.Options{ClientID: "x"}).ProviderBase()
	vars, callback := envVars(id), "- (nothing to register)"
	if id.IsOAuth() {
		callback = cb(string(id))
	}
	fmt.Fprintf(e.stdout, "%s\n", id)
	fmt.Fprintf(e.stdout, "  name:          %s\n", printable(b.Name))
	fmt.Fprintf(e.stdout, "  type:          %s\n", b.Type)
	fmt.Fprintf(e.stdout, "  variables:     %s\n", cmp.Or(strings.Join(vars, " "), "- (set in code)"))
	fmt.Fprintf(e.stdout, "  callback URL:  %s\n", callback)
}

// nearIDs returns the ids that name may have meant: those it is a prefix
// of or that are a prefix of it, and those within a small edit distance,
// closest first, at most five.
func nearIDs(name string, ids []providers.BuiltinID) []string {
	name = strings.ToLower(strings.TrimSpace(name))
	type near struct {
		id   string
		dist int
	}
	var found []near
	limit := max(1, min(3, len(name)/3))
	if slices.Contains(ids, providers.BuiltinID(name)) {
		return []string{name} // the id in other letter case
	}
	for _, id := range ids {
		s := string(id)
		d := editDistance(name, s)
		switch {
		case name == "":
		case strings.HasPrefix(s, name) && len(name) >= 2, strings.HasPrefix(name, s+"-"):
			found = append(found, near{s, 0})
		case d <= limit:
			found = append(found, near{s, d})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return cmp.Compare(a.dist, b.dist) })
	var out []string
	for _, f := range found[:min(len(found), 5)] {
		out = append(out, f.id)
	}
	return out
}

// editDistance returns the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// registered returns the ids of the builtin registry, sorted.
func registered() []providers.BuiltinID { return builtin.IDs() }

// emailAPIs are the e-mail providers that send through an HTTP API with a
// key (Auth.js reads it from AUTH_<ID>_KEY).
var emailAPIs = []providers.BuiltinID{
	providers.Resend, providers.SendGrid, providers.Postmark, providers.Mailgun,
	providers.ForwardEmail, providers.Loops,
}

// envVars returns the environment variables that configure provider id.
func envVars(id providers.BuiltinID) []string {
	prefix := "AUTH_" + providers.EnvName(string(id)) + "_"
	switch {
	case slices.Contains(emailAPIs, id):
		return []string{prefix + "KEY"}
	case !id.IsOAuth():
		return nil
	}
	vars := []string{prefix + "ID", prefix + "SECRET"}
	if needsIssuer(id) {
		vars = append(vars, prefix+"ISSUER")
	}
	return vars
}

// needsIssuer reports whether OAuth provider id has no issuer or
// discovery URL of its own and is incomplete without one: a self-hosted
// or per-tenant provider whose issuer the application must give.
func needsIssuer(id providers.BuiltinID) bool {
	factory, ok := builtin.Lookup(id)
	if !ok {
		return false
	}
	p, ok := factory(builtin.Options{ClientID: "x", ClientSecret: "x"}).(providers.OAuthProvider)
	if !ok {
		return false
	}
	o := p.OAuth()
	return o.Issuer == "" && o.WellKnown == "" && o.Validate() != nil
}

// site holds the flags that say where the application's auth routes are.
type site struct {
	url, base string
}

func siteFlags(fl *flag.FlagSet) *site {
	s := new(site)
	fl.StringVar(&s.url, "url", "", "the application's public URL (default $AUTH_URL, else "+defaultURL+")")
	fl.StringVar(&s.base, "base", "", "the base path of the auth routes (default the URL's path, else "+defaultBase+")")
	return s
}

// callbacks returns the function that gives a provider's callback URL,
// the redirect_uri gatehouse sends it: <origin><base>/callback/<id>, or
// <AUTH_REDIRECT_PROXY_URL>/callback/<id> when a redirect proxy is set.
// It checks the URL as gatehouse.New does.
func (s *site) callbacks(getenv func(string) string) (func(id string) string, error) {
	if p := getenv("AUTH_REDIRECT_PROXY_URL"); p != "" {
		u, err := url.Parse(p)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, errors.New("AUTH_REDIRECT_PROXY_URL is not an absolute http(s) URL")
		}
		p = strings.TrimSuffix(p, "/")
		return func(id string) string { return p + "/callback/" + id }, nil
	}
	raw := cmp.Or(s.url, getenv("AUTH_URL"), defaultURL)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%q is not an absolute http(s) URL without query", raw)
	}
	base := s.base
	if p := strings.TrimRight(u.Path, "/"); p != "" {
		if base != "" && "/"+strings.Trim(base, "/") != p {
			return nil, fmt.Errorf("base path %q differs from the path of URL %q", base, raw)
		}
		base = p
	}
	base = "/" + strings.Trim(cmp.Or(base, defaultBase), "/")
	if base == "/" || strings.ContainsAny(base, "?#\\ ") {
		return nil, fmt.Errorf("base path %q must be a path below the root, such as /auth", base)
	}
	origin := u.Scheme + "://" + u.Host
	return func(id string) string { return origin + base + "/callback/" + id }, nil
}
