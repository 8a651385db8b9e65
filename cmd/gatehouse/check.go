package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-auth/gatehouse/internal/rp"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
	"github.com/gatehouse-auth/gatehouse/providers/microsoftentraid"
)

// minSecretLen is the shortest secret gatehouse.New accepts outside
// Development mode.
const minSecretLen = 32

// finding is one line of check's report.
type finding struct {
	problem bool
	text    string
}

func ok(format string, args ...any) finding {
	return finding{text: fmt.Sprintf(format, args...)}
}

func problem(format string, args ...any) finding {
	return finding{problem: true, text: fmt.Sprintf(format, args...)}
}

func runCheck(ctx context.Context, e env, args []string) int {
	fl := flags(e, "check", "", `Checks the set-up in the environment, as gatehouse.Config.FromEnv and
builtin.FromEnv read it: AUTH_SECRET, and for each provider whose
AUTH_<ID>_ID is set, that its client secret is set, that its discovery
document answers and names the configured issuer (or that it uses fixed
endpoints), and the redirect URI to register with it. Exit status 1 when
anything is wrong. Secrets are never printed.

Settings the environment leaves unset are read from the env file (.env,
which gatehouse secret -write writes, or -env-file); the environment wins.`)
	site := siteFlags(fl)
	envFile := envFileFlag(fl)
	timeout := fl.Duration("timeout", 10*time.Second, "how long each provider may take to answer")
	if code, ok := parse(fl, args); !ok {
		return code
	}
	if fl.NArg() > 0 {
		return usageError(e, "check", "unexpected argument %q", fl.Arg(0))
	}
	if *timeout <= 0 {
		return usageError(e, "check", "-timeout must be positive")
	}
	read, code, ok := readEnvFile(&e, "check", fl, *envFile)
	if !ok {
		return code
	}
	problems := 0
	show := func(f finding) {
		mark := "ok  "
		if f.problem {
			mark = "FAIL"
			problems++
		}
		fmt.Fprintf(e.stdout, "  %s  %s\n", mark, f.text)
	}

	fmt.Fprintln(e.stdout, "settings")
	if read {
		fmt.Fprintf(e.stdout, "  (from the environment, then %s)\n", *envFile)
	}
	show(checkSecret(e.getenv))
	callback, err := site.callbacks(e.getenv)
	if err != nil {
		if site.url != "" || site.base != "" {
			return usageError(e, "check", "%v", err)
		}
		show(problem("AUTH_URL or AUTH_REDIRECT_PROXY_URL: %v", err))
		callback = func(string) string { return "(unknown: fix the URL first)" }
	}

	list := builtin.FromEnv(e.getenv)
	if len(list) == 0 {
		show(problem("no provider configured: set AUTH_<ID>_ID (gatehouse providers lists them)"))
	}
	client := boundedClient(*timeout)
	reports := make([][]finding, len(list))
	var wg sync.WaitGroup
	for i, p := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i] = checkProvider(ctx, client, p, callback)
		}()
	}
	wg.Wait()
	bad := 0
	for i, p := range list {
		b := p.ProviderBase()
		fmt.Fprintf(e.stdout, "%s (%s, %s)\n", b.ID, b.Name, b.Type)
		before := problems
		for _, f := range reports[i] {
			show(f)
		}
		if problems > before {
			bad++
		}
	}
	if problems > 0 {
		fmt.Fprintf(e.stdout, "%d problem(s); %d of %d provider(s) have one.\n", problems, bad, len(list))
		return exitProblem
	}
	fmt.Fprintf(e.stdout, "All good: %d provider(s) checked.\n", len(list))
	return exitOK
}

// checkSecret reads the secrets as gatehouse.Config.FromEnv does
// (AUTH_SECRET_3, _2, _1, then the comma-separated AUTH_SECRET) and
// checks their number and length, never their value.
func checkSecret(getenv func(string) string) finding {
	var secrets []string
	for _, name := range []string{"AUTH_SECRET_3", "AUTH_SECRET_2", "AUTH_SECRET_1"} {
		if s := getenv(name); s != "" {
			secrets = append(secrets, s)
		}
	}
	for _, s := range strings.Split(getenv("AUTH_SECRET"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			secrets = append(secrets, s)
		}
	}
	if len(secrets) == 0 {
		return problem("AUTH_SECRET is not set (gatehouse secret -write adds one to .env)")
	}
	for i, s := range secrets {
		if len(s) < minSecretLen {
			return problem("AUTH_SECRET: secret %d of %d is %d bytes; at least %d are required (gatehouse secret makes one)",
				i+1, len(secrets), len(s), minSecretLen)
		}
	}
	return ok("AUTH_SECRET: %d secret(s) of at least %d bytes", len(secrets), minSecretLen)
}

// boundedClient returns the HTTP client of check: every request, body
// included, ends within timeout, and at most 3 redirects are followed.
func boundedClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = timeout
	return &http.Client{
		Transport: t,
		Timeout:   timeout,
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("stopped after 3 redirects")
			}
			return nil
		},
	}
}

// checkProvider checks one provider from builtin.FromEnv.
func checkProvider(ctx context.Context, client *http.Client, p providers.Provider, callback func(string) string) []finding {
	op, isOAuth := p.(providers.OAuthProvider)
	if !isOAuth {
		return []finding{problem("not an OAuth provider")}
	}
	o := op.OAuth()
	prefix := "AUTH_" + providers.EnvName(o.ID) + "_"
	out := []finding{ok("client id: %sID is set", prefix)}
	switch {
	case o.ClientSecret != "":
		out = append(out, ok("client secret: %sSECRET is set", prefix))
	case o.Client.TokenEndpointAuthMethod == providers.AuthNone, o.Client.TokenEndpointAuthMethod == providers.AuthPrivateKeyJWT:
		out = append(out, ok("client secret: not needed (%s)", o.Client.TokenEndpointAuthMethod))
	default:
		out = append(out, problem("client secret: %sSECRET is not set", prefix))
	}
	if err := o.Validate(); err != nil {
		hint := ""
		if o.Issuer == "" && o.WellKnown == "" {
			hint = " (set " + prefix + "ISSUER)"
		}
		out = append(out, problem("configuration: %v%s", err, hint))
	} else {
		out = append(out, checkEndpoints(ctx, client, o))
	}
	return append(out, ok("redirect URI to register: %s", callback(o.ID)))
}

// checkEndpoints fetches o's discovery document when the flow needs it
// and checks it as the flow does: it answers, names the configured
// issuer exactly (OpenID Connect Discovery §4.3, RFC 8414 §3.3), and gives
// the endpoints the configuration lacks.
func checkEndpoints(ctx context.Context, client *http.Client, o *providers.OAuth) finding {
	if !rp.New(o, nil, 0, 0).NeedsDiscovery() { // the flow's own rule
		return ok("endpoints: fixed in the provider's configuration (no discovery)")
	}
	u := cmp.Or(o.WellKnown, strings.TrimSuffix(o.Issuer, "/")+"/.well-known/openid-configuration")
	var m rp.Metadata
	if err := providers.FetchJSON(ctx, client, http.MethodGet, u, "", nil, nil, &m); err != nil {
		// Without the url.Error's wrapping, which repeats the URL.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return problem("discovery: %s: %s", u, printable(err.Error()))
	}
	switch {
	case m.Issuer == "":
		return problem("discovery: %s names no issuer", u)
	case o.Issuer != "" && m.Issuer != o.Issuer && !microsoftentraid.ValidDiscoveredIssuer(o.Issuer, m.Issuer):
		return problem("discovery: %s names issuer %q, not the configured %q", u, printable(m.Issuer), o.Issuer)
	}
	var missing []string
	if o.Authorization.URL == "" && m.AuthorizationEndpoint == "" {
		missing = append(missing, "authorization_endpoint")
	}
	if o.Token.URL == "" && o.Token.Request == nil && m.TokenEndpoint == "" {
		missing = append(missing, "token_endpoint")
	}
	if o.Type == providers.TypeOIDC && o.JWKSEndpoint == "" && m.JWKSURI == "" {
		missing = append(missing, "jwks_uri")
	}
	if o.Type == providers.TypeOAuth && o.UserinfoURL == "" && o.UserinfoRequest == nil && m.UserinfoEndpoint == "" {
		missing = append(missing, "userinfo_endpoint")
	}
	if len(missing) > 0 {
		return problem("discovery: %s lacks %s", u, strings.Join(missing, ", "))
	}
	return ok("discovery: %s answers, issuer %s", u, printable(m.Issuer))
}
