// Package gatehouse signs people in to net/http applications with OAuth
// 2.0, OpenID Connect, e-mail links, credentials and passkeys, with the
// provider configuration model, the REST routes and the environment
// conventions of Auth.js, and stricter checks: PKCE, state and nonce
// verified and bound to the provider and to the browser, ID token
// signatures always verified, RFC 9207 mix-up defence, same-origin
// redirects only, and a specific error for every failure.
//
// Build a Handler once with New, mount it under its base path, and wrap the
// application in its Middleware:
//
//	auth, err := gatehouse.New(gatehouse.Config{
//		Secret:    []string{os.Getenv("AUTH_SECRET")},
//		URL:       "https://app.example.com/auth",
//		Providers: []providers.Provider{github.New(providers.OAuthUserConfig[github.Profile]{ClientID: id, ClientSecret: secret})},
//	})
//	mux.Handle("/auth/", auth)
//	mux.Handle("/account", auth.Require(accountPage))
//	http.ListenAndServe(":3000", auth.Middleware(mux))
//
// Handlers read the signed-in user with SessionFrom(r.Context()).
//
// # The flow
//
// Every sign-in takes the same road; the provider's kind does the middle
// part. Each kind's flow lives in a package of its own and implements
// internal/plugin's Flow; New builds the OAuth and credentials flows
// (oauth.go, credentials.go), and the passkey, e-mail and
// password-account providers build their own (NewFlow), so the root
// imports none of them. Every flow ends in the one Finisher New built
// before them, which never calls back into the root.
//
//	POST {base}/signin/{id}      routes.go   origin, rate limit, CSRF token (internal/site)
//	  └ flow.SignIn              internal/oauthflow: checks sealed in a cookie bound to
//	                                         this browser and session; to the provider
//	                             internal/emailflow: a single-use link mailed, the
//	                                         same answer for everyone
//	                             credentials, passkeys: the form or script posts the callback
//	{base}/callback/{id}         routes.go   rate limit, origin of a same-site POST
//	  └ flow.Callback            internal/oauthflow: iss, state, binding, PKCE, code
//	                                         exchange, ID token, userinfo (internal/rp)
//	                             internal/emailflow: the token used up
//	                             internal/credentialsflow: attempt limits, Authorize
//	                                         (or the stored password: providers/passwordaccount)
//	                             internal/passkeyflow: assertion or attestation
//	    └ Finisher.FinishSignIn  internal/finish: SignIn callback, binding to the session that
//	                                         started it, linking (internal/accountlink)
//	      ├ twoFactor.Ask        internal/twofactorflow: 2FA on, a sealed pending cookie,
//	      │                                  then POST {base}/two-factor
//	      └ sessions.Issue       internal/sessions: a new JWT or database session
//
// Afterwards the Middleware (handler.go) reads the session on every
// request (internal/sessions), TokenSource and Client (tokens.go,
// internal/tokensource) call the provider's APIs with refreshed tokens,
// and sign-out (logout.go; RP-initiated logout in internal/oauthflow) and
// back-channel logout (internal/backchannel) end sessions. Config, its
// validation, the Auth entry point and the errors are in auth.go.
//
// # The packages
//
//	session                what a session is: Token, Session, the callbacks' params
//	internal/site          a request's origin and cookies; same origin, CSRF, rate
//	                       limit; failures, redirects and the error pages
//	internal/sessions      sessions issued, read, renewed, ended; the cookie cache
//	internal/oauthflow     the OAuth/OIDC sign-in: the sealed checks, the callback
//	internal/emailflow     the e-mail link sign-in
//	internal/credentialsflow the credentials sign-in: CSRF, attempt limits, Authorize
//	internal/passkeyflow   the passkey (WebAuthn) sign-in: options, ceremony, callback
//	internal/twofactorflow  the two-factor step of a sign-in: ask, the code form, verify;
//	                       built by twofactor.SignIn (Config.TwoFactor), linked only then
//	internal/selfservice   the signed-in user's own routes: linked accounts and
//	                       sessions, turned on by selfservice.Routes
//	                       (Config.SelfService) and linked only then; two-factor
//	                       settings (JSON and pages)
//	internal/rp            the OAuth 2.0 / OpenID Connect relying party: discovery,
//	                       keys, ID and logout tokens, PAR, DPoP, client auth,
//	                       exchange, refresh, userinfo; no cookies, no sessions
//	internal/tokensource   provider tokens refreshed once per rotation, saved
//	internal/backchannel   Back-Channel Logout 1.0's receiver
//	internal/cookies       cookie names, chunked cookies, the Auth.js session token
//	internal/accountlink   which stored user a sign-in is for
//	internal/signin        the result every flow hands to internal/finish
//	internal/finish        the end of every sign-in: callback, linking, second
//	                       factor, session
//	internal/httpx         bounded forms, redirects, JSON answers
//	internal/autherr, bounded, logclip, useragent, webauthnrp:
//	                       the one error type, the one cache, log values cut,
//	                       "Firefox on Linux", go-webauthn glue
//	twofactor, password    TOTP and backup codes; argon2id and the NIST rules
//	checks                 PKCE, state, nonce, iss; CSRF token, same origin, redirects
//	providers, providers/… provider configurations and the built-in providers
//	adapter, adapter/…     storage: memory, SQLite, PostgreSQL, Redis
//	pages, limit, profile, account, authtest: pages, rate limits, shapes, a test provider
package gatehouse
