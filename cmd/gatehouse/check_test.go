package main

import (
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/authtest"
)

const (
	testSecret   = "Zm9yIHRlc3RzIG9ubHk6IG5vdCBhIHJlYWwgc2VjcmV0IQ=="
	githubSecret = "github-client-secret-value"
)

// checkEnv returns an environment with a good secret, a Keycloak whose
// issuer is op, and GitHub (fixed endpoints).
func checkEnv(op *authtest.Server) map[string]string {
	return map[string]string{
		"AUTH_SECRET":          testSecret,
		"AUTH_URL":             "https://app.example.com/api/auth",
		"AUTH_KEYCLOAK_ID":     authtest.DefaultClientID,
		"AUTH_KEYCLOAK_SECRET": authtest.DefaultClientSecret,
		"AUTH_KEYCLOAK_ISSUER": op.Issuer(),
		"AUTH_GITHUB_ID":       "gh-id",
		"AUTH_GITHUB_SECRET":   githubSecret,
	}
}

func TestCheckGood(t *testing.T) {
	t.Parallel()
	op := authtest.NewServer(authtest.Options{Issuer: "/realms/app"})
	defer op.Close()
	r := runCLI(t, checkEnv(op), "check")
	r.want(t, exitOK,
		"  ok    AUTH_SECRET: 1 secret(s) of at least 32 bytes\n",
		"github (GitHub, oauth)\n"+
			"  ok    client id: AUTH_GITHUB_ID is set\n"+
			"  ok    client secret: AUTH_GITHUB_SECRET is set\n"+
			"  ok    endpoints: fixed in the provider's configuration (no discovery)\n"+
			"  ok    redirect URI to register: https://app.example.com/api/auth/callback/github\n",
		"keycloak (Keycloak, oidc)\n"+
			"  ok    client id: AUTH_KEYCLOAK_ID is set\n"+
			"  ok    client secret: AUTH_KEYCLOAK_SECRET is set\n"+
			"  ok    discovery: "+op.Issuer()+"/.well-known/openid-configuration answers, issuer "+op.Issuer()+"\n"+
			"  ok    redirect URI to register: https://app.example.com/api/auth/callback/keycloak\n",
		"All good: 2 provider(s) checked.\n")
	if strings.Contains(r.stdout, "FAIL") {
		t.Errorf("a problem reported:\n%s", r.stdout)
	}
	r.never(t, testSecret, authtest.DefaultClientSecret, githubSecret)
	var asked bool
	for _, req := range op.Requests() {
		asked = asked || req.Endpoint == authtest.EndpointDiscovery
	}
	if !asked {
		t.Error("the provider's discovery document was never asked for")
	}
}

// TestCheckWrongIssuer checks that a discovery document naming another
// issuer is a problem (OpenID Connect Discovery §4.3): the sign-in flow
// refuses it, so check must too.
func TestCheckWrongIssuer(t *testing.T) {
	t.Parallel()
	op := authtest.NewServer(authtest.Options{})
	defer op.Close()
	op.SetFaults(authtest.Faults{DiscoveryWrongIssuer: true})
	r := runCLI(t, checkEnv(op), "check")
	r.want(t, exitProblem,
		"  FAIL  discovery: "+op.Issuer()+"/.well-known/openid-configuration names issuer \""+op.URL+"/evil\", not the configured \""+op.Issuer()+"\"\n",
		"1 problem(s); 1 of 2 provider(s) have one.\n")
}

func TestCheckDeadProvider(t *testing.T) {
	t.Parallel()
	dead := "http://" + deadPort(t) + "/realms/gone"
	env := map[string]string{
		"AUTH_SECRET":          testSecret,
		"AUTH_KEYCLOAK_ID":     "id",
		"AUTH_KEYCLOAK_SECRET": "secret",
		"AUTH_KEYCLOAK_ISSUER": dead,
	}
	r := runCLI(t, env, "check", "-timeout", "5s")
	r.want(t, exitProblem,
		"  FAIL  discovery: "+dead+"/.well-known/openid-configuration: ",
		"connection refused",
		"  ok    redirect URI to register: http://localhost:3000/auth/callback/keycloak\n",
		"1 problem(s); 1 of 1 provider(s) have one.\n")
}

// TestCheckNotFound checks a discovery URL that answers 404: an issuer
// with a wrong path, the usual mistake.
func TestCheckNotFound(t *testing.T) {
	t.Parallel()
	op := authtest.NewServer(authtest.Options{Issuer: "/realms/app"})
	defer op.Close()
	env := checkEnv(op)
	env["AUTH_KEYCLOAK_ISSUER"] = op.URL + "/realms/other"
	r := runCLI(t, env, "check")
	r.want(t, exitProblem, "  FAIL  discovery: "+op.URL+"/realms/other/.well-known/openid-configuration: ", "answered 404")
}

func TestCheckProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"no secret", map[string]string{"AUTH_GITHUB_ID": "id", "AUTH_GITHUB_SECRET": "s"},
			[]string{"  FAIL  AUTH_SECRET is not set (gatehouse secret -write adds one to .env)\n"}},
		{"short secret", map[string]string{"AUTH_SECRET": testSecret + ", too-short-secret", "AUTH_GITHUB_ID": "id", "AUTH_GITHUB_SECRET": "s"},
			[]string{"  FAIL  AUTH_SECRET: secret 2 of 2 is 16 bytes; at least 32 are required"}},
		{"no provider", map[string]string{"AUTH_SECRET": testSecret},
			[]string{"  FAIL  no provider configured: set AUTH_<ID>_ID"}},
		{"no client secret", map[string]string{"AUTH_SECRET": testSecret, "AUTH_GITHUB_ID": "id"},
			[]string{"  FAIL  client secret: AUTH_GITHUB_SECRET is not set\n", "1 problem(s); 1 of 1 provider(s) have one."}},
		{"no issuer", map[string]string{"AUTH_SECRET": testSecret, "AUTH_KEYCLOAK_ID": "id", "AUTH_KEYCLOAK_SECRET": "s"},
			[]string{"  FAIL  configuration: provider \"keycloak\": ", "(set AUTH_KEYCLOAK_ISSUER)\n"}},
		{"bad AUTH_URL", map[string]string{"AUTH_SECRET": testSecret, "AUTH_URL": "app.example.com", "AUTH_GITHUB_ID": "id", "AUTH_GITHUB_SECRET": "s"},
			[]string{"  FAIL  AUTH_URL or AUTH_REDIRECT_PROXY_URL: \"app.example.com\" is not an absolute http(s) URL"}},
	} {
		r := runCLI(t, tc.vars, "check")
		r.want(t, exitProblem, tc.want...)
		r.never(t, "too-short-secret")
		if t.Failed() {
			t.Fatalf("case %q failed", tc.name)
		}
	}
}
