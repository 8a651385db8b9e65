// Package builtin is the registry of Gatehouse's built-in OAuth 2.0 and
// OpenID Connect providers: each provider id (providers.BuiltinID)
// mapped to a factory that takes the settings an application usually
// keeps in its environment.
//
// The factories differ in their profile types, so the registry keeps them
// type-erased: a Factory returns a providers.OAuthProvider. Applications
// that want a provider's typed configuration call its package's New
// directly.
//
// The OAuth and OIDC entries are generated from the provider catalogue
// (registry_gen.go, written by `go generate`); the e-mail and credentials
// entries are in registry_other.go. Lookup and IDs read the registry.
package builtin

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/gatehouse-auth/gatehouse/providers"
)

// Options are the settings of a built-in provider that can come from the
// environment (AUTH_<ID>_ID, AUTH_<ID>_SECRET, AUTH_<ID>_ISSUER). Empty
// fields keep the provider's defaults.
type Options struct {
	ClientID     string
	ClientSecret string
	// Issuer is the provider's issuer or, for self-hosted OAuth providers,
	// its base URL.
	Issuer string
	// RedirectProxyURL is the provider's redirect proxy URL.
	RedirectProxyURL string
	// AllowDangerousEmailAccountLinking, when true, lets sign-ins with the
	// provider link to existing users with the same e-mail address.
	AllowDangerousEmailAccountLinking bool

	// Authorization, Token, UserinfoURL, UserinfoParams, Checks and Style
	// are laid over the provider's defaults (providers.Merge):
	// what is set wins, field by field, a parameter in a URL's query
	// included.
	Authorization  providers.AuthorizationEndpoint
	Token          providers.TokenEndpoint
	UserinfoURL    string
	UserinfoParams map[string]string
	Checks         []providers.Check
	Style          providers.Style

	// E-mail providers: Server is the SMTP URL (nodemailer, email) or
	// replaces an HTTP API's endpoint; From is the sender; APIKey is the
	// HTTP API's key; Domain is Mailgun's sending domain and
	// TransactionalID Loops's template id.
	Server, From, APIKey, Domain, TransactionalID string
}

// Factory makes a built-in provider's configuration from Options: a
// providers.OAuthProvider for the OAuth and OIDC ids, an email.Config for
// the e-mail ids, a credentials.Config for "credentials" (whose Authorize
// the application sets).
type Factory func(opts Options) providers.Provider

// Entry is one registration: a provider id and its factory.
type Entry struct {
	ID  providers.BuiltinID
	New Factory
}

// userConfig turns opts into the options of a provider's typed factory.
func userConfig[P any](opts Options) providers.OAuthUserConfig[P] {
	return providers.OAuthUserConfig[P]{
		ClientID:                          opts.ClientID,
		ClientSecret:                      opts.ClientSecret,
		Issuer:                            opts.Issuer,
		RedirectProxyURL:                  opts.RedirectProxyURL,
		AllowDangerousEmailAccountLinking: opts.AllowDangerousEmailAccountLinking,
		Authorization:                     opts.Authorization,
		Token:                             opts.Token,
		Userinfo:                          providers.UserinfoEndpoint[P]{URL: opts.UserinfoURL, Params: opts.UserinfoParams},
		Checks:                            opts.Checks,
		Style:                             opts.Style,
	}
}

// of makes a Factory from a provider package's New: the usual registry
// entry is {providers.Yandex, of(yandex.New)}.
func of[P any](newFn func(providers.OAuthUserConfig[P]) providers.OAuthConfig[P]) Factory {
	return func(opts Options) providers.Provider {
		return newFn(userConfig[P](opts))
	}
}

// registry maps every registered built-in provider id to its factory.
var registry = build(oauthEntries, otherEntries)

// Lookup returns the factory of the built-in provider id, and whether
// there is one.
func Lookup(id providers.BuiltinID) (Factory, bool) {
	f, ok := registry[id]
	return f, ok
}

// IDs returns the ids of every registered built-in provider, sorted. The
// slice is a fresh copy on each call.
func IDs() []providers.BuiltinID {
	return sortedIDs(registry)
}

func sortedIDs[F any](m map[providers.BuiltinID]F) []providers.BuiltinID {
	ids := make([]providers.BuiltinID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// build combines the registry files' lists into one map. When an id
// appears twice the first entry wins; TestRegistry reports the duplicate
// (see check).
func build(lists ...[]Entry) map[providers.BuiltinID]Factory {
	m := make(map[providers.BuiltinID]Factory)
	for _, list := range lists {
		for _, e := range list {
			if _, dup := m[e.ID]; !dup && e.New != nil {
				m[e.ID] = e.New
			}
		}
	}
	return m
}

// check reports what is wrong with the registry lists: ids that appear
// more than once, ids that are not a known providers.BuiltinID,
// entries without a factory, and factories whose configuration has a
// different id or a type that does not fit the id (an OAuth id must make
// an oauth or oidc provider, an e-mail id an email one, …).
func check(lists ...[]Entry) error {
	var errs []error
	seen := make(map[providers.BuiltinID]int)
	for _, list := range lists {
		for _, e := range list {
			seen[e.ID]++
			if !e.ID.Valid() {
				errs = append(errs, fmt.Errorf("%q is not a known BuiltinID", e.ID))
			}
			if e.New == nil {
				errs = append(errs, fmt.Errorf("%q has no factory", e.ID))
				continue
			}
			b := e.New(Options{ClientID: "x"}).ProviderBase()
			if b.ID != string(e.ID) {
				errs = append(errs, fmt.Errorf("%q: the factory's provider has id %q", e.ID, b.ID))
			}
			if want := kindOf(e.ID); !slices.Contains(want, b.Type) {
				errs = append(errs, fmt.Errorf("%q: the factory makes a provider of type %q, want %q", e.ID, b.Type, want))
			}
		}
	}
	var dups []string
	for id, n := range seen {
		if n > 1 {
			dups = append(dups, string(id))
		}
	}
	sort.Strings(dups)
	for _, id := range dups {
		errs = append(errs, fmt.Errorf("%q is registered %d times", id, seen[providers.BuiltinID(id)]))
	}
	return errors.Join(errs...)
}

// missing returns the provider ids with no registry entry, sorted, but
// for those in notYet.
func missing(m map[providers.BuiltinID]Factory) []providers.BuiltinID {
	var out []providers.BuiltinID
	for _, t := range providers.AllOAuthProviderTypes() {
		if _, ok := m[t]; !ok && !slices.Contains(notYet, t) {
			out = append(out, t)
		}
	}
	return out
}

// notYet are the ids whose providers are not registered yet.
var notYet = []providers.BuiltinID{providers.WebAuthn, providers.Passkey}

// kindOf returns the provider types an id's factory may make.
func kindOf(id providers.BuiltinID) []providers.ProviderType {
	switch id {
	case providers.Nodemailer, providers.Email, providers.Resend, providers.SendGrid, providers.Postmark,
		providers.Mailgun, providers.ForwardEmail, providers.Loops:
		return []providers.ProviderType{providers.TypeEmail}
	case providers.Credentials:
		return []providers.ProviderType{providers.TypeCredentials}
	case providers.WebAuthn, providers.Passkey:
		return []providers.ProviderType{providers.TypeWebAuthn}
	}
	return []providers.ProviderType{providers.TypeOIDC, providers.TypeOAuth}
}

// FromEnv returns every registered provider whose AUTH_<ID>_ID variable
// is set, configured with it, AUTH_<ID>_SECRET and AUTH_<ID>_ISSUER, in id
// order. <ID> is the id as providers.EnvName writes it, so
// microsoft-entra-id reads AUTH_MICROSOFT_ENTRA_ID_ID. getenv is usually
// os.Getenv.
func FromEnv(getenv func(string) string) []providers.Provider {
	return fromEnv(registry, getenv)
}

func fromEnv(registry map[providers.BuiltinID]Factory, getenv func(string) string) []providers.Provider {
	ids := sortedIDs(registry)
	var out []providers.Provider
	for _, id := range ids {
		if !id.IsOAuth() {
			continue // e-mail and credentials providers need more than the environment gives
		}
		prefix := "AUTH_" + providers.EnvName(string(id)) + "_"
		clientID := getenv(prefix + "ID")
		if clientID == "" {
			continue
		}
		out = append(out, registry[id](Options{
			ClientID:     clientID,
			ClientSecret: getenv(prefix + "SECRET"),
			Issuer:       getenv(prefix + "ISSUER"),
		}))
	}
	return out
}
