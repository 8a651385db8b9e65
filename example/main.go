// Command example is a small site that signs people in with Gatehouse.
//
//	go run ./example
//
// With nothing configured it starts offline: a built-in development OpenID
// provider ("Sign in with Development") and an SQLite database in
// gatehouse-example.db. Passkeys are on: sign in, add a passkey on the
// private page, and sign in with it next time (open the site as
// http://localhost:3000, since WebAuthn does not accept an IP address). It
// reads the Auth.js environment conventions, from the environment and then
// from .env in the working directory (which `gatehouse secret -write`
// writes; a variable set in the environment wins):
//
//	ADDR                    listen address (default localhost:3000)
//	AUTH_SECRET             session secret(s), comma-separated, newest first (default: random, with a warning)
//	AUTH_URL                public URL of the auth routes (default http://<ADDR>/auth)
//	AUTH_OIDC_ISSUER        a generic OpenID Connect provider "oidc" …
//	AUTH_OIDC_ID            … its client id
//	AUTH_OIDC_SECRET        … and secret
//	AUTH_<ID>_ID/_SECRET    any built-in provider, e.g. AUTH_GITHUB_ID, AUTH_YANDEX_ID (+ _ISSUER where needed)
//	DATABASE_URL            postgres://… to use PostgreSQL, or a file path for SQLite
//	REDIS_URL               redis://… to run several instances: sessions, e-mail tokens and every limit in Redis
//	TRUSTED_PROXIES         the load balancer's addresses or CIDR prefixes, comma-separated (X-Forwarded-For)
//	AUTH_EMAIL_SERVER       SMTP URL for e-mail sign-in links, e.g. smtps://user:pass@smtp.example.com
//	AUTH_EMAIL_FROM         … and their sender
//	DEV                     1 for development mode (also on when AUTH_SECRET is unset)
//	DEV_SECOND_PROVIDER     1 for a second development provider, "Development (work)" at /dev-work, to try linking accounts
//	DEV_OUTBOX              0 for no e-mail sign-in in development (no outbox), so a linked account can be the last way to sign in
//	API_ADDR                listen address of the second service, example/api (default localhost:3001; "off": not started)
//	API_URL                 that service's URL, the audience of the access tokens the site issues (default http://<API_ADDR>)
//
// In development mode, and only then, the site offers the built-in
// development provider when no other is configured, a password form with
// a demo user (demo / demo), and without AUTH_EMAIL_SERVER an outbox page,
// /dev/mail, for the e-mail sign-in links. With AUTH_SECRET set (a
// deployment), no provider configured and no DEV=1 it refuses to start
// and says which variables to set: a deployment that forgot its provider
// must not let anyone in as a demo user.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/adapter"
	"github.com/gatehouse-auth/gatehouse/adapter/postgres"
	"github.com/gatehouse-auth/gatehouse/adapter/redisstore"
	"github.com/gatehouse-auth/gatehouse/adapter/sqlite"
	"github.com/gatehouse-auth/gatehouse/apikey"
	"github.com/gatehouse-auth/gatehouse/authtest"
	"github.com/gatehouse-auth/gatehouse/example/internal/apiservice"
	"github.com/gatehouse-auth/gatehouse/internal/dotenv"
	"github.com/gatehouse-auth/gatehouse/limit/redislimit"
	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/permission"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/builtin"
	"github.com/gatehouse-auth/gatehouse/providers/passkey"
	"github.com/gatehouse-auth/gatehouse/selfservice"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
	"github.com/gatehouse-auth/gatehouse/twofactor"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	getenv, err := withEnvFile(os.Getenv, ".env")
	if err != nil {
		log.Fatal(err)
	}
	if err := run(ctx, getenv, nil); err != nil {
		log.Fatal(err)
	}
}

// withEnvFile returns getenv falling back on the env file at path (the
// .env that `gatehouse secret -write` writes) for the variables the
// environment leaves unset. A missing file is skipped; a malformed one
// is an error naming the line, never its value.
func withEnvFile(getenv func(string) string, path string) (func(string) string, error) {
	g, err := dotenv.Getenv(getenv, path, true)
	if err != nil {
		return nil, fmt.Errorf("reading the settings: %w", err)
	}
	if _, statErr := os.Stat(path); statErr == nil {
		slog.Info("settings from the environment, then " + path)
	}
	return g, nil
}

// run starts the site and serves until ctx ends. ready, when not nil,
// receives the base URL once the site listens (for tests).
func run(ctx context.Context, getenv func(string) string, ready chan<- string) error {
	addr := cmp.Or(getenv("ADDR"), "localhost:3000")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	origin := "http://" + displayAddr(ln.Addr().String(), addr)
	authURL := cmp.Or(getenv("AUTH_URL"), origin+"/auth")
	// The second service (example/internal/apiservice), started beside
	// the site unless API_ADDR is "off".
	apiAddr := cmp.Or(getenv("API_ADDR"), "localhost:3001")
	apiURL := cmp.Or(getenv("API_URL"), "http://"+apiAddr)

	mux := http.NewServeMux()
	// The built-in pages in the example's green, with its logo (see pages.Theme).
	cfg := gatehouse.Config{URL: authURL, Theme: theme}
	mux.HandleFunc("GET /logo.svg", serveLogo)
	for _, s := range strings.Split(getenv("AUTH_SECRET"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.Secret = append(cfg.Secret, s)
		}
	}
	if len(cfg.Secret) == 0 {
		slog.Warn("AUTH_SECRET is not set: using a random secret, so sessions end when the example stops")
		cfg.Development = true
	}
	dev := cfg.Development || getenv("DEV") == "1"

	// Providers: a generic OpenID Connect provider, the built-ins named in
	// the environment, or else the development provider.
	if iss := getenv("AUTH_OIDC_ISSUER"); iss != "" {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: "oidc", Name: cmp.Or(getenv("AUTH_OIDC_NAME"), "OpenID Connect"), Type: providers.TypeOIDC,
			Issuer: iss, ClientID: getenv("AUTH_OIDC_ID"), ClientSecret: getenv("AUTH_OIDC_SECRET"),
		})
	}
	cfg.Providers = append(cfg.Providers, builtin.FromEnv(getenv)...)
	if len(cfg.Providers) == 0 && getenv("AUTH_EMAIL_SERVER") == "" && !dev {
		ln.Close()
		return errNoProvider
	}
	// The development provider: its server is made once the library has
	// read AUTH_URL (below), so that it registers the callback the library
	// really sends.
	var devProviders []devProvider
	if len(cfg.Providers) == 0 && dev {
		devProviders = append(devProviders, devProvider{id: "development", name: "Development", path: "/dev", color: "#2f6f4e"})
		if getenv("DEV_SECOND_PROVIDER") == "1" {
			// A second one, knowing the same people, to link to the first
			// from the accounts page (/auth/accounts).
			devProviders = append(devProviders, devProvider{id: "development-work", name: "Development (work)", path: "/dev-work", color: "#4b3f8f"})
		}
	}
	for _, d := range devProviders {
		cfg.Providers = append(cfg.Providers, providers.OAuthConfig[profile.Claims]{
			ID: d.id, Name: d.name, Type: providers.TypeOIDC,
			Issuer: origin + d.path, ClientID: authtest.DefaultClientID, ClientSecret: authtest.DefaultClientSecret,
			Style: providers.Style{BrandColor: d.color},
		})
	}

	// E-mail links and, in development, a password form with a demo user.
	mail := newMailer(getenv, dev, mux)
	if mail != nil {
		cfg.Providers = append(cfg.Providers, mail.emailProvider())
	}
	if dev {
		cfg.Providers = append(cfg.Providers, credentialsProvider())
	}
	// Passkeys: registered from the private page once signed in, then
	// offered on the sign-in page (and in its autofill). WebAuthn needs a
	// domain, so reach the example as localhost, not 127.0.0.1.
	cfg.Providers = append(cfg.Providers, passkey.New(passkey.WebAuthnConfig{RPName: "Gatehouse example"}))

	db, closeDB, err := openDatabase(ctx, cmp.Or(getenv("DATABASE_URL"), "gatehouse-example.db"))
	if err != nil {
		return err
	}
	defer closeDB()
	cfg.Adapter = db
	// Several instances: sessions, e-mail tokens and every limit in one
	// Redis; the client address of each limit from the load balancer.
	if raw := getenv("REDIS_URL"); raw != "" {
		opts, err := redis.ParseURL(raw)
		if err != nil {
			return fmt.Errorf("REDIS_URL: %w", err)
		}
		rdb := redis.NewClient(opts)
		defer rdb.Close()
		cfg.Adapter = redisstore.New(rdb, db, redisstore.Options{})
		cfg.Limits = redislimit.Backend{Client: rdb}
	}
	if proxies := getenv("TRUSTED_PROXIES"); proxies != "" {
		cfg.TrustedProxies = strings.Split(proxies, ",")
	}
	// Password accounts: sign-up, confirmation and reset links go where
	// the e-mail provider's do. They need an adapter that keeps password
	// hashes.
	if adapter.Supports[adapter.PasswordStore](cfg.Adapter) && mail != nil {
		cfg.Providers = append(cfg.Providers, mail.passwordProvider())
	}
	// Database sessions, read from the database at most once every five
	// minutes per browser: in between, a sealed copy in a cookie answers.
	cfg.Session.CookieCache = gatehouse.CookieCache{Enabled: true}
	// The signed-in user's linked accounts and sessions, at /auth/accounts
	// and /auth/sessions (linked from the private page).
	cfg.SelfService = selfservice.Routes{}
	// Two-factor sign-in: each user can turn it on at /auth/two-factor/setup.
	cfg.TwoFactor = twofactor.SignIn{Issuer: "Gatehouse example"}
	organizations(&cfg, dev, mail)    // orgs.go
	administration(&cfg, getenv, dev) // admin.go
	// Machine access: API keys, made on the built-in keys page
	// (/auth/api-keys, linked from the private page) and accepted at
	// /api/me; short-lived tokens for another service (example/api) at
	// /auth/token, verified there with the keys at /auth/jwks. A user's own
	// keys may hold profile:read; keys tied to an organization hold nothing
	// here.
	cfg.MachineAccess = apikey.Enable(apikey.Config{
		Permissions: func(_ context.Context, _, org string) (permission.Set, error) {
			if org != "" {
				return nil, nil
			}
			return permission.MustSet("profile:read"), nil
		},
		// The one service tokens are for: example/api.
		Tokens: &servicetoken.Config{Audiences: []string{apiURL}},
	})

	auth, err := gatehouse.New(cfg)
	if err != nil {
		return err
	}
	// Expired sessions and unused e-mail links are deleted hourly.
	go auth.Sweep(ctx, time.Hour)
	// Only its own callback and sign-out return are registered, so a
	// development provider redirects nowhere else (no open redirect). The
	// library puts its routes at AUTH_URL's origin and BasePath, whatever
	// the spelling of AUTH_URL ("…/auth/", or a bare origin for /auth).
	for _, d := range devProviders {
		u, err := url.Parse(authURL)
		if err != nil {
			return err
		}
		base := u.Scheme + "://" + u.Host + auth.BasePath()
		devServer, err := authtest.New(authtest.Options{
			Issuer:                 origin + d.path,
			RedirectURIs:           []string{base + "/callback/" + d.id},
			PostLogoutRedirectURIs: []string{base + "/signout/callback/" + d.id},
			Users: []authtest.User{
				{Subject: "alice", Name: "Alice Example", Email: "alice@example.com", EmailVerified: true},
				{Subject: "bob", Name: "Bob Example", Email: "bob@example.com", EmailVerified: true},
			},
		})
		if err != nil {
			return err
		}
		mux.Handle(d.path+"/", devServer)
		slog.Info("offering a built-in development provider", "id", d.id, "issuer", devServer.Issuer())
	}
	homePage, privatePage := parsePages(auth.FuncMap())
	mux.Handle(auth.BasePath()+"/", auth)
	mux.Handle("/private", auth.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := gatehouse.SessionFrom(r.Context())
		var keys []adapter.Authenticator
		if store, ok := db.(adapter.AuthenticatorAdapter); ok {
			keys, _ = store.ListAuthenticatorsByUserID(r.Context(), s.User.ID)
		}
		hasPassword := false
		if store, ok := db.(adapter.PasswordStore); ok && adapter.Supports[adapter.PasswordStore](db) {
			_, err := store.PasswordHash(r.Context(), s.User.ID)
			hasPassword = err == nil
		}
		render(w, r, auth, privatePage, privateData{Session: s, Passkeys: len(keys), HasPassword: hasPassword})
	})))
	mux.Handle("/projects/delete", deleteProject(auth))
	// An API for programs: it answers a request carrying an API key with
	// the key's permission profile:read.
	mux.HandleFunc("GET /api/me", func(w http.ResponseWriter, r *http.Request) {
		key := gatehouse.APIKeyFrom(r.Context())
		if !key.Can("profile:read") {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "send an API key with profile:read as Authorization: Bearer", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"user": key.UserID, "key": key.KeyID, "permissions": key.Permissions})
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		render(w, r, auth, homePage, homeData{Providers: auth.Providers(r), Dev: dev})
	})

	srv := newServer(auth.Middleware(mux), defaultTimeouts)
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if apiAddr != "off" {
		go serveAPI(ctx, apiAddr, authURL, apiURL)
	}
	slog.Info("example site listening", "url", origin)
	if ready != nil {
		ready <- origin
	}
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// serveAPI serves the example's second service on addr until ctx ends:
// it accepts only the access tokens the site at authURL issues for
// audience. A port already taken (a second example running) is logged,
// not fatal: the site works without it.
func serveAPI(ctx context.Context, addr, authURL, audience string) {
	api, err := apiservice.New(authURL, audience)
	if err != nil {
		slog.Warn("the example API did not start", "err", err)
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		slog.Warn("the example API did not start (API_ADDR=off turns it off)", "addr", addr, "err", err)
		return
	}
	srv := newServer(api, defaultTimeouts)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	slog.Info("example API listening", "url", "http://"+ln.Addr().String(), "audience", audience)
	_ = srv.Serve(ln)
}

// devProvider is a built-in development OpenID provider the example
// serves itself, at path, in development mode only.
type devProvider struct {
	id, name, path, color string
}

// errNoProvider is run's answer for a deployment without a provider.
var errNoProvider = errors.New(`no sign-in provider is configured and this is not development mode (AUTH_SECRET is set, DEV is not 1).
Set one of:
  AUTH_<ID>_ID and AUTH_<ID>_SECRET   a built-in provider, e.g. AUTH_GITHUB_ID, AUTH_GITHUB_SECRET (+ AUTH_<ID>_ISSUER where it needs one)
  AUTH_OIDC_ISSUER, AUTH_OIDC_ID, AUTH_OIDC_SECRET   any OpenID Connect provider
  AUTH_EMAIL_SERVER, AUTH_EMAIL_FROM   e-mail sign-in links
or DEV=1 for the built-in development sign-in (never on a public site)`)

// timeouts bound how long a connection may hold the server.
type timeouts struct {
	readHeader, read, write, idle time.Duration
}

// defaultTimeouts: a client has 10 s to send its headers and 30 s for the
// whole request (a sign-in form is small, so a body trickled a byte at a
// time is cut off), the handler 30 s to answer (provider calls are bounded
// by Config.ProviderTimeout, 10 s), and an idle keep-alive connection is
// closed after 60 s.
var defaultTimeouts = timeouts{readHeader: 10 * time.Second, read: 30 * time.Second, write: 30 * time.Second, idle: 60 * time.Second}

// newServer is the example's http.Server: every phase of a connection is
// bounded, and request headers are limited to 64 KiB (a chunked session
// cookie needs a few).
func newServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.readHeader,
		ReadTimeout:       t.read,
		WriteTimeout:      t.write,
		IdleTimeout:       t.idle,
		MaxHeaderBytes:    64 << 10,
	}
}

// openDatabase opens PostgreSQL for a postgres:// URL, SQLite otherwise,
// and applies the schema.
func openDatabase(ctx context.Context, dsn string) (adapter.Adapter, func(), error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		a, err := postgres.Open(ctx, dsn)
		if err != nil {
			return nil, nil, fmt.Errorf("opening PostgreSQL: %w", err)
		}
		if err := a.Migrate(ctx); err != nil {
			a.Close()
			return nil, nil, fmt.Errorf("migrating PostgreSQL: %w", err)
		}
		return a, a.Close, nil
	}
	a, err := sqlite.Open(ctx, dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("opening SQLite %s: %w", dsn, err)
	}
	if err := a.Migrate(ctx); err != nil {
		a.Close()
		return nil, nil, fmt.Errorf("migrating SQLite: %w", err)
	}
	return a, func() { a.Close() }, nil
}

func displayAddr(listening, asked string) string {
	host, port, _ := net.SplitHostPort(listening)
	if h, _, _ := net.SplitHostPort(asked); h == "localhost" || h == "" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

func render(w http.ResponseWriter, r *http.Request, auth *gatehouse.Handler, t *template.Template, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := auth.Execute(w, r, t, data); err != nil {
		slog.Error("rendering", "err", err)
	}
}

// layout gives the example's own pages the built-in pages' look
// (pages.StyleSheet, with the example's theme), card and logo.
const layout = `<!doctype html><html lang="en" class="auto"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Gatehouse example</title><style>{{pageStyle}}
.card{max-width:28rem}.card>p>form,.card>form{margin:.5rem 0}dl{margin:0 0 1rem}dt{font-weight:600}dd{margin:0 0 .5rem;overflow-wrap:anywhere}
code{font-size:.875rem}</style></head><body><main><img class="site-logo" src="/logo.svg" alt="Gatehouse"><div class="card">`

// layoutEnd closes what layout opens.
const layoutEnd = `</div></main></body></html>`

// homeData is what the home page shows.
type homeData struct {
	Providers []providers.AppProvider
	Dev       bool
}

// theme is the example's look: the built-in pages' and its own.
var theme = pages.Theme{BrandColor: "#2f6f4e", Logo: "/logo.svg"}

// pageStyle is layout's style sheet.
func pageStyle() template.CSS { return pages.StyleSheet(theme) }

func parsePages(funcs template.FuncMap) (home, private *template.Template) {
	funcs["pageStyle"] = pageStyle
	home = template.Must(template.New("home").Funcs(funcs).Parse(layout + homeBody + layoutEnd))
	private = template.Must(template.New("private").Funcs(funcs).Parse(layout + privateBody + layoutEnd))
	return home, private
}

const homeBody = `
<h1>Gatehouse example</h1>
{{with session}}<p>Signed in as <strong>{{.User.Name}}</strong> ({{.User.Email}}).</p>
<p><a href="/private">Your private page</a></p>{{signOut "class" "btn secondary"}}
{{else}}<p>You are not signed in.</p>
{{range .Providers}}{{if ne .Type "webauthn"}}{{signIn .ID "class" "btn primary"}}{{end}}{{end}}
{{if .Dev}}<p><small>Development mode: the password form knows <code>demo</code> / <code>demo</code>; sign-in links go to the <a href="/dev/mail">outbox</a> unless <code>AUTH_EMAIL_SERVER</code> is set.</small></p>{{end}}
<p>Or use the <a href="/auth/signin">built-in sign-in page</a>, or try the <a href="/private">private page</a>.</p>{{end}}`

// privateData is what the private page shows.
type privateData struct {
	*gatehouse.Session
	Passkeys    int  // how many passkeys the user has
	HasPassword bool // whether the user has a password (password accounts)
}

// The private page registers passkeys with the library's script, served
// at /auth/webauthn.js: a form marked data-webauthn, with the CSRF token.
const privateBody = `
<h1>Private page</h1>
<p>Only signed-in people see this.</p>
<dl><dt>Name</dt><dd>{{.User.Name}}</dd><dt>E-mail</dt><dd>{{.User.Email}}</dd><dt>User id</dt><dd><code>{{.User.ID}}</code></dd>
<dt>Session expires</dt><dd>{{.Expires.Format "2006-01-02 15:04"}}</dd>
<dt>Passkeys</dt><dd id="passkeys">{{.Passkeys}}</dd></dl>
<form method="post" action="/auth/callback/passkey" data-webauthn data-options="/auth/webauthn-options/passkey" data-callback="/auth/callback/passkey">
<input type="hidden" name="csrfToken" value="{{csrfToken}}"><input type="hidden" name="callbackUrl" value="/private">
<button type="submit" id="add-passkey" class="btn secondary" data-action="register">Add a passkey</button>
<p data-webauthn-message role="alert" hidden></p>
</form>
<p><a href="/auth/accounts">Linked accounts</a> · <a href="/auth/sessions">Your sessions</a> · <a href="/auth/two-factor/setup">Two-factor sign-in</a> · <a href="/auth/api-keys" id="api-keys">API keys</a></p>
<p><small>Make a key on the API keys page, which shows it once: send it as <code>Authorization: Bearer …</code> to <a href="/api/me">/api/me</a>,
or to <code>POST /auth/token</code> for a token another service verifies with <a href="/auth/jwks">/auth/jwks</a>.</small></p>
{{if .HasPassword}}<p><a href="/auth/password/change">Change your password</a></p>{{end}}
<p><a href="/">Home</a></p>{{signOut "class" "btn secondary"}}
<script src="/auth/webauthn.js"></script>`
