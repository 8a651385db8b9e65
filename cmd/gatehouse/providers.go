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
	fl := flags(e, "providers", " [id ...]", `Lists the built-in providers (or those named): their type, the
environment variables that configure them and the callback URL to
register with the provider. The URL is built from -url, else AUTH_URL,
else `+defaultURL+`, and the base path (-base, else the path of the URL,
else `+defaultBase+`); AUTH_REDIRECT_PROXY_URL replaces both when set.`)
	site := siteFlags(fl)
	if code, ok := parse(fl, args); !ok {
		return code
	}
	cb, err := site.callbacks(e.getenv)
	if err != nil {
		return usageError(e, "providers", "%v", err)
	}
	ids := registered()
	if fl.NArg() > 0 {
		for _, a := range fl.Args() {
			if !slices.Contains(ids, providers.OAuthProviderType(a)) {
				return usageError(e, "providers", "%q is not a built-in provider id", a)
			}
		}
		ids = slices.DeleteFunc(ids, func(id providers.OAuthProviderType) bool {
			return !slices.Contains(fl.Args(), string(id))
		})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTYPE\tENVIRONMENT\tCALLBACK URL")
	for _, id := range ids {
		factory, _ := builtin.Lookup(id)
		typ := factory(builtin.Options{ClientID: "x"}).ProviderBase().Type
		vars, callback := envVars(id), "-"
		if id.IsOAuth() {
			callback = cb(string(id))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", id, typ, cmp.Or(strings.Join(vars, " "), "- (set in code)"), callback)
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, "\nbuiltin.FromEnv, and gatehouse.New for a provider that leaves them empty, read AUTH_<ID>_ID,")
	fmt.Fprintln(e.stdout, "_SECRET and _ISSUER; gatehouse.New reads AUTH_<ID>_KEY for an e-mail API provider made without a key.")
	return exitOK
}

// registered returns the ids of the builtin registry, sorted.
func registered() []providers.OAuthProviderType { return builtin.IDs() }

// emailAPIs are the e-mail providers that send through an HTTP API with a
// key (Auth.js reads it from AUTH_<ID>_KEY).
var emailAPIs = []providers.OAuthProviderType{
	providers.Resend, providers.SendGrid, providers.Postmark, providers.Mailgun,
	providers.ForwardEmail, providers.Loops,
}

// envVars returns the environment variables that configure provider id.
func envVars(id providers.OAuthProviderType) []string {
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
func needsIssuer(id providers.OAuthProviderType) bool {
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
