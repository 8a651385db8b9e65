package main

// Provider is one row of the catalogue: a built-in OAuth 2.0 or OpenID
// Connect provider. The generator writes, from it, the provider package's
// <package>_gen.go, its constant in package providers and its entry in
// the registry of package builtin.
type Provider struct {
	// ID is the provider id, part of its URLs ("azure-ad-b2c").
	ID string
	// Package is the Go package below providers/, and its directory.
	Package string
	// Const is the name of the id's constant in package providers.
	Const string
	// ConstDoc is a line comment for that constant, if any.
	ConstDoc string
	// Gatehouse marks the ids that Gatehouse adds to those of Auth.js.
	Gatehouse bool
	// Name is the display name ("Sign in with <Name>").
	Name string
	// Kind is "oauth" (OAuth 2.0, fixed endpoints) or "oidc" (OpenID
	// Connect, endpoints from discovery).
	Kind string
	// IssuerRequired marks the providers with no issuer of their own:
	// the application names the tenant, realm or instance (Issuer,
	// AUTH_<ID>_ISSUER).
	IssuerRequired bool
	// Doc is the package documentation.
	Doc string
	// Example appends to Doc the usual example: New with the client id
	// and secret (and, with IssuerRequired, the issuer) from the
	// environment.
	Example bool
	// Facts are the exported constants after ID and Name, in order:
	// Issuer, AuthorizationURL, TokenURL, UserinfoURL, Scope and the
	// provider's own.
	Facts []Const

	// ProfileDoc documents the Profile type (by default, with Claims,
	// the usual sentence).
	ProfileDoc string
	// Profile is the typed Profile struct's fields. With Claims set,
	// Profile is profile.Claims (the ID token's claims) and Profile is
	// empty; with neither, the Profile type is hand-written.
	Profile []Field
	Claims  bool

	// NewDoc and DefaultsDoc document New and Defaults; by default, with
	// the usual sentences naming the provider.
	NewDoc, DefaultsDoc string

	// Defaults says how the configuration before any user option is
	// made; nil means Defaults and New are hand-written (a provider whose
	// constructors take more than the options, such as a tenant or an
	// enterprise base URL).
	Defaults *Defaults

	// Map is how MapProfile maps a Profile to a user:
	//   - "fields": the expressions of MapID, MapName, MapEmail, MapImage;
	//   - "hook": the hand-written mapProfile of the package;
	//   - "claims": profile.FromClaims on the profile's claims;
	//   - "": MapProfile is hand-written.
	// Every generated MapProfile refuses a user without an id
	// (providers.RequireID) with the error "<id>: <Missing>".
	Map string
	// MapDoc documents MapProfile; when it is empty the generator writes
	// what the Map fields say.
	MapDoc                             string
	MapID, MapName, MapEmail, MapImage string
	Missing                            string

	// Factory names the registry's factory in package builtin when it is
	// not of(<package>.New).
	Factory string

	// Icon is the provider's logo, the path data of logos/<ID>.svg, which
	// the generator reads (see loadIcons); the table leaves it empty. The
	// package gets it as its Icon constant, and a generated Defaults sets
	// Style.Icon to it; a hand-written one must do so itself.
	Icon string
}

// Const is an exported constant of a provider package.
type Const struct {
	Name string
	// Value is a string constant's value; Expr, when set, is the value as
	// Go source instead (APIURL + "/user").
	Value, Expr string
	Doc         string
}

// Field is a field of a Profile struct: its name, Go type, struct tag
// (without the backquotes) and documentation.
type Field struct {
	Name, Type, Tag, Doc string
}

// Param is a request parameter: its key and its value as Go source.
type Param struct {
	Key, Value string
}

// Defaults is the configuration a provider's Defaults returns.
type Defaults struct {
	// Issuer uses the Issuer fact as the OIDC discovery base.
	Issuer bool
	// BaseURL makes a self-hosted OAuth provider: Defaults takes the
	// server's base URL (New passes the Issuer option) and the endpoints
	// are the AuthorizationPath, TokenPath and UserinfoPath facts under it
	// (providers.EndpointsAt).
	BaseURL bool
	// ScopeParam says where an OAuth provider's Scope goes: "scope" (the
	// "scope" parameter is the Scope fact), "empty" (the "scope"
	// parameter is sent empty) or "" (no "scope" parameter but those of
	// AuthParams).
	ScopeParam string
	// AuthParams are further authorization request parameters.
	AuthParams []Param
	// UserinfoParams are the userinfo request's query parameters.
	UserinfoParams []Param
	// TokenRequest and UserinfoRequest name hand-written functions that
	// replace the default token and userinfo requests.
	TokenRequest, UserinfoRequest string
	// Checks replace the default checks: "pkce", "state", "nonce".
	Checks []string
	// AuthMethod is the token endpoint's client authentication, e.g.
	// "client_secret_post"; empty keeps the default (basic).
	AuthMethod string
	// IDTokenAlg is the expected ID token signing algorithm (Go source).
	IDTokenAlg string
	// Style is the sign-in button's look.
	Style Style
}

// Style is the sign-in button's look, as providers.Style.
type Style struct {
	Logo, BrandColor, Bg, Text string
}
