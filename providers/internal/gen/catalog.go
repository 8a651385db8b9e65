package main

// catalog is the table of the built-in OAuth 2.0 and OpenID Connect
// providers, in id order. Adding a provider is adding a row here and a
// golden fixture, providers/builtin/testdata/providers/<id>.json (see
// docs/providers.md).
var catalog = []Provider{
	{
		ID: "42-school", Package: "fortytwoschool", Const: "FortyTwoSchool",
		Name: "42 School", Kind: "oauth",
		Doc: `Package fortytwoschool is the built-in 42 School provider (OAuth 2.0,
the 42 intranet API): its endpoints, its profile record and the mapping
of that profile to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://api.intra.42.fr/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.intra.42.fr/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.intra.42.fr/v2/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "public", Doc: "Scope asks for read access to the user's public data."},
		},
		ProfileDoc: `Profile is the answer of GET /v2/me: the 42 intranet user, with the
members the mapping and most applications use.`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id at 42."},
			{"Email", "string", `json:"email"`, "Email is the user's 42 e-mail address."},
			{"Login", "string", `json:"login"`, "Login is the user's 42 login."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the user's last name."},
			{"UsualFullName", "string", `json:"usual_full_name"`, "UsualFullName is the full name the user goes by."},
			{"UsualFirstName", "string", `json:"usual_first_name,omitempty"`, "UsualFirstName is the first name the user goes by, if set."},
			{"URL", "string", `json:"url"`, "URL is the user's API URL."},
			{"Phone", "string", `json:"phone,omitempty"`, "Phone is the user's phone number, or \"hidden\"."},
			{"Displayname", "string", `json:"displayname"`, "Displayname is the name the intranet shows."},
			{"Kind", "string", `json:"kind,omitempty"`, "Kind is the kind of account, e.g. \"student\"."},
			{"Image", "Image", `json:"image"`, "Image is the user's picture, in several sizes."},
			{"Staff", "bool", `json:"staff?"`, "Staff is true for 42 staff."},
			{"PoolMonth", "string", `json:"pool_month,omitempty"`, "PoolMonth is the month of the user's piscine, e.g. \"september\"."},
			{"PoolYear", "string", `json:"pool_year,omitempty"`, "PoolYear is the year of the user's piscine, e.g. \"2021\"."},
			{"Location", "string", `json:"location,omitempty"`, "Location is the workstation the user is logged in at, if any."},
			{"Wallet", "int64", `json:"wallet"`, "Wallet is the user's wallet balance."},
			{"CorrectionPoint", "int64", `json:"correction_point"`, "CorrectionPoint is the user's evaluation points."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		DefaultsDoc: `Defaults returns the 42 School configuration before any user option:
the endpoints, the scope, the default checks (pkce) and MapProfile. The
button has the 42 logo but no colour of its own.`,
		MapDoc: `MapProfile maps a 42 profile to a user: id ← id (as a string), name ←
usual_full_name, email ← email, image ← image.link. A profile without an
id is an error: the user could not be told apart from others.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `p.UsualFullName`, MapEmail: `p.Email`, MapImage: `p.Image.Link`, Missing: "profile has no id",
	},
	{
		ID: "amazon", Package: "amazon", Const: "Amazon", Gatehouse: true,
		Name: "Amazon", Kind: "oauth",
		Doc: `Package amazon is the built-in Login with Amazon provider (OAuth 2.0),
which Auth.js does not have: its endpoints, the customer profile record,
and the mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.amazon.com/ap/oa", Doc: "AuthorizationURL is where the customer signs in and consents."},
			{Name: "TokenURL", Value: "https://api.amazon.com/auth/o2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.amazon.com/user/profile", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "profile", Doc: "Scope grants the customer's id, name and e-mail address."},
		},
		ProfileDoc: "Profile is the answer of GET /user/profile.",
		Profile: []Field{
			{"UserID", "string", `json:"user_id"`, `UserID is the customer's id for this application,
"amzn1.account.…".`},
			{"Name", "string", `json:"name"`, "Name is the customer's name."},
			{"Email", "string", `json:"email"`, "Email is the customer's e-mail address."},
			{"PostalCode", "string", `json:"postal_code,omitempty"`, "PostalCode is the customer's postal code (scope postal_code)."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#ff9900"}},
		DefaultsDoc: `Defaults returns the Amazon configuration before any user option. The
button uses Amazon's brand orange.`,
		MapDoc: `MapProfile maps an Amazon customer profile to a user: id ← user_id,
name ← name, email ← email. Amazon gives no picture.`,
		Map: "fields", MapID: `p.UserID`, MapName: `p.Name`, MapEmail: `p.Email`, Missing: "profile has no id",
	},
	{
		ID: "apple", Package: "apple", Const: "Apple",
		Name: "Apple", Kind: "oidc",
		Doc: `Package apple is the built-in Sign in with Apple provider (OpenID
Connect).

Apple differs from other OIDC providers in three ways the configuration
and the sign-in flow account for:

  - The client secret is not a fixed string but an ES256-signed JWT the
    application makes from its private key (see ClientSecret), valid for
    at most six months. It is sent in the token request's body
    (client_secret_post).
  - When the name or email scope is requested, Apple answers with
    response_mode=form_post: the callback is a cross-site POST, so the
    check cookies must be SameSite=None; Secure.
  - There is no userinfo endpoint: the profile is the ID token's claims.
    The user's name is sent only once, on the first authorization, as a
    JSON form field named "user" next to code and state. The sign-in flow
    adds that form value to the claims as the claim "user" (as the JSON
    text, or decoded); Profile.User reads it in either form.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://appleid.apple.com", Doc: "Issuer is the ID token issuer and the discovery base."},
			{Name: "Scope", Value: "name email", Doc: `Scope asks for the name and the e-mail address. Apple requires
response_mode=form_post when either is requested.`},
			{Name: "ResponseMode", Value: "form_post", Doc: "ResponseMode makes Apple POST the authorization response."},
			{Name: "UserFormField", Value: "user", Doc: `UserFormField is the form field of the callback POST that carries
the user's name on the first authorization.`},
		},
		ProfileDoc: `Profile is the ID token's claims, with the user form field of the first
authorization as User.`,
		Profile: []Field{
			{"Iss", "string", `json:"iss,omitempty"`, ""},
			{"Aud", "string", `json:"aud,omitempty"`, ""},
			{"Exp", "int64", `json:"exp,omitempty"`, ""},
			{"Iat", "int64", `json:"iat,omitempty"`, ""},
			{"Sub", "string", `json:"sub"`, "Sub is the user's stable id for the team."},
			{"Nonce", "string", `json:"nonce,omitempty"`, ""},
			{"AuthTime", "int64", `json:"auth_time,omitempty"`, ""},
			{"Email", "string", `json:"email,omitempty"`, `Email is the user's address, or a private relay address when
IsPrivateEmail.`},
			{"EmailVerified", "Bool", `json:"email_verified,omitempty"`, ""},
			{"IsPrivateEmail", "Bool", `json:"is_private_email,omitempty"`, ""},
			{"RealUserStatus", "int", `json:"real_user_status,omitempty"`, `RealUserStatus is Apple's guess that the user is real: 0
unsupported, 1 unknown, 2 likely real.`},
			{"NonceSupported", "bool", `json:"nonce_supported,omitempty"`, ""},
			{"TransferSub", "string", `json:"transfer_sub,omitempty"`, ""},
			{"User", "*User", `json:"user,omitempty"`, `User is the "user" form field, present on the first authorization
only; nil afterwards.`},
		},
		MapDoc: `MapProfile is the default mapping: id ← sub; name ← the user form
field's "first last" on the first authorization, else the e-mail
address (as Auth.js does; later sign-ins carry no name); email ← email.
Apple has no picture. EmailVerified is set when email_verified is true.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "asgardeo", Package: "asgardeo", Const: "Asgardeo",
		Name: "Asgardeo", Kind: "oidc", IssuerRequired: true,
		Doc: `Package asgardeo is the built-in Asgardeo provider (OpenID Connect, WSO2's
identity service). Its endpoints come from discovery of the issuer the
application supplies; the ID token's claims are mapped by the default
OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, given_name, email, picture, …).
The issuer has the form https://api.asgardeo.io/t/<organization>/oauth2/token:
Asgardeo serves its discovery document below that path, so Gatehouse's
usual <issuer>/.well-known/openid-configuration finds it.`,
		Claims:   true,
		Defaults: &Defaults{Style: Style{BrandColor: "#000"}},
		NewDoc: `New returns the Asgardeo provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the Asgardeo configuration before any user option: the
scope, the default checks and the button style. It has no issuer; the
endpoints come from the issuer's discovery document.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "atlassian", Package: "atlassian", Const: "Atlassian",
		Name: "Atlassian", Kind: "oauth",
		Doc: `Package atlassian is the built-in Atlassian provider (OAuth 2.0 "3LO",
Atlassian accounts as used by Jira, Confluence and Bitbucket Cloud).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://auth.atlassian.com/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://auth.atlassian.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.atlassian.com/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "read:me", Doc: "Scope lets the token read the user's account (GET /me)."},
			{Name: "Audience", Value: "api.atlassian.com", Doc: "Audience is the API the token is for; Atlassian requires it."},
			{Name: "Prompt", Value: "consent", Doc: `Prompt shows the consent screen, which Atlassian's 3LO documentation
lists as a required parameter.`},
		},
		ProfileDoc: "Profile is the answer of GET /me.",
		Profile: []Field{
			{"AccountID", "string", `json:"account_id"`, "AccountID is the user's Atlassian account id."},
			{"AccountType", "string", `json:"account_type,omitempty"`, "AccountType is \"atlassian\" for Atlassian accounts."},
			{"AccountStatus", "string", `json:"account_status,omitempty"`, "AccountStatus is \"active\", \"inactive\" or \"closed\"."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"Nickname", "string", `json:"nickname,omitempty"`, "Nickname is the user's public name."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
			{"EmailVerified", "bool", `json:"email_verified,omitempty"`, "EmailVerified says whether Atlassian verified Email."},
			{"Picture", "string", `json:"picture,omitempty"`, "Picture is the URL of the user's avatar."},
			{"Zoneinfo", "string", `json:"zoneinfo,omitempty"`, "Zoneinfo is the user's time zone, e.g. \"Australia/Sydney\"."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's locale, e.g. \"en-US\"."},
			{"ExtendedProfile", "ExtendedProfile", `json:"extended_profile,omitzero"`, "ExtendedProfile holds job details, when the user shares them."},
		},
		Defaults: &Defaults{AuthParams: []Param{{"scope", `Scope`}, {"audience", `Audience`}, {"prompt", `Prompt`}}, Checks: []string{"state"}, Style: Style{BrandColor: "#fff"}},
		DefaultsDoc: `Defaults returns the Atlassian configuration before any user option: the
endpoints, the scope, audience and prompt, the checks (state: Atlassian
does not do PKCE), MapProfile and the button style.`,
		MapDoc: `MapProfile maps an Atlassian profile to a user: id ← account_id, name ←
name, email ← email, image ← picture.`,
		Map: "fields", MapID: `p.AccountID`, MapName: `p.Name`, MapEmail: `p.Email`, MapImage: `p.Picture`, Missing: "profile has no account_id",
	},
	{
		ID: "auth0", Package: "auth0", Const: "Auth0",
		Name: "Auth0", Kind: "oidc", IssuerRequired: true,
		Doc: `Package auth0 is the built-in Auth0 provider (OpenID Connect).

The issuer has no default: set Issuer (or AUTH_AUTH0_ISSUER for
builtin.FromEnv) to the tenant's domain, https://<tenant>.<region>.auth0.com,
or its custom domain. Auth0's issuer always ends in a slash; New adds
one when it is missing, so that the discovery document's issuer and the
ID tokens' iss match the configuration.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims: true,
		Map:    "claims", Missing: "claims have no sub",
	},
	{
		ID: "authentik", Package: "authentik", Const: "Authentik",
		Name: "Authentik", Kind: "oidc", IssuerRequired: true,
		Doc: `Package authentik is the built-in provider for authentik (OpenID Connect).
The issuer is the application's, https://<host>/application/o/<application
slug>/ in authentik's default per-provider issuer mode. It must equal the
issuer of the discovery document character for character, trailing slash
included.

The issuer has no default: set Issuer (or AUTH_AUTHENTIK_ISSUER for
builtin.FromEnv), e.g.
https://authentik.example.com/application/o/my-app/.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{},
		NewDoc: `New returns the Authentik configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "azure-ad", Package: "azuread", Const: "AzureAD", ConstDoc: "alias of MicrosoftEntraID",
		Name: "Azure Active Directory", Kind: "oidc",
		Doc: `Package azuread is the Microsoft Entra ID provider under its former
name and id, "azure-ad" ("Azure Active Directory"), for applications
whose callback URLs and stored accounts use that id. Everything else,
including the multi-tenant issuer rule, is as in package
microsoftentraid.`,
		ProfileDoc: "Profile is the ID token's claims, as for Microsoft Entra ID.",
		Claims:     true,
		Map:        "claims", Missing: "claims have no sub",
	},
	{
		ID: "azure-ad-b2c", Package: "azureadb2c", Const: "AzureADB2C",
		Name: "Azure Active Directory B2C", Kind: "oidc", IssuerRequired: true,
		Doc: `Package azureadb2c is the built-in Azure Active Directory B2C provider
(OpenID Connect). The issuer belongs to the application's tenant and
user flow, so the application supplies it; the endpoints come from
discovery.

	p := azureadb2c.New(providers.OIDCUserConfig[azureadb2c.Profile]{
		ClientID:     os.Getenv("AUTH_AZURE_AD_B2C_ID"),
		ClientSecret: os.Getenv("AUTH_AZURE_AD_B2C_SECRET"),
		Issuer:       os.Getenv("AUTH_AZURE_AD_B2C_ISSUER"),
	})

B2C's discovery document lives under the user flow
(https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<flow>/v2.0/...),
while the issuer it announces, and that its ID tokens carry, names the
tenant by its GUID: https://<tenant>.b2clogin.com/<tenant-guid>/v2.0/.
Set Issuer to the latter and, when discovery from it fails, WellKnown
to WellKnown(tenant, flow).`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: `Profile is the claims of a B2C ID token. Which optional claims are
present depends on the user flow's "Return claim" settings.`,
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's object id in the tenant (the token's subject)."},
			{"OID", "string", `json:"oid,omitempty"`, "OID is the user's object id in the directory."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's display name."},
			{"PreferredUsername", "string", `json:"preferred_username,omitempty"`, "PreferredUsername is the user's sign-in name, when the flow returns it."},
			{"GivenName", "string", `json:"given_name,omitempty"`, "GivenName is the user's first name."},
			{"FamilyName", "string", `json:"family_name,omitempty"`, "FamilyName is the user's surname."},
			{"Emails", "[]string", `json:"emails,omitempty"`, "Emails are the user's addresses (\"Email Addresses\" claim)."},
			{"Country", "string", `json:"country,omitempty"`, "Country is the user's country."},
			{"PostalCode", "string", `json:"postalCode,omitempty"`, "PostalCode is the user's postal code."},
			{"IDP", "string", `json:"idp,omitempty"`, `IDP is the identity provider the user signed in with, for federated
sign-ins.`},
			{"TFP", "string", `json:"tfp,omitempty"`, "TFP is the user flow (policy) that issued the token."},
			{"Ver", "string", `json:"ver,omitempty"`, "Ver is the token version, \"1.0\"."},
			{"Iss", "string", `json:"iss,omitempty"`, "Iss is the token's issuer."},
			{"Aud", "string", `json:"aud,omitempty"`, "Aud is the client id the token is for."},
			{"Exp", "int64", `json:"exp,omitempty"`, "Exp is when the token expires, in seconds since the epoch."},
			{"Nbf", "int64", `json:"nbf,omitempty"`, "Nbf is when the token becomes valid, in seconds since the epoch."},
			{"Iat", "int64", `json:"iat,omitempty"`, "Iat is when the token was issued, in seconds since the epoch."},
			{"AuthTime", "int64", `json:"auth_time,omitempty"`, "AuthTime is when the user authenticated, in seconds since the epoch."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#0072c6"}},
		NewDoc: `New returns the Azure AD B2C provider configuration with opts laid over
its defaults by providers.Merge. opts.Issuer is required: without it
the configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope,
the default checks, MapProfile and the button style.`,
		MapDoc: `MapProfile maps B2C claims to a user: id ← sub, name ← name, else
preferred_username, email ← the first of emails, no image. B2C does not
assert that the address is verified, so EmailVerified stays nil.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "azure-devops", Package: "azuredevops", Const: "AzureDevOps",
		Name: "Azure DevOps", Kind: "oauth",
		Doc: `Package azuredevops is the built-in Azure DevOps provider (Azure DevOps
Services OAuth 2.0).

	p := azuredevops.New(providers.OAuthUserConfig[azuredevops.Profile]{
		ClientID:     os.Getenv("AUTH_AZURE_DEVOPS_ID"),     // the App ID
		ClientSecret: os.Getenv("AUTH_AZURE_DEVOPS_SECRET"), // the Client Secret
	})

Azure DevOps does not use the standard code exchange. Its authorization
request asks for response_type=Assertion, and the code is then traded
at /oauth2/token in a JWT-bearer assertion grant: the code is the
assertion and the client secret the client assertion. Auth.js writes
that exchange as a token.request handler, which its core never calls,
and also points its token URL at /oauth2/authorize, so its provider
cannot sign anyone in. Here the exchange is ExchangeAssertion, set as
Token.Request, against the real token endpoint.

The default authorization parameters carry response_type=Assertion,
which the sign-in flow must send as is (not replace with "code"). Azure
DevOps answers it with the usual code and state on the callback.

Azure DevOps does not support PKCE (its grant has no code_verifier), so
the callback is protected by state instead.

Microsoft no longer accepts new Azure DevOps OAuth app registrations and
recommends Microsoft Entra ID; this provider serves existing apps.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://app.vssps.visualstudio.com/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://app.vssps.visualstudio.com/oauth2/token", Doc: "TokenURL is where ExchangeAssertion trades the code for tokens."},
			{Name: "UserinfoURL", Value: "https://app.vssps.visualstudio.com/_apis/profile/profiles/me", Doc: `UserinfoURL answers the Profile as JSON to a Bearer GET, with the
query parameters of UserinfoParams.`},
			{Name: "Scope", Value: "vso.profile", Doc: `Scope lets the token read the user's profile. The scopes must match
those registered for the app.`},
			{Name: "ResponseType", Value: "Assertion", Doc: "ResponseType is the response_type Azure DevOps requires."},
			{Name: "AssertionGrantType", Value: "urn:ietf:params:oauth:grant-type:jwt-bearer", Doc: "AssertionGrantType is the grant_type of the code exchange."},
			{Name: "ClientAssertionType", Value: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", Doc: `ClientAssertionType is the client_assertion_type of the code
exchange: the client secret is itself a JWT.`},
		},
		ProfileDoc: "Profile is the answer of GET /_apis/profile/profiles/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's profile id (a GUID)."},
			{"DisplayName", "string", `json:"displayName,omitempty"`, "DisplayName is the user's name."},
			{"PublicAlias", "string", `json:"publicAlias,omitempty"`, "PublicAlias is the user's public alias (usually the id)."},
			{"EmailAddress", "string", `json:"emailAddress,omitempty"`, "EmailAddress is the user's address."},
			{"CoreRevision", "int64", `json:"coreRevision,omitempty"`, "CoreRevision is the revision of the core attributes."},
			{"TimeStamp", "string", `json:"timeStamp,omitempty"`, "TimeStamp is when the profile last changed."},
			{"Revision", "int64", `json:"revision,omitempty"`, "Revision is the profile's revision."},
			{"CoreAttributes", "CoreAttributes", `json:"coreAttributes,omitzero"`, "CoreAttributes holds the attributes asked for with coreAttributes."},
		},
		MapDoc: `MapProfile maps an Azure DevOps profile to a user: id ← id, name ←
displayName, email ← emailAddress, image ← AvatarDataURL.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.DisplayName`, MapEmail: `p.EmailAddress`, MapImage: `AvatarDataURL(p)`, Missing: "profile has no id",
	},
	{
		ID: "bankid-no", Package: "bankidno", Const: "BankIDNo",
		Name: "BankID Norge", Kind: "oidc",
		Doc: `Package bankidno is the built-in BankID Norge provider (OpenID Connect,
issuer https://auth.bankid.no/auth/realms/prod, endpoints from
discovery).

	p := bankidno.New(providers.OIDCUserConfig[bankidno.Profile]{
		ClientID:     os.Getenv("AUTH_BANKID_NO_ID"),
		ClientSecret: os.Getenv("AUTH_BANKID_NO_SECRET"),
	})

BankID puts the e-mail address in the userinfo answer only, not in the
ID token, and answers userinfo with a signed JWT (application/jwt)
rather than JSON. Auth.js declares this with idToken: false and
userinfo_signed_response_alg RS256, which its core leaves to the
underlying client; here FetchProfile reads that JWT itself. For testing
against BankID's pre-production environment, set Issuer to
PreprodIssuer.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://auth.bankid.no/auth/realms/prod", Doc: `Issuer is BankID's production issuer; the endpoints come from its
discovery document.`},
			{Name: "PreprodIssuer", Value: "https://auth.current.bankid.no/auth/realms/current", Doc: "PreprodIssuer is BankID's pre-production (test) issuer."},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
			{Name: "UILocales", Value: "no", Doc: "UILocales asks for BankID's pages in Norwegian."},
			{Name: "LoginHint", Value: "BIS", Doc: `LoginHint pre-selects the BankID method, as Auth.js does; override
login_hint in the authorization params to offer another.`},
		},
		ProfileDoc: `Profile is the claims BankID returns about the user, from the ID token
and the userinfo JWT. Which are present depends on the scopes granted.`,
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's id at BankID (a UUID, stable per user)."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"GivenName", "string", `json:"given_name,omitempty"`, "GivenName is the user's given names."},
			{"FamilyName", "string", `json:"family_name,omitempty"`, "FamilyName is the user's surname."},
			{"Birthdate", "string", `json:"birthdate,omitempty"`, "Birthdate is the user's date of birth, YYYY-MM-DD."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address (email scope; userinfo only)."},
			{"PhoneNumber", "string", `json:"phone_number,omitempty"`, "PhoneNumber is the user's phone number (phone scope; userinfo only)."},
			{"NNIN", "string", `json:"nnin,omitempty"`, "NNIN is the Norwegian national identity number (nnin scope)."},
			{"Iss", "string", `json:"iss,omitempty"`, "Iss is the issuer of the token the claims came from."},
		},
		Defaults: &Defaults{Issuer: true, AuthParams: []Param{{"ui_locales", `UILocales`}, {"login_hint", `LoginHint`}}, UserinfoRequest: "FetchProfile", AuthMethod: "client_secret_post", Checks: []string{"pkce", "state", "nonce"}, Style: Style{BrandColor: "#39134c"}},
		DefaultsDoc: `Defaults returns the configuration before any user option: the issuer,
the scope with ui_locales and login_hint, the checks (pkce, state and
nonce), client_secret_post, FetchProfile, MapProfile and the button
style.`,
		MapDoc: `MapProfile maps BankID claims to a user: id ← sub, name ← name, email ←
email when present, no image. BankID does not assert that the address
is verified, so EmailVerified stays nil.`,
		Map: "fields", MapID: `p.Sub`, MapName: `p.Name`, MapEmail: `p.Email`, Missing: "claims have no sub",
	},
	{
		ID: "battlenet", Package: "battlenet", Const: "BattleNet",
		Name: "Battle.net", Kind: "oidc", IssuerRequired: true,
		Doc: `Package battlenet is the built-in Battle.net provider (OpenID Connect,
Blizzard). The application picks the issuer of its region, one of the
Issuer constants; the endpoints come from discovery. Battle.net shares
no e-mail address or picture: the user is their account id and
BattleTag.

	p := battlenet.New(providers.OIDCUserConfig[battlenet.Profile]{
		ClientID:     os.Getenv("AUTH_BATTLENET_ID"),
		ClientSecret: os.Getenv("AUTH_BATTLENET_SECRET"),
		Issuer:       battlenet.IssuerGlobal,
	})`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: `Scope asks for an ID token (Auth.js also sends profile and email,
which Battle.net ignores).`},
		},
		ProfileDoc: "Profile is the claims of a Battle.net ID token.",
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's account id."},
			{"BattleTag", "string", `json:"battle_tag"`, "BattleTag is the user's BattleTag, e.g. \"Jaina#1234\"."},
			{"Iss", "string", `json:"iss,omitempty"`, "Iss is the token's issuer."},
			{"Aud", "string", `json:"aud,omitempty"`, "Aud is the client id the token is for."},
			{"Azp", "string", `json:"azp,omitempty"`, "Azp is the authorized party, the client id."},
			{"AtHash", "string", `json:"at_hash,omitempty"`, "AtHash is the access token's hash."},
			{"Exp", "int64", `json:"exp,omitempty"`, "Exp is when the token expires, in seconds since the epoch."},
			{"Iat", "int64", `json:"iat,omitempty"`, "Iat is when the token was issued, in seconds since the epoch."},
			{"JTI", "string", `json:"jti,omitempty"`, "JTI is the token's unique id."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#148eff"}},
		NewDoc: `New returns the Battle.net provider configuration with opts laid over
its defaults by providers.Merge. opts.Issuer is required (one of
the Issuer constants): without it the configuration is incomplete and gatehouse.New
reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope,
the default checks, MapProfile and the button style.`,
		MapDoc: `MapProfile maps Battle.net claims to a user: id ← sub, name ←
battle_tag, no e-mail, no image.`,
		Map: "fields", MapID: `p.Sub`, MapName: `p.BattleTag`, Missing: "claims have no sub",
	},
	{
		ID: "beyondidentity", Package: "beyondidentity", Const: "BeyondIdentity",
		Name: "Beyond Identity", Kind: "oidc", IssuerRequired: true,
		Doc: `Package beyondidentity is the built-in Beyond Identity provider (OpenID
Connect, passwordless). The issuer is the application's Beyond Identity
realm application, supplied by the application; the endpoints come from
discovery.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: "Profile is the claims Beyond Identity returns about the user.",
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's display name."},
			{"PreferredUsername", "string", `json:"preferred_username,omitempty"`, "PreferredUsername is the user's username."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#5077c5"}},
		NewDoc: `New returns the Beyond Identity provider configuration with opts laid
over its defaults by providers.Merge. opts.Issuer is required: without
it the configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope,
the default checks, MapProfile and the button style.`,
		MapDoc: `MapProfile maps Beyond Identity claims to a user: id ← sub, name ←
name, email ← email, no image. (Auth.js also passes preferred_username
on; a User has no such field, so it stays in the Profile.)`,
		Map: "fields", MapID: `p.Sub`, MapName: `p.Name`, MapEmail: `p.Email`, Missing: "claims have no sub",
	},
	{
		ID: "bitbucket", Package: "bitbucket", Const: "Bitbucket",
		Name: "Bitbucket", Kind: "oauth",
		Doc: `Package bitbucket is the built-in Bitbucket Cloud provider (OAuth 2.0).
The user endpoint carries no e-mail address, so users signed in with
Bitbucket have none.

	p := bitbucket.New(providers.OAuthUserConfig[bitbucket.Profile]{
		ClientID:     os.Getenv("AUTH_BITBUCKET_ID"),     // the consumer key
		ClientSecret: os.Getenv("AUTH_BITBUCKET_SECRET"), // the consumer secret
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://bitbucket.org/site/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://bitbucket.org/site/oauth2/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.bitbucket.org/2.0/user", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "account", Doc: "Scope lets the token read the user's account."},
		},
		ProfileDoc: "Profile is the answer of GET /2.0/user.",
		Profile: []Field{
			{"AccountID", "string", `json:"account_id"`, "AccountID is the user's Atlassian account id."},
			{"UUID", "string", `json:"uuid,omitempty"`, "UUID is the user's Bitbucket id, in braces."},
			{"Username", "string", `json:"username,omitempty"`, "Username is the user's Bitbucket username."},
			{"Nickname", "string", `json:"nickname,omitempty"`, "Nickname is the user's public nickname."},
			{"DisplayName", "string", `json:"display_name,omitempty"`, "DisplayName is the user's display name."},
			{"AccountStatus", "string", `json:"account_status,omitempty"`, "AccountStatus is e.g. \"active\"."},
			{"CreatedOn", "string", `json:"created_on,omitempty"`, "CreatedOn is when the account was created (ISO 8601)."},
			{"IsStaff", "bool", `json:"is_staff,omitempty"`, "IsStaff is true for Atlassian staff."},
			{"Type", "string", `json:"type,omitempty"`, "Type is \"user\"."},
			{"Links", "Links", `json:"links"`, "Links are the account's API and web links."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#205081"}},
		DefaultsDoc: `Defaults returns the Bitbucket configuration before any user option: the
endpoints, the scope, the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a Bitbucket user to a user: id ← account_id, name ←
display_name, else username, no e-mail, image ← links.avatar.href.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "box", Package: "box", Const: "Box",
		Name: "Box", Kind: "oauth",
		Doc: `Package box is the built-in Box provider (OAuth 2.0).

	p := box.New(providers.OAuthUserConfig[box.Profile]{
		ClientID:     os.Getenv("AUTH_BOX_ID"),
		ClientSecret: os.Getenv("AUTH_BOX_SECRET"),
	})

The configuration sets no scope: a Box app's scopes are chosen in the
Box developer console, and the authorization request needs none. (Auth.js
adds its generic default, "openid profile email", which Box ignores.)`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://account.box.com/api/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.box.com/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.box.com/2.0/users/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /2.0/users/me (a Box user object).",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's Box id (digits, as a string)."},
			{"Type", "string", `json:"type,omitempty"`, "Type is \"user\"."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's name."},
			{"Login", "string", `json:"login,omitempty"`, "Login is the user's primary e-mail address."},
			{"CreatedAt", "string", `json:"created_at,omitempty"`, "CreatedAt is when the user was created (ISO 8601)."},
			{"ModifiedAt", "string", `json:"modified_at,omitempty"`, "ModifiedAt is when the user was last modified (ISO 8601)."},
			{"Language", "string", `json:"language,omitempty"`, "Language is the user's language (ISO 639-1)."},
			{"Timezone", "string", `json:"timezone,omitempty"`, "Timezone is the user's time zone, e.g. \"Africa/Bujumbura\"."},
			{"SpaceAmount", "int64", `json:"space_amount,omitempty"`, "SpaceAmount is the user's storage quota in bytes."},
			{"SpaceUsed", "int64", `json:"space_used,omitempty"`, "SpaceUsed is the storage the user uses, in bytes."},
			{"MaxUploadSize", "int64", `json:"max_upload_size,omitempty"`, "MaxUploadSize is the largest file the user may upload, in bytes."},
			{"Status", "string", `json:"status,omitempty"`, `Status is active, inactive, cannot_delete_edit or
cannot_delete_edit_upload.`},
			{"JobTitle", "string", `json:"job_title,omitempty"`, "JobTitle is the user's job title."},
			{"Phone", "string", `json:"phone,omitempty"`, "Phone is the user's phone number."},
			{"Address", "string", `json:"address,omitempty"`, "Address is the user's address."},
			{"AvatarURL", "string", `json:"avatar_url,omitempty"`, "AvatarURL is the URL of the user's avatar."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#0075C9"}},
		DefaultsDoc: `Defaults returns the Box configuration before any user option: the
endpoints (no scope), the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a Box user to a user: id ← id, name ← name, email ←
login, image ← avatar_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Name`, MapEmail: `p.Login`, MapImage: `p.AvatarURL`, Missing: "profile has no id",
	},
	{
		ID: "boxyhq-saml", Package: "boxyhqsaml", Const: "BoxyHQSAML",
		Name: "BoxyHQ SAML", Kind: "oauth", IssuerRequired: true,
		Doc: `Package boxyhqsaml is the built-in BoxyHQ SAML provider: SAML single
sign-on through SAML Jackson, which bridges SAML identity providers to
OAuth 2.0. The issuer is the Jackson service's base URL (for BoxyHQ's
hosted service, https://jackson-demo.boxyhq.com for trials); the
endpoints are paths below it.

	p := boxyhqsaml.New(providers.OAuthUserConfig[boxyhqsaml.Profile]{
		ClientID:     "dummy",
		ClientSecret: "dummy",
		Issuer:       os.Getenv("AUTH_BOXYHQ_SAML_ISSUER"),
		Authorization: providers.AuthorizationEndpoint{
			Params: map[string]string{"tenant": "acme.com", "product": "crm"},
		},
	})

Jackson finds the SAML connection from tenant and product. Auth.js has
the application pass them with each sign-in; Gatehouse hands on only a
fixed list of sign-in parameters, so set them in Authorization.Params
as above, or use the connection's own client id and secret instead of
"dummy" (Jackson also accepts the client id
"tenant=acme.com&product=crm" with the secret "dummy"), one provider
entry per connection.`,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/api/oauth/authorize", Doc: `AuthorizationPath is where the user is sent on to their SAML
identity provider.`},
			{Name: "TokenPath", Value: "/api/oauth/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/api/oauth/userinfo", Doc: "UserinfoPath answers the Profile as JSON to a Bearer GET."},
			{Name: "Provider", Value: "saml", Doc: "Provider is the provider authorization parameter: \"saml\"."},
		},
		ProfileDoc: `Profile is the answer of GET /api/oauth/userinfo: the SAML assertion's
user, as Jackson maps it.`,
		Profile: []Field{
			{"ID", "string", `json:"id"`, `ID is the user's id from the SAML assertion (its NameID, or the
mapped id attribute).`},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
			{"FirstName", "string", `json:"firstName,omitempty"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"lastName,omitempty"`, "LastName is the user's last name."},
			{"Roles", "[]string", `json:"roles,omitempty"`, "Roles are the user's roles, when the identity provider sends them."},
			{"Groups", "[]string", `json:"groups,omitempty"`, "Groups are the user's groups, when the identity provider sends them."},
			{"Raw", "map[string]any", `json:"raw,omitempty"`, "Raw holds every attribute of the assertion."},
			{"Requested", "map[string]any", `json:"requested,omitempty"`, `Requested echoes the authorization request: tenant, product,
client_id, state.`},
		},
		Defaults: &Defaults{BaseURL: true, AuthParams: []Param{{"provider", `Provider`}}, Style: Style{BrandColor: "#25c2a0"}},
		NewDoc: `New returns the BoxyHQ SAML provider configuration for the Jackson
service at opts.Issuer, with opts laid over its defaults by
providers.Merge.`,
		DefaultsDoc: `Defaults returns the configuration for the Jackson service at issuer
(a trailing slash is allowed): the endpoints below it, the provider=saml
parameter, the default checks (pkce), MapProfile and the button style.
With issuer "" the endpoints are left empty, and gatehouse.New reports
the missing issuer.`,
		MapDoc: `MapProfile maps a Jackson user to a user: id ← id, name ← "firstName
lastName" (whichever parts are present), email ← email, no image.`,
		Map: "fields", MapID: `p.ID`, MapName: `profile.FullName(p.FirstName, p.LastName)`, MapEmail: `p.Email`, Missing: "profile has no id",
	},
	{
		ID: "bungie", Package: "bungie", Const: "Bungie",
		Name: "Bungie", Kind: "oauth",
		Doc: `Package bungie is the built-in Bungie.net provider (OAuth 2.0).

	p := bungie.NewWithAPIKey(os.Getenv("AUTH_BUNGIE_API_KEY"), providers.OAuthUserConfig[bungie.Profile]{
		ClientID:     os.Getenv("AUTH_BUNGIE_ID"),
		ClientSecret: os.Getenv("AUTH_BUNGIE_SECRET"),
	})

Every Bungie.net API request needs the application's API key in an
X-API-Key header, and the account endpoint takes the user's Bungie.net
membership id in its path; the token response carries that id as
membership_id. Auth.js leaves both to the application (its userinfo URL
holds a literal {membershipId} placeholder and no key is sent), so its
provider does not work as shipped. Here the userinfo handler made by
FetchProfile fills in the membership id and sends the key given to
NewWithAPIKey. New, which has no key, makes a configuration whose
sign-ins fail with an error saying so.

Bungie requires HTTPS redirect URLs, also in development. Bungie does
not document PKCE, so the callback checks state as well.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.bungie.net/en/OAuth/Authorize?reauth=true", Doc: `AuthorizationURL is where the user signs in; reauth=true makes
Bungie ask for credentials even when a session exists.`},
			{Name: "TokenURL", Value: "https://www.bungie.net/platform/app/oauth/token/", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Expr: `"https://www.bungie.net/platform/User/GetBungieAccount/" + MembershipIDPlaceholder + "/254/"`, Doc: `UserinfoURL answers the Profile as JSON to a Bearer GET with the API
key; MembershipIDPlaceholder stands for the user's membership id.`},
			{Name: "MembershipIDPlaceholder", Value: "{membershipId}", Doc: `MembershipIDPlaceholder is replaced in the userinfo URL by the
membership_id of the token response.`},
			{Name: "APIKeyHeader", Value: "X-API-Key", Doc: "APIKeyHeader is the header that carries the API key."},
			{Name: "APIKeyEnv", Value: "AUTH_BUNGIE_API_KEY", Doc: `APIKeyEnv is the environment variable the built-in registry reads
the API key from.`},
			{Name: "SiteURL", Value: "https://www.bungie.net", Doc: "SiteURL is the base of Bungie.net's pictures."},
		},
		ProfileDoc: `Profile is the answer of GET /User/GetBungieAccount/<id>/254/: a
Bungie.net platform envelope around the account.`,
		Profile: []Field{
			{"Response", "Account", `json:"Response"`, "Response is the account."},
			{"ErrorCode", "int", `json:"ErrorCode"`, "ErrorCode is 1 on success."},
			{"ThrottleSeconds", "int", `json:"ThrottleSeconds,omitempty"`, "ThrottleSeconds asks the client to wait before calling again."},
			{"ErrorStatus", "string", `json:"ErrorStatus,omitempty"`, "ErrorStatus is \"Success\" or the error's name."},
			{"Message", "string", `json:"Message,omitempty"`, "Message describes the outcome."},
		},
		MapDoc: `MapProfile maps a Bungie.net account to a user: id ←
Response.bungieNetUser.membershipId, name ← displayName, no e-mail,
image ← SiteURL + profilePicturePath (none without a path).`,
		Map: "hook", Missing: "profile has no id",
		Factory: "newBungie",
	},
	{
		ID: "click-up", Package: "clickup", Const: "ClickUp",
		Name: "ClickUp", Kind: "oauth",
		Doc: `Package clickup is the built-in ClickUp provider (OAuth 2.0). As in
Auth.js, only the user's id and username are mapped: no e-mail address
and no picture.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://app.clickup.com/api", Doc: "AuthorizationURL is where the user signs in and picks workspaces."},
			{Name: "TokenURL", Value: "https://api.clickup.com/api/v2/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.clickup.com/api/v2/user", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /api/v2/user.",
		Profile: []Field{
			{"User", "User", `json:"user"`, "User is the authorized user."},
		},
		Defaults: &Defaults{Checks: []string{"state"}, Style: Style{BrandColor: "#24292f"}},
		DefaultsDoc: `Defaults returns the ClickUp configuration before any user option: the
endpoints (ClickUp has no scopes), the checks (state), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a ClickUp user to a user: id ← user.id (as a string),
name ← user.username; no e-mail, no image.`,
		Map: "fields", MapID: `providers.FormatID(p.User.ID)`, MapName: `p.User.Username`, Missing: "profile has no user id",
	},
	{
		ID: "cognito", Package: "cognito", Const: "Cognito",
		Name: "Cognito", Kind: "oidc", IssuerRequired: true,
		Doc: `Package cognito is the built-in provider for Amazon Cognito user pools
(OpenID Connect). The issuer is the user pool's,
https://cognito-idp.<region>.amazonaws.com/<user pool id> (not the hosted
UI domain).

The issuer has no default: set Issuer (or AUTH_COGNITO_ISSUER for
builtin.FromEnv), e.g.
https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{Style: Style{BrandColor: "#C17B9E"}},
		NewDoc: `New returns the Cognito configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "coinbase", Package: "coinbase", Const: "Coinbase",
		Name: "Coinbase", Kind: "oauth",
		Doc: `Package coinbase is the built-in Coinbase provider (OAuth 2.0, Sign in
with Coinbase).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://login.coinbase.com/oauth2/auth", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://login.coinbase.com/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.coinbase.com/v2/user", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "wallet:user:email wallet:user:read", Doc: "Scope lets the token read the user and their e-mail address."},
		},
		ProfileDoc: "Profile is the answer of GET /v2/user.",
		Profile: []Field{
			{"Data", "User", `json:"data"`, "Data is the current user."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#0052ff"}},
		DefaultsDoc: `Defaults returns the Coinbase configuration before any user option: the
endpoints, the scope, the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a Coinbase user to a user: id ← data.id, name ←
data.name, email ← data.email, image ← data.avatar_url.`,
		Map: "fields", MapID: `p.Data.ID`, MapName: `p.Data.Name`, MapEmail: `p.Data.Email`, MapImage: `p.Data.AvatarURL`, Missing: "profile has no data.id",
	},
	{
		ID: "concept2", Package: "concept2", Const: "Concept2",
		Name: "Concept2", Kind: "oauth",
		Doc:     `Package concept2 is the built-in Concept2 Logbook provider (OAuth 2.0).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://log.concept2.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://log.concept2.com/oauth/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://log.concept2.com/api/users/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "user:read,results:write", Doc: `Scope lets the token read the user and write results. Concept2
separates scopes with commas.`},
		},
		ProfileDoc: "Profile is the answer of GET /api/users/me.",
		Profile: []Field{
			{"Data", "User", `json:"data"`, "Data is the current user."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		DefaultsDoc: `Defaults returns the Concept2 configuration before any user option: the
endpoints, the scope, the default checks (pkce) and MapProfile. Concept2
has no button style of its own.`,
		MapDoc: `MapProfile maps a Concept2 user to a user: id ← data.id (as a string),
name ← data.username, email ← data.email, image ← data.profile_image.`,
		Map: "fields", MapID: `providers.FormatID(p.Data.ID)`, MapName: `p.Data.Username`, MapEmail: `p.Data.Email`, MapImage: `p.Data.ProfileImage`, Missing: "profile has no data.id",
	},
	{
		ID: "descope", Package: "descope", Const: "Descope",
		Name: "Descope", Kind: "oidc",
		Doc: `Package descope is the built-in Descope provider (OpenID Connect). Its
issuer is https://api.descope.com/<project id>, and Descope's client id
is the project id, so the issuer follows from the client id unless the
application sets one. The ID token's claims are mapped by the default
OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "IssuerBase", Value: "https://api.descope.com/", Doc: "IssuerBase is the issuer of every project, less the project id."},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: `Profile is the ID token's claims: sub, name, email, email_verified,
phone_number, phone_number_verified, picture and any custom claims of
the project.`,
		Claims: true,
		Map:    "claims", Missing: "claims have no sub",
	},
	{
		ID: "discord", Package: "discord", Const: "Discord",
		Name: "Discord", Kind: "oauth",
		Doc: `Package discord is the built-in Discord provider (OAuth 2.0).

	p := discord.New(providers.OAuthUserConfig[discord.Profile]{
		ClientID:     os.Getenv("AUTH_DISCORD_ID"),
		ClientSecret: os.Getenv("AUTH_DISCORD_SECRET"),
	})

Discord is configured as plain OAuth 2.0. Adding the openid scope makes
Discord return an ID token too, which this configuration does not
verify or use; the profile still comes from /users/@me.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://discord.com/api/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://discord.com/api/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://discord.com/api/users/@me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "identify email", Doc: "Scope asks for the user (identify) and their e-mail address."},
			{Name: "CDNURL", Value: "https://cdn.discordapp.com", Doc: "CDNURL is the base of avatar URLs."},
		},
		ProfileDoc: "Profile is the answer of GET /users/@me (a Discord user object).",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's snowflake id (digits, as a string)."},
			{"Username", "string", `json:"username"`, "Username is the user's unique username."},
			{"Discriminator", "string", `json:"discriminator"`, `Discriminator is the old four-digit tag, "0" for users that have
moved to unique usernames.`},
			{"GlobalName", "string", `json:"global_name,omitempty"`, "GlobalName is the user's display name, if set."},
			{"Avatar", "string", `json:"avatar,omitempty"`, `Avatar is the user's avatar hash; empty (null) for the default
avatar. Hashes starting with "a_" are animated.`},
			{"Bot", "bool", `json:"bot,omitempty"`, "Bot is true for bot users."},
			{"System", "bool", `json:"system,omitempty"`, "System is true for Discord's official system user."},
			{"MFAEnabled", "bool", `json:"mfa_enabled,omitempty"`, "MFAEnabled is true when the user has two-factor authentication on."},
			{"Banner", "string", `json:"banner,omitempty"`, "Banner is the user's banner hash, if any."},
			{"AccentColor", "*int", `json:"accent_color,omitempty"`, "AccentColor is the user's banner colour as an integer, if set."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's chosen language, e.g. \"en-US\"."},
			{"Verified", "bool", `json:"verified,omitempty"`, "Verified says whether the e-mail address is verified (email scope)."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address (email scope)."},
			{"Flags", "int64", `json:"flags,omitempty"`, "Flags are the user's account flags."},
			{"PremiumType", "int", `json:"premium_type,omitempty"`, "PremiumType is the user's Nitro subscription type."},
			{"PublicFlags", "int64", `json:"public_flags,omitempty"`, "PublicFlags are the user's public account flags."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#5865F2"}},
		DefaultsDoc: `Defaults returns the Discord configuration before any user option: the
endpoints, the scope, the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a Discord user to a user: id ← id, name ← global_name,
else username, email ← email, image ← AvatarURL.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "dribbble", Package: "dribbble", Const: "Dribbble",
		Name: "Dribbble", Kind: "oauth",
		Doc: `Package dribbble is the built-in Dribbble provider (OAuth 2.0).

	p := dribbble.New(providers.OAuthUserConfig[dribbble.Profile]{
		ClientID:     os.Getenv("AUTH_DRIBBBLE_ID"),
		ClientSecret: os.Getenv("AUTH_DRIBBBLE_SECRET"),
	})

The scope is "public"; an application that uploads shots sets
Authorization.Params["scope"] to ScopeUpload. (Auth.js takes the scope
as a factory option with no default, and sends scope=undefined without
it.)`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://dribbble.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://dribbble.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.dribbble.com/v2/user", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "public", Doc: "Scope lets the token read the user's public data."},
			{Name: "ScopeUpload", Value: "public upload", Doc: "ScopeUpload also lets it upload and update shots."},
		},
		ProfileDoc: "Profile is the answer of GET /v2/user.",
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's name."},
			{"Login", "string", `json:"login,omitempty"`, "Login is the user's Dribbble username."},
			{"HTMLURL", "string", `json:"html_url,omitempty"`, "HTMLURL is the user's profile page."},
			{"AvatarURL", "string", `json:"avatar_url,omitempty"`, "AvatarURL is the URL of the user's avatar."},
			{"Bio", "string", `json:"bio,omitempty"`, "Bio is the user's biography, as HTML."},
			{"Location", "string", `json:"location,omitempty"`, "Location is where the user says they are."},
			{"Links", "map[string]string", `json:"links,omitempty"`, "Links are the user's web and social links, by kind."},
			{"CanUploadShot", "bool", `json:"can_upload_shot,omitempty"`, "CanUploadShot is true when the user may upload shots."},
			{"Pro", "bool", `json:"pro,omitempty"`, "Pro is true for Dribbble Pro members."},
			{"FollowersCount", "int64", `json:"followers_count,omitempty"`, "FollowersCount is the number of followers."},
			{"CreatedAt", "string", `json:"created_at,omitempty"`, "CreatedAt is when the account was created (ISO 8601)."},
			{"Type", "string", `json:"type,omitempty"`, "Type is \"Player\" or \"Team\"."},
			{"Email", "string", `json:"email,omitempty"`, `Email is the user's address. Dribbble's documented answer has none;
the field is kept for the mapping Auth.js defines.`},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#000"}},
		DefaultsDoc: `Defaults returns the Dribbble configuration before any user option: the
endpoints, the scope, the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile maps a Dribbble user to a user: id ← id (as a string), name ←
name, email ← email, image ← avatar_url.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `p.Name`, MapEmail: `p.Email`, MapImage: `p.AvatarURL`, Missing: "profile has no id",
	},
	{
		ID: "dropbox", Package: "dropbox", Const: "Dropbox",
		Name: "Dropbox", Kind: "oauth",
		Doc: `Package dropbox is the built-in Dropbox provider (OAuth 2.0). Dropbox's
account endpoint is an RPC call: a POST, not a GET, which FetchProfile
makes.

	p := dropbox.New(providers.OAuthUserConfig[dropbox.Profile]{
		ClientID:     os.Getenv("AUTH_DROPBOX_ID"),     // the app key
		ClientSecret: os.Getenv("AUTH_DROPBOX_SECRET"), // the app secret
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.dropbox.com/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.dropboxapi.com/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.dropboxapi.com/2/users/get_current_account", Doc: `UserinfoURL answers the Profile as JSON to a Bearer POST with no
body.`},
			{Name: "Scope", Value: "account_info.read", Doc: "Scope lets the token read the account's information."},
			{Name: "TokenAccessType", Value: "offline", Doc: `TokenAccessType "offline" asks for a refresh token besides the
short-lived access token.`},
		},
		ProfileDoc: "Profile is the answer of POST /2/users/get_current_account.",
		Profile: []Field{
			{"AccountID", "string", `json:"account_id"`, "AccountID is the user's account id, e.g. \"dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc\"."},
			{"Name", "AccountName", `json:"name"`, "Name is the user's name in its several forms."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
			{"EmailVerified", "bool", `json:"email_verified,omitempty"`, "EmailVerified says whether Dropbox verified Email."},
			{"Disabled", "bool", `json:"disabled,omitempty"`, "Disabled is true when the account has been disabled."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's language, e.g. \"en\"."},
			{"ReferralLink", "string", `json:"referral_link,omitempty"`, "ReferralLink is the user's referral link."},
			{"IsPaired", "bool", `json:"is_paired,omitempty"`, "IsPaired is true when a work account is paired with this one."},
			{"ProfilePhotoURL", "string", `json:"profile_photo_url,omitempty"`, "ProfilePhotoURL is the URL of the user's photo, if any."},
			{"Country", "string", `json:"country,omitempty"`, "Country is the user's country, ISO 3166-2."},
			{"AccountType", "Tag", `json:"account_type,omitzero"`, "AccountType is the account's plan: {\".tag\": \"basic\" | \"pro\" | \"business\"}."},
		},
		Defaults: &Defaults{AuthParams: []Param{{"scope", `Scope`}, {"token_access_type", `TokenAccessType`}}, UserinfoRequest: "FetchProfile", Style: Style{BrandColor: "#0061fe"}},
		DefaultsDoc: `Defaults returns the Dropbox configuration before any user option: the
endpoints, the scope and token_access_type, the default checks (pkce),
FetchProfile, MapProfile and the button style.`,
		MapDoc: `MapProfile maps a Dropbox account to a user: id ← account_id, name ←
name.display_name, email ← email, image ← profile_photo_url.`,
		Map: "fields", MapID: `p.AccountID`, MapName: `p.Name.DisplayName`, MapEmail: `p.Email`, MapImage: `p.ProfilePhotoURL`, Missing: "profile has no account_id",
	},
	{
		ID: "duende-identity-server6", Package: "duendeidentityserver6", Const: "DuendeIdentityServer6",
		Name: "DuendeIdentityServer6", Kind: "oidc", IssuerRequired: true,
		Doc: `Package duendeidentityserver6 is the built-in Duende IdentityServer 6
provider (OpenID Connect). Its endpoints come from discovery of the
issuer the application supplies (its demo server is
https://demo.duendesoftware.com); the ID token's claims are mapped by the
default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
			{Name: "DemoIssuer", Value: "https://demo.duendesoftware.com", Doc: `DemoIssuer is Duende's public demo server, handy for trying the
provider out.`},
		},
		ProfileDoc: "Profile is the ID token's claims (sub, name, email, …).",
		Claims:     true,
		Defaults:   &Defaults{},
		NewDoc: `New returns the Duende IdentityServer 6 provider configuration with opts
laid over its defaults by providers.Merge. opts.Issuer is required:
without it the configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope
and the default checks. It has no issuer and no button style.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "eventbrite", Package: "eventbrite", Const: "Eventbrite",
		Name: "Eventbrite", Kind: "oauth",
		Doc: `Package eventbrite is the built-in Eventbrite provider (OAuth 2.0).

	p := eventbrite.New(providers.OAuthUserConfig[eventbrite.Profile]{
		ClientID:     os.Getenv("AUTH_EVENTBRITE_ID"),     // the API key
		ClientSecret: os.Getenv("AUTH_EVENTBRITE_SECRET"), // the client secret
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.eventbrite.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://www.eventbrite.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_post)."},
			{Name: "UserinfoURL", Value: "https://www.eventbriteapi.com/v3/users/me/", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "user.profile", Doc: "Scope lets the token read the user's profile."},
			{Name: "ImageURLFormat", Value: "https://img.evbuc.com/https%%3A%%2F%%2Fcdn.evbuc.com%%2Fimages%%2F%s%%2F1%%2Foriginal.jpg", Doc: `ImageURLFormat is the user's picture URL, with the image_id for %s:
Eventbrite's image service serving the original upload.`},
		},
		ProfileDoc: "Profile is the answer of GET /v3/users/me/.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id (digits, as a string)."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"FirstName", "string", `json:"first_name,omitempty"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name,omitempty"`, "LastName is the user's last name."},
			{"Emails", "[]Email", `json:"emails,omitempty"`, "Emails are the user's addresses; one is marked primary."},
			{"IsPublic", "bool", `json:"is_public,omitempty"`, "IsPublic is true when the profile is public."},
			{"ImageID", "string", `json:"image_id,omitempty"`, "ImageID is the id of the user's picture, if any."},
		},
		Defaults: &Defaults{ScopeParam: "scope", AuthMethod: "client_secret_post", Style: Style{BrandColor: "#f05537"}},
		DefaultsDoc: `Defaults returns the Eventbrite configuration before any user option:
the endpoints, the scope, the default checks (pkce), client_secret_post,
MapProfile and the button style.`,
		MapDoc: `MapProfile maps an Eventbrite user to a user: id ← id, name ← name,
email ← the address marked primary (none when no address is), image ←
the image_id's picture (none without one).`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "eveonline", Package: "eveonline", Const: "EVEOnline",
		Name: "EVE Online", Kind: "oauth",
		Doc: `Package eveonline is the built-in EVE Online provider (OAuth 2.0, EVE
SSO). The user is an EVE character: the profile comes from the SSO's
verify endpoint, and the picture from EVE's image server.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://login.eveonline.com/v2/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and picks a character."},
			{Name: "TokenURL", Value: "https://login.eveonline.com/v2/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://login.eveonline.com/oauth/verify", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "publicData", Doc: "Scope asks for the character's public data."},
			{Name: "ImageBaseURL", Value: "https://image.eveonline.com", Doc: `ImageBaseURL is the base of character portraits:
ImageBaseURL/Character/<id>_<size>.jpg.`},
		},
		ProfileDoc: `Profile is the answer of GET /oauth/verify: the character the token
belongs to.`,
		Profile: []Field{
			{"CharacterID", "int64", `json:"CharacterID"`, "CharacterID is the character's numeric id."},
			{"CharacterName", "string", `json:"CharacterName"`, "CharacterName is the character's name."},
			{"ExpiresOn", "string", `json:"ExpiresOn,omitempty"`, "ExpiresOn is when the access token expires."},
			{"Scopes", "string", `json:"Scopes,omitempty"`, "Scopes are the token's scopes, space-separated."},
			{"TokenType", "string", `json:"TokenType,omitempty"`, "TokenType is \"Character\"."},
			{"CharacterOwnerHash", "string", `json:"CharacterOwnerHash,omitempty"`, `CharacterOwnerHash changes when the character changes owner; an
application that keys users by character should compare it.`},
			{"IntellectualProperty", "string", `json:"IntellectualProperty,omitempty"`, "IntellectualProperty is \"EVE\"."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Checks: []string{"state"}},
		DefaultsDoc: `Defaults returns the EVE Online configuration before any user option:
the endpoints, the scope, the checks (state) and MapProfile. EVE Online
has no button style of its own.`,
		MapDoc: `MapProfile maps an EVE character to a user: id ← CharacterID (as a
string), name ← CharacterName, no e-mail, image ← PortraitURL.`,
		Map: "fields", MapID: `providers.FormatID(p.CharacterID)`, MapName: `p.CharacterName`, MapImage: `PortraitURL(p.CharacterID)`, Missing: "profile has no CharacterID",
	},
	{
		ID: "facebook", Package: "facebook", Const: "Facebook",
		Name: "Facebook", Kind: "oauth",
		Doc: `Package facebook is the built-in Facebook provider (OAuth 2.0, Facebook
Login through the Graph API).

	p := facebook.New(providers.OAuthUserConfig[facebook.Profile]{
		ClientID:     os.Getenv("AUTH_FACEBOOK_ID"),     // the App ID
		ClientSecret: os.Getenv("AUTH_FACEBOOK_SECRET"), // the App Secret
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.facebook.com/v19.0/dialog/oauth", Doc: `AuthorizationURL is where the user signs in and consents (Graph API
v19.0).`},
			{Name: "TokenURL", Value: "https://graph.facebook.com/oauth/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://graph.facebook.com/me", Doc: `UserinfoURL answers the Profile as JSON to a Bearer GET; the fields
it returns are named in UserinfoFields.`},
			{Name: "UserinfoFields", Value: "id,name,email,picture", Doc: "UserinfoFields are the Graph API fields asked of UserinfoURL."},
			{Name: "Scope", Value: "email", Doc: "Scope asks for the user's e-mail address (public_profile is implied)."},
		},
		ProfileDoc: "Profile is the answer of GET /me?fields=id,name,email,picture.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's app-scoped id (digits, as a string)."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"Email", "string", `json:"email,omitempty"`, `Email is the user's primary address (email scope); absent when the
user has none or declined.`},
			{"Picture", "Picture", `json:"picture,omitzero"`, "Picture is the user's profile picture."},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoParams: []Param{{"fields", `UserinfoFields`}}, Style: Style{BrandColor: "#006aff"}},
		DefaultsDoc: `Defaults returns the Facebook configuration before any user option: the
endpoints, the scope, the userinfo fields, the default checks (pkce),
MapProfile and the button style. The access token goes in a Bearer
header, which the Graph API accepts.`,
		MapDoc: `MapProfile maps a Facebook user to a user: id ← id, name ← name, email ←
email, image ← picture.data.url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Name`, MapEmail: `p.Email`, MapImage: `p.Picture.Data.URL`, Missing: "profile has no id",
	},
	{
		ID: "faceit", Package: "faceit", Const: "Faceit",
		Name: "FACEIT", Kind: "oauth",
		Doc: `Package faceit is the built-in FACEIT provider (OAuth 2.0).

	p := faceit.New(providers.OAuthUserConfig[faceit.Profile]{
		ClientID:     os.Getenv("AUTH_FACEIT_ID"),
		ClientSecret: os.Getenv("AUTH_FACEIT_SECRET"),
	})

FACEIT wants the client credentials in a Basic Authorization header at
its token endpoint. Auth.js declares that header in a field its core
never reads; here it is simply the default client_secret_basic.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://accounts.faceit.com/accounts", Doc: `AuthorizationURL is where the user signs in and consents; the
redirect_popup parameter is in Defaults' params.`},
			{Name: "TokenURL", Value: "https://api.faceit.com/auth/v1/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.faceit.com/auth/v1/resources/userinfo", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /auth/v1/resources/userinfo.",
		Profile: []Field{
			{"GUID", "string", `json:"guid"`, "GUID is the user's FACEIT id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's name."},
			{"Nickname", "string", `json:"nickname,omitempty"`, "Nickname is the user's FACEIT nickname."},
			{"GivenName", "string", `json:"given_name,omitempty"`, "GivenName is the user's first name."},
			{"FamilyName", "string", `json:"family_name,omitempty"`, "FamilyName is the user's last name."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
			{"Picture", "string", `json:"picture,omitempty"`, "Picture is the URL of the user's avatar."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's locale."},
		},
		Defaults: &Defaults{AuthParams: []Param{{"redirect_popup", `"true"`}}},
		DefaultsDoc: `Defaults returns the FACEIT configuration before any user option: the
endpoints with redirect_popup=true, the default checks (pkce) and
MapProfile. The button has the FACEIT logo but no colour of its own.`,
		MapDoc: `MapProfile maps a FACEIT user to a user: id ← guid, name ← name, email ←
email, image ← picture.`,
		Map: "fields", MapID: `p.GUID`, MapName: `p.Name`, MapEmail: `p.Email`, MapImage: `p.Picture`, Missing: "profile has no guid",
	},
	{
		ID: "figma", Package: "figma", Const: "Figma",
		Name: "Figma", Kind: "oauth",
		Doc:     `Package figma is the built-in Figma provider (OAuth 2.0).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.figma.com/oauth", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.figma.com/v1/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.figma.com/v1/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "files:read", Doc: "Scope lets the token read the user's files (and GET /v1/me)."},
		},
		ProfileDoc: "Profile is the answer of GET /v1/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id (digits, as a string)."},
			{"Handle", "string", `json:"handle"`, "Handle is the user's name."},
			{"ImgURL", "string", `json:"img_url,omitempty"`, "ImgURL is the URL of the user's avatar."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Checks: []string{"state"}, Style: Style{BrandColor: "#ff7237"}},
		DefaultsDoc: `Defaults returns the Figma configuration before any user option: the
endpoints, the scope, the checks (state), MapProfile and the button
style.`,
		MapDoc: `MapProfile maps a Figma user to a user: id ← id, name ← handle, email ←
email, image ← img_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Handle`, MapEmail: `p.Email`, MapImage: `p.ImgURL`, Missing: "profile has no id",
	},
	{
		ID: "foursquare", Package: "foursquare", Const: "Foursquare",
		Name: "Foursquare", Kind: "oauth",
		Doc: `Package foursquare is the built-in Foursquare provider (OAuth 2.0,
Foursquare's v2 API). The v2 API takes the access token as the
oauth_token query parameter, not as a Bearer header, and wants an API
version date in the v parameter; FetchProfile sends both.

	p := foursquare.New(providers.OAuthUserConfig[foursquare.Profile]{
		ClientID:     os.Getenv("AUTH_FOURSQUARE_ID"),
		ClientSecret: os.Getenv("AUTH_FOURSQUARE_SECRET"),
	})

To pin another API version (Auth.js's apiVersion option), set
Userinfo.Params["v"], e.g. to "20240101".`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://foursquare.com/oauth2/authenticate", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://foursquare.com/oauth2/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.foursquare.com/v2/users/self", Doc: `UserinfoURL answers the Profile as JSON to a GET with the token in
the oauth_token query parameter.`},
			{Name: "APIVersion", Value: "20230131", Doc: `APIVersion is the default v parameter: the date of the API version
the answers follow.`},
		},
		ProfileDoc: "Profile is the answer of GET /v2/users/self.",
		Profile: []Field{
			{"Meta", "Meta", `json:"meta"`, "Meta is the answer's status."},
			{"Response", "Response", `json:"response"`, "Response holds the user."},
		},
		MapDoc: `MapProfile maps a Foursquare user to a user: id ← response.user.id,
name ← "firstName lastName", email ← contact.email, image ← the photo at
its original size.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "freshbooks", Package: "freshbooks", Const: "FreshBooks",
		Name: "Freshbooks", Kind: "oauth",
		Doc:     `Package freshbooks is the built-in FreshBooks provider (OAuth 2.0).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://auth.freshbooks.com/service/auth/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.freshbooks.com/auth/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.freshbooks.com/auth/api/v1/users/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /auth/api/v1/users/me.",
		Profile: []Field{
			{"Response", "User", `json:"response"`, "Response is the current user (the identity)."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#0075dd"}},
		NewDoc: `New returns the FreshBooks provider configuration with opts laid over
its defaults by providers.Merge.`,
		DefaultsDoc: `Defaults returns the FreshBooks configuration before any user option:
the endpoints (the scopes are chosen with the app), the default checks
(pkce), MapProfile and the button style.`,
		MapDoc: `MapProfile maps a FreshBooks identity to a user: id ← response.id (as a
string), name ← "first_name last_name", email ← response.email, no
image.`,
		Map: "fields", MapID: `providers.FormatID(p.Response.ID)`, MapName: `profile.FullName(p.Response.FirstName, p.Response.LastName)`, MapEmail: `p.Response.Email`, Missing: "profile has no response.id",
	},
	{
		ID: "frontegg", Package: "frontegg", Const: "Frontegg",
		Name: "Frontegg", Kind: "oidc", IssuerRequired: true,
		Doc: `Package frontegg is the built-in Frontegg provider (OpenID Connect). The
issuer is the application's Frontegg domain (e.g.
https://acme.frontegg.com); the endpoints are fixed paths below it, so
only the signing keys come from discovery. The claims are mapped by the
default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/oauth/authorize", Doc: "AuthorizationPath is where the user signs in (hosted login)."},
			{Name: "TokenPath", Value: "/oauth/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/identity/resources/users/v2/me", Doc: "UserinfoPath answers the signed-in user to a Bearer GET."},
			{Name: "WellKnownPath", Value: "/oauth/.well-known/openid-configuration", Doc: `WellKnownPath is Frontegg's discovery document, which is not at the
usual /.well-known/openid-configuration.`},
			{Name: "Scope", Value: "openid profile email", Doc: `Scope asks for an ID token with the profile and e-mail claims (what
Auth.js sends by default; Frontegg's provider sets none).`},
		},
		ProfileDoc: `Profile is the ID token's claims and the user record of the userinfo
endpoint.`,
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's Frontegg id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's name."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's e-mail address."},
			{"EmailVerified", "bool", `json:"email_verified,omitempty"`, "EmailVerified says whether Frontegg verified Email."},
			{"ProfilePictureURL", "string", `json:"profilePictureUrl,omitempty"`, `ProfilePictureURL is the user's picture. The default mapping does not
read it (it reads picture); set a Profile callback to use it.`},
			{"Roles", "[]string", `json:"roles,omitempty"`, "Roles are the user's role keys."},
			{"TenantID", "string", `json:"tenantId,omitempty"`, "TenantID is the user's active tenant."},
		},
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "fusionauth", Package: "fusionauth", Const: "FusionAuth",
		Name: "FusionAuth", Kind: "oidc", IssuerRequired: true,
		Doc: `Package fusionauth is the built-in FusionAuth provider (OpenID Connect).

The issuer has no default: set Issuer (or AUTH_FUSIONAUTH_ISSUER for
builtin.FromEnv) to the FusionAuth URL, e.g. https://auth.example.com.
It must also be the tenant's configured issuer in FusionAuth, whose
default ("acme.com") is not a URL and does not match. The authorization
endpoint comes from discovery; the token and userinfo endpoints are
<issuer>/oauth2/token and <issuer>/oauth2/userinfo unless set. For a
tenant other than the default one, add the tenantId parameter to the
authorization endpoint (see NewForTenant).`,
		Facts: []Const{
			{Name: "Scope", Value: "openid offline_access email profile", Doc: "Scope adds offline_access (a refresh token) to the OIDC scopes."},
			{Name: "TenantParam", Value: "tenantId", Doc: "TenantParam is the authorization parameter naming the tenant."},
		},
		Claims: true,
		MapDoc: `MapProfile is the default mapping: id ← sub; name ← name, else
preferred_username, else given_name middle_name family_name; email ←
email; image ← picture. EmailVerified as profile.FromClaims.`,
		Map: "hook", Missing: "claims have no sub",
	},
	{
		ID: "gitea", Package: "gitea", Const: "Gitea", Gatehouse: true,
		Name: "Gitea", Kind: "oauth",
		Doc: `Package gitea is the built-in Gitea provider: OAuth 2.0 against a Gitea
instance, https://gitea.com by default. The userinfo endpoint is Gitea's
OpenID Connect one, so the profile is a set of OIDC claims (sub, name,
preferred_username, email, email_verified, picture, groups) mapped by
profile.FromClaims.

For a self-hosted instance use NewAt, or set Issuer (AUTH_GITEA_ISSUER
for builtin.FromEnv) to the instance's base URL: New derives the
endpoints from it.`,
		Facts: []Const{
			{Name: "BaseURL", Value: "https://gitea.com", Doc: "BaseURL is the default instance."},
			{Name: "AuthorizationPath", Value: "/login/oauth/authorize", Doc: "The endpoints' paths below an instance's base URL."},
			{Name: "TokenPath", Value: "/login/oauth/access_token"},
			{Name: "UserinfoPath", Value: "/login/oauth/userinfo"},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for the OIDC claims the userinfo endpoint answers."},
		},
		ProfileDoc: "Profile is the userinfo endpoint's claims (sub, name, email, picture, …).",
		Claims:     true,
		Map:        "claims", Missing: "profile has no id",
	},
	{
		ID: "github", Package: "github", Const: "GitHub",
		Name: "GitHub", Kind: "oauth",
		Doc: `Package github is the built-in GitHub provider (OAuth 2.0 apps and
GitHub Apps on github.com, or GitHub Enterprise Server through
NewEnterprise).

GitHub is not an OpenID Connect provider. Its authorization responses
carry the RFC 9207 iss parameter, so the configuration names the issuer
the callback must see. The profile comes from the REST API: GET /user,
and, when the user keeps their address private, GET /user/emails for the
primary address.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://github.com/login/oauth", Doc: `Issuer is the value of the iss parameter GitHub adds to its
authorization responses (RFC 9207).`},
			{Name: "AuthorizationURL", Value: "https://github.com/login/oauth/authorize"},
			{Name: "TokenURL", Value: "https://github.com/login/oauth/access_token"},
			{Name: "APIURL", Value: "https://api.github.com", Doc: "APIURL is the base of the REST API."},
			{Name: "UserinfoURL", Expr: `APIURL + "/user"`, Doc: "UserinfoURL is APIURL + \"/user\"."},
			{Name: "Scope", Value: "read:user user:email", Doc: "Scope asks to read the profile and the e-mail addresses."},
			{Name: "UserAgent", Value: "gatehouse", Doc: "UserAgent is sent on API requests, which GitHub requires to carry one."},
		},
		ProfileDoc: `Profile is the answer of GET /user, plus what FetchProfile adds from
GET /user/emails.`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id, the stable key of the account."},
			{"Login", "string", `json:"login"`, ""},
			{"NodeID", "string", `json:"node_id,omitempty"`, ""},
			{"AvatarURL", "string", `json:"avatar_url,omitempty"`, ""},
			{"HTMLURL", "string", `json:"html_url,omitempty"`, ""},
			{"Type", "string", `json:"type,omitempty"`, ""},
			{"SiteAdmin", "bool", `json:"site_admin,omitempty"`, ""},
			{"Name", "string", `json:"name,omitempty"`, "Name is null on GitHub when the user set none; \"\" here."},
			{"Company", "string", `json:"company,omitempty"`, ""},
			{"Blog", "string", `json:"blog,omitempty"`, ""},
			{"Location", "string", `json:"location,omitempty"`, "Location, Bio and TwitterUsername are as the user wrote them."},
			{"Bio", "string", `json:"bio,omitempty"`, ""},
			{"TwitterUsername", "string", `json:"twitter_username,omitempty"`, ""},
			{"Email", "string", `json:"email,omitempty"`, `Email is the public address; when that is null FetchProfile fills
it from /user/emails.`},
			{"EmailVerified", "*bool", `json:"email_verified,omitempty"`, `EmailVerified is not part of GitHub's answer: FetchProfile sets it
when Email came from /user/emails, to that entry's verified flag. It
is nil when the address is the public one or there is none.`},
			{"PublicRepos", "int", `json:"public_repos,omitempty"`, ""},
			{"Followers", "int", `json:"followers,omitempty"`, ""},
			{"Following", "int", `json:"following,omitempty"`, ""},
			{"CreatedAt", "string", `json:"created_at,omitempty"`, ""},
			{"UpdatedAt", "string", `json:"updated_at,omitempty"`, ""},
		},
		MapDoc: `MapProfile is the default mapping: id ← id (as a decimal string); name ←
name, else login; email ← email; image ← avatar_url. EmailVerified is set
when the address came from /user/emails and GitHub marks it verified.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "gitlab", Package: "gitlab", Const: "GitLab",
		Name: "GitLab", Kind: "oauth",
		Doc: `Package gitlab is the built-in GitLab provider (OAuth 2.0), for
GitLab.com or a self-managed instance. The instance is named by its
base URL, given as the Issuer option (AUTH_GITLAB_ISSUER); without one
it is GitLab.com. GitLab's OpenID Connect issuer is that same base URL.

	p := gitlab.New(providers.OAuthUserConfig[gitlab.Profile]{
		ClientID:     os.Getenv("AUTH_GITLAB_ID"),
		ClientSecret: os.Getenv("AUTH_GITLAB_SECRET"),
		Issuer:       "https://gitlab.example.com", // omit for GitLab.com
	})`,
		Facts: []Const{
			{Name: "DefaultBaseURL", Value: "https://gitlab.com", Doc: "DefaultBaseURL is GitLab.com."},
			{Name: "AuthorizationPath", Value: "/oauth/authorize", Doc: "AuthorizationPath is where the user signs in and consents."},
			{Name: "TokenPath", Value: "/oauth/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/api/v4/user", Doc: "UserinfoPath answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "read_user", Doc: "Scope lets the token read the user's profile."},
		},
		ProfileDoc: "Profile is the answer of GET /api/v4/user (the signed-in user).",
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id on the instance."},
			{"Sub", "string", `json:"sub,omitempty"`, `Sub is the OpenID Connect subject. /api/v4/user has none; it is set
when an application points Userinfo at GitLab's /oauth/userinfo, and
then takes precedence over ID.`},
			{"Username", "string", `json:"username"`, "Username is the user's GitLab username."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's primary address."},
			{"PublicEmail", "string", `json:"public_email,omitempty"`, "PublicEmail is the address shown on the profile, if any."},
			{"CommitEmail", "string", `json:"commit_email,omitempty"`, "CommitEmail is the address used for web commits."},
			{"State", "string", `json:"state,omitempty"`, "State is \"active\", \"blocked\", …"},
			{"Locked", "bool", `json:"locked,omitempty"`, "Locked is true when the account is locked."},
			{"AvatarURL", "string", `json:"avatar_url,omitempty"`, "AvatarURL is the URL of the user's avatar."},
			{"WebURL", "string", `json:"web_url,omitempty"`, "WebURL is the user's profile page."},
			{"CreatedAt", "string", `json:"created_at,omitempty"`, "CreatedAt is when the account was created (ISO 8601)."},
			{"ConfirmedAt", "string", `json:"confirmed_at,omitempty"`, "ConfirmedAt is when the user confirmed their address."},
			{"Bio", "string", `json:"bio,omitempty"`, "Bio is the user's biography."},
			{"Location", "string", `json:"location,omitempty"`, "Location is where the user says they are."},
			{"Organization", "string", `json:"organization,omitempty"`, "Organization is the user's organization."},
			{"JobTitle", "string", `json:"job_title,omitempty"`, "JobTitle is the user's job title."},
			{"Bot", "bool", `json:"bot,omitempty"`, "Bot is true for bot users."},
			{"IsAdmin", "bool", `json:"is_admin,omitempty"`, "IsAdmin is true for instance administrators (visible to admins only)."},
			{"TwoFactorEnabled", "bool", `json:"two_factor_enabled,omitempty"`, "TwoFactorEnabled is true when the user has two-factor authentication."},
			{"External", "bool", `json:"external,omitempty"`, "External is true for external users."},
			{"PrivateProfile", "bool", `json:"private_profile,omitempty"`, "PrivateProfile is true when the profile is private."},
		},
		MapDoc: `MapProfile maps a GitLab user to a user: id ← sub, else id (as a
string), name ← name, else username, email ← email, image ← avatar_url.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "google", Package: "google", Const: "Google",
		Name: "Google", Kind: "oidc",
		Doc: `Package google is the built-in provider for Google (OpenID Connect).
Google sends a refresh token only when asked for offline access: add
Params access_type=offline and prompt=consent to the authorization
endpoint.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://accounts.google.com", Doc: "Issuer is the ID token issuer and the discovery base."},
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#1a73e8"}},
		NewDoc: `New returns the Google configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "hubspot", Package: "hubspot", Const: "HubSpot",
		Name: "HubSpot", Kind: "oauth",
		Doc: `Package hubspot is the built-in HubSpot provider (OAuth 2.0). HubSpot has
no user endpoint: the profile is the access token's metadata, read from
GET <UserinfoURL>/<access token>, which FetchProfile does.

	p := hubspot.New(providers.OAuthUserConfig[hubspot.Profile]{
		ClientID:     os.Getenv("AUTH_HUBSPOT_ID"),
		ClientSecret: os.Getenv("AUTH_HUBSPOT_SECRET"),
	})

Auth.js also adds client_id to the authorization parameters; the
authorization request always carries it, so it is not repeated here.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://app.hubspot.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and picks an account."},
			{Name: "TokenURL", Value: "https://api.hubapi.com/oauth/v1/token", Doc: "TokenURL exchanges the code for tokens (client_secret_post)."},
			{Name: "UserinfoURL", Value: "https://api.hubapi.com/oauth/v1/access-tokens", Doc: `UserinfoURL is the access-token metadata endpoint; the token itself
is the last path segment.`},
			{Name: "Scope", Value: "oauth", Doc: "Scope is the minimal scope of a HubSpot app."},
		},
		ProfileDoc: `Profile is the answer of GET /oauth/v1/access-tokens/<token>: who the
token belongs to and what it grants.`,
		Profile: []Field{
			{"UserID", "int64", `json:"user_id"`, "UserID is the user's numeric HubSpot id."},
			{"User", "string", `json:"user"`, "User is the user's e-mail address."},
			{"HubID", "int64", `json:"hub_id,omitempty"`, "HubID is the id of the HubSpot account (portal) the user picked."},
			{"HubDomain", "string", `json:"hub_domain,omitempty"`, "HubDomain is that account's domain."},
			{"AppID", "int64", `json:"app_id,omitempty"`, "AppID is the id of the app the token was issued to."},
			{"Scopes", "[]string", `json:"scopes,omitempty"`, "Scopes are the scopes granted."},
			{"ExpiresIn", "int64", `json:"expires_in,omitempty"`, "ExpiresIn is the token's remaining lifetime in seconds."},
			{"TokenType", "string", `json:"token_type,omitempty"`, "TokenType is \"access\"."},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoRequest: "FetchProfile", AuthMethod: "client_secret_post", Style: Style{BrandColor: "#ff7a59"}},
		DefaultsDoc: `Defaults returns the HubSpot configuration before any user option: the
endpoints, the scope, the default checks (pkce), client_secret_post,
FetchProfile, MapProfile and the button style.`,
		MapDoc: `MapProfile maps HubSpot token metadata to a user: id ← user_id (as a
string), name ← user, email ← user (HubSpot gives only the address), no
image.`,
		Map: "fields", MapID: `providers.FormatID(p.UserID)`, MapName: `p.User`, MapEmail: `p.User`, Missing: "profile has no user_id",
	},
	{
		ID: "huggingface", Package: "huggingface", Const: "HuggingFace",
		Name: "Hugging Face", Kind: "oidc",
		Doc: `Package huggingface is the built-in Hugging Face provider (OpenID
Connect, issuer https://huggingface.co, endpoints from discovery). The
claims are mapped by the default OpenID Connect mapping.

	p := huggingface.New(providers.OIDCUserConfig[huggingface.Profile]{
		ClientID:     os.Getenv("AUTH_HUGGINGFACE_ID"),
		ClientSecret: os.Getenv("AUTH_HUGGINGFACE_SECRET"),
	})

Scopes beyond the default (read-repos, write-repos, manage-repos,
inference-api, …) must first be enabled in the OAuth app's settings.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://huggingface.co", Doc: `Issuer is Hugging Face's issuer; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: "Profile is the claims Hugging Face returns about the user.",
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's unique id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name (profile scope)."},
			{"PreferredUsername", "string", `json:"preferred_username,omitempty"`, "PreferredUsername is the user's Hugging Face username (profile scope)."},
			{"ProfileURL", "string", `json:"profile,omitempty"`, "ProfileURL is the URL of the user's profile page (profile scope)."},
			{"Picture", "string", `json:"picture,omitempty"`, "Picture is the URL of the user's avatar (profile scope)."},
			{"Website", "string", `json:"website,omitempty"`, "Website is the user's website (profile scope)."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address (email scope)."},
			{"EmailVerified", "bool", `json:"email_verified,omitempty"`, `EmailVerified says whether Email is verified; Hugging Face requires
a verified address before a user can grant access to an OAuth app.`},
			{"IsPro", "bool", `json:"isPro"`, "IsPro is true when the user has a paid subscription."},
			{"CanPay", "*bool", `json:"canPay,omitempty"`, `CanPay is true when the user has a payment method (read-billing
scope).`},
			{"Orgs", "[]Org", `json:"orgs,omitempty"`, "Orgs are the user's organizations."},
		},
		Defaults: &Defaults{Issuer: true, Checks: []string{"state", "pkce"}, Style: Style{BrandColor: "#FFD21E"}},
		DefaultsDoc: `Defaults returns the Hugging Face configuration before any user option:
the issuer, the scope, the checks (state and pkce, no nonce) and the
button style. The profile goes through the default mapping (id ← sub,
name ← name, else preferred_username, email, image ← picture).`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "hydra", Package: "hydra", Const: "Hydra", ConstDoc: "Ory Hydra",
		Name: "Ory Hydra", Kind: "oidc", IssuerRequired: true,
		Doc: `Package hydra is the built-in Ory Hydra provider (OpenID Connect); its
id is hydra (Auth.js's file is named ory-hydra). The endpoints come from
discovery of the issuer the application supplies (AUTH_HYDRA_ISSUER):
the public URL of a self-hosted Hydra, or of an Ory Network project,
e.g. https://<project>.projects.oryapis.com. The ID token's claims go
through the default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Style: Style{BrandColor: "#fff"}},
		NewDoc: `New returns the Ory Hydra provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the Ory Hydra configuration before any user option: the
scope, the default checks (pkce, state, nonce) and the button style. It
has no issuer; the endpoints come from the issuer's discovery document.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "identity-server4", Package: "identityserver4", Const: "IdentityServer4",
		Name: "IdentityServer4", Kind: "oidc", IssuerRequired: true,
		Doc: `Package identityserver4 is the built-in IdentityServer4 provider (OpenID
Connect). Its endpoints come from discovery of the issuer the
application supplies; the ID token's claims are mapped by the default
OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: "Profile is the ID token's claims (sub, name, email, …).",
		Claims:     true,
		Defaults:   &Defaults{},
		NewDoc: `New returns the IdentityServer4 provider configuration with opts laid
over its defaults by providers.Merge. opts.Issuer is required: without
it the configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope
and the default checks. It has no issuer and no button style.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "instagram", Package: "instagram", Const: "Instagram",
		Name: "Instagram", Kind: "oauth",
		Doc: `Package instagram is the built-in Instagram provider (OAuth 2.0, the
Instagram Basic Display API, as in Auth.js). Instagram shares no e-mail
address or picture through it: the user is an id and a username.

	p := instagram.New(providers.OAuthUserConfig[instagram.Profile]{
		ClientID:     os.Getenv("AUTH_INSTAGRAM_ID"),
		ClientSecret: os.Getenv("AUTH_INSTAGRAM_SECRET"),
	})

Meta has retired the Basic Display API (December 2024); apps created
since use the Instagram API with Instagram Login, whose endpoints and
scopes differ. Override Authorization, Token, Userinfo and the scope to
use it.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://api.instagram.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.instagram.com/oauth/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_post)."},
			{Name: "UserinfoURL", Value: "https://graph.instagram.com/me", Doc: `UserinfoURL answers the Profile as JSON to a Bearer GET; the fields
it returns are named in UserinfoFields.`},
			{Name: "UserinfoFields", Value: "id,username,account_type,name", Doc: "UserinfoFields are the profile fields asked of UserinfoURL."},
			{Name: "Scope", Value: "user_profile", Doc: "Scope lets the token read the user's profile."},
		},
		ProfileDoc: "Profile is the answer of GET /me?fields=id,username,account_type,name.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's app-scoped id (digits, as a string)."},
			{"Username", "string", `json:"username"`, "Username is the user's Instagram username."},
			{"AccountType", "string", `json:"account_type,omitempty"`, "AccountType is BUSINESS, MEDIA_CREATOR or PERSONAL."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's name, when Instagram returns it."},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoParams: []Param{{"fields", `UserinfoFields`}}, AuthMethod: "client_secret_post", Style: Style{BrandColor: "#fff"}},
		DefaultsDoc: `Defaults returns the Instagram configuration before any user option: the
endpoints, the scope, the userinfo fields, the default checks (pkce),
client_secret_post, MapProfile and the button style.`,
		MapDoc: `MapProfile maps an Instagram user to a user: id ← id, name ← username;
no e-mail, no image.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Username`, Missing: "profile has no id",
	},
	{
		ID: "kakao", Package: "kakao", Const: "Kakao",
		Name: "Kakao", Kind: "oauth",
		Doc: `Package kakao is the built-in Kakao provider (OAuth 2.0, Kakao Login).

	p := kakao.New(providers.OAuthUserConfig[kakao.Profile]{
		ClientID:     os.Getenv("AUTH_KAKAO_ID"),     // the REST API key
		ClientSecret: os.Getenv("AUTH_KAKAO_SECRET"), // the client secret
	})

The scope parameter is sent empty: Kakao then asks for the consent
items configured for the app in Kakao Developers.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://kauth.kakao.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://kauth.kakao.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_post)."},
			{Name: "UserinfoURL", Value: "https://kapi.kakao.com/v2/user/me", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /v2/user/me.",
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric Kakao id."},
			{"ConnectedAt", "string", `json:"connected_at,omitempty"`, "ConnectedAt is when the user connected to the app (RFC 3339)."},
			{"Properties", "map[string]string", `json:"properties,omitempty"`, "Properties are the app's custom user properties."},
			{"KakaoAccount", "Account", `json:"kakao_account"`, "KakaoAccount is the account information the user consented to share."},
		},
		Defaults: &Defaults{ScopeParam: "empty", AuthMethod: "client_secret_post"},
		DefaultsDoc: `Defaults returns the Kakao configuration before any user option: the
endpoints, an empty scope, the default checks (pkce), client_secret_post
and MapProfile. The button has the Kakao logo but no colour of its own.`,
		MapDoc: `MapProfile maps a Kakao user to a user: id ← id (as a string), name ←
kakao_account.profile.nickname, email ← kakao_account.email, image ←
kakao_account.profile.profile_image_url.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `p.KakaoAccount.Profile.Nickname`, MapEmail: `p.KakaoAccount.Email`, MapImage: `p.KakaoAccount.Profile.ProfileImageURL`, Missing: "profile has no id",
	},
	{
		ID: "keycloak", Package: "keycloak", Const: "Keycloak",
		Name: "Keycloak", Kind: "oidc", IssuerRequired: true,
		Doc: `Package keycloak is the built-in provider for Keycloak (OpenID Connect).
The issuer is the realm's URL, https://<host>/realms/<realm>
(https://<host>/auth/realms/<realm> on Keycloak before 17).

The issuer has no default: set Issuer (or AUTH_KEYCLOAK_ISSUER for
builtin.FromEnv), e.g. https://keycloak.example.com/realms/myrealm.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{Style: Style{BrandColor: "#428bca"}},
		NewDoc: `New returns the Keycloak configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "kinde", Package: "kinde", Const: "Kinde",
		Name: "Kinde", Kind: "oidc", IssuerRequired: true,
		Doc: `Package kinde is the built-in Kinde provider (OpenID Connect). Its
endpoints come from discovery of the issuer the application supplies
(its Kinde domain, e.g. https://acme.kinde.com); the ID token's claims
are mapped by the default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Checks: []string{"state", "pkce"}, Style: Style{BrandColor: "#fff"}},
		NewDoc: `New returns the Kinde provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope,
the checks (state and pkce) and the button style. It has no issuer.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "line", Package: "line", Const: "Line",
		Name: "LINE", Kind: "oidc",
		Doc: `Package line is the built-in LINE Login provider (OpenID Connect, issuer
https://access.line.me, endpoints from discovery). LINE signs its ID
tokens with HS256 and the channel secret. The claims are mapped by the
default OpenID Connect mapping.

	p := line.New(providers.OIDCUserConfig[line.Profile]{
		ClientID:     os.Getenv("AUTH_LINE_ID"),     // the channel ID
		ClientSecret: os.Getenv("AUTH_LINE_SECRET"), // the channel secret
	})

The email claim is only present once LINE has approved the channel's
request for e-mail permission.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://access.line.me", Doc: `Issuer is LINE's issuer; the endpoints come from its discovery
document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
			{Name: "IDTokenAlg", Value: "HS256", Doc: `IDTokenAlg is the algorithm LINE signs ID tokens with (HMAC with
the channel secret).`},
		},
		ProfileDoc: "Profile is the claims of a LINE ID token.",
		Profile: []Field{
			{"Iss", "string", `json:"iss"`, "Iss is the issuer, https://access.line.me."},
			{"Sub", "string", `json:"sub"`, "Sub is the user's LINE user id."},
			{"Aud", "string", `json:"aud"`, "Aud is the channel id."},
			{"Exp", "int64", `json:"exp"`, "Exp is when the token expires, in seconds since the epoch."},
			{"Iat", "int64", `json:"iat"`, "Iat is when the token was issued, in seconds since the epoch."},
			{"AuthTime", "int64", `json:"auth_time,omitempty"`, "AuthTime is when the user authenticated."},
			{"Nonce", "string", `json:"nonce,omitempty"`, "Nonce echoes the authorization request's nonce, if one was sent."},
			{"AMR", "[]string", `json:"amr,omitempty"`, `AMR lists the authentication methods used (pwd, lineautologin,
lineqr, linesso, mfa).`},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's display name (profile scope)."},
			{"Picture", "string", `json:"picture,omitempty"`, "Picture is the URL of the user's profile picture (profile scope)."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address (email scope, once approved by LINE)."},
		},
		Defaults: &Defaults{Issuer: true, IDTokenAlg: `IDTokenAlg`, Checks: []string{"state"}, Style: Style{BrandColor: "#00C300"}},
		DefaultsDoc: `Defaults returns the LINE configuration before any user option: the
issuer, the scope, the checks (state only, as Auth.js), the HS256 ID
token algorithm and the button style.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "linkedin", Package: "linkedin", Const: "LinkedIn",
		Name: "LinkedIn", Kind: "oidc",
		Doc: `Package linkedin is the built-in LinkedIn provider: OpenID Connect
("Sign In with LinkedIn using OpenID Connect"), client_secret_post, with
the state check only, as in Auth.js: neither PKCE nor a nonce is sent.`,
		Facts: []Const{
			{Name: "Issuer", Value: "https://www.linkedin.com/oauth"},
			{Name: "Scope", Value: "openid profile email"},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, AuthMethod: "client_secret_post", Checks: []string{"state"}, Style: Style{BrandColor: "#069"}},
		NewDoc: `New returns the LinkedIn configuration with opts laid over its defaults
by providers.Merge. The profile is the ID token's claims (sub, name,
given_name, family_name, picture, email, email_verified, locale), mapped
by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "logto", Package: "logto", Const: "Logto",
		Name: "Logto", Kind: "oidc", IssuerRequired: true,
		Doc: `Package logto is the built-in Logto provider (OpenID Connect). The
issuer is the application's Logto endpoint followed by /oidc (e.g.
https://acme.logto.app/oidc), supplied by the application; the
endpoints come from discovery.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "offline_access openid email profile", Doc: `Scope asks for an ID token with the profile and e-mail claims, and
for a refresh token (offline_access).`},
		},
		ProfileDoc: `Profile is the claims Logto returns about the user. Which are present
depends on the scopes granted.`,
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's id."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"Username", "string", `json:"username,omitempty"`, "Username is the user's Logto username."},
			{"Picture", "string", `json:"picture,omitempty"`, "Picture is the URL of the user's avatar."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address (email scope)."},
			{"EmailVerified", "bool", `json:"email_verified,omitempty"`, "EmailVerified says whether Logto verified Email."},
			{"PhoneNumber", "string", `json:"phone_number,omitempty"`, "PhoneNumber is the user's phone number (phone scope)."},
			{"PhoneNumberVerified", "bool", `json:"phone_number_verified,omitempty"`, "PhoneNumberVerified says whether Logto verified PhoneNumber."},
			{"CustomData", "map[string]any", `json:"custom_data,omitempty"`, "CustomData is the user's custom data (custom_data scope)."},
			{"Identities", "map[string]any", `json:"identities,omitempty"`, `Identities are the user's linked social identities (identities
scope), keyed by connector target.`},
			{"Organizations", "[]string", `json:"organizations,omitempty"`, `Organizations are the ids of the user's organizations
(urn:logto:scope:organizations scope).`},
			{"OrganizationRoles", "[]string", `json:"organization_roles,omitempty"`, `OrganizationRoles are the user's organization roles, each
"<organization id>:<role name>".`},
			{"CreatedAt", "int64", `json:"created_at,omitempty"`, `CreatedAt is when the user was created, in milliseconds since the
epoch.`},
			{"UpdatedAt", "int64", `json:"updated_at,omitempty"`, `UpdatedAt is when the user was last updated, in milliseconds since
the epoch.`},
		},
		Defaults: &Defaults{},
		NewDoc: `New returns the Logto provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the configuration before any user option: the scope,
the default checks and MapProfile. Logto has no button style of its own.`,
		MapDoc: `MapProfile maps Logto claims to a user: id ← sub, name ← name, else
username, email ← email, image ← picture. EmailVerified is set to now
when Logto asserts email_verified, as the default OpenID Connect mapping
does.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "mailchimp", Package: "mailchimp", Const: "Mailchimp",
		Name: "Mailchimp", Kind: "oauth",
		Doc: `Package mailchimp is the built-in Mailchimp provider (OAuth 2.0): its
endpoints, the record its metadata endpoint answers, and the mapping of
that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://login.mailchimp.com/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://login.mailchimp.com/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://login.mailchimp.com/oauth2/metadata", Doc: "UserinfoURL answers the Profile (the token's metadata) to a Bearer GET."},
		},
		ProfileDoc: `Profile is the answer of Mailchimp's metadata endpoint: the account the
token belongs to and the login that granted it.`,
		Profile: []Field{
			{"DC", "string", `json:"dc"`, "DC is the account's data centre, e.g. \"us1\"."},
			{"Role", "string", `json:"role"`, "Role is the login's role in the account, e.g. \"owner\"."},
			{"AccountName", "string", `json:"accountname"`, "AccountName is the account's name."},
			{"UserID", "int64", `json:"user_id"`, "UserID is the account's id."},
			{"Login", "Login", `json:"login"`, "Login is the person who signed in."},
			{"LoginURL", "string", `json:"login_url"`, "LoginURL is the account's login page."},
			{"APIEndpoint", "string", `json:"api_endpoint"`, "APIEndpoint is the base URL of the account's Marketing API."},
		},
		Defaults: &Defaults{Style: Style{BrandColor: "#000"}},
		DefaultsDoc: `Defaults returns the Mailchimp configuration before any user option. It
sets no scope: Mailchimp has none, a token grants the whole account.`,
		MapDoc: `MapProfile maps a Mailchimp profile to a user: id ← login.login_id, name
← accountname, email ← login.email, and no image. A profile without a
login_id is refused.`,
		Map: "fields", MapID: `providers.FormatID(p.Login.LoginID)`, MapName: `p.AccountName`, MapEmail: `p.Login.Email`, Missing: "profile has no login.login_id",
	},
	{
		ID: "mailru", Package: "mailru", Const: "MailRu",
		Name: "Mail.ru", Kind: "oauth",
		Doc: `Package mailru is the built-in Mail.ru provider (OAuth 2.0): its
endpoints and the record its userinfo endpoint answers. The profile goes
through the default mapping (profile.FromClaims).`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://oauth.mail.ru/login", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://oauth.mail.ru/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://oauth.mail.ru/userinfo", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "userinfo", Doc: "Scope asks for the user's basic information and e-mail address."},
		},
		ProfileDoc: "Profile is the answer of the Mail.ru userinfo endpoint.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's unique id at Mail.ru."},
			{"ClientID", "string", `json:"client_id"`, "ClientID is the application the token was issued to."},
			{"Gender", "string", `json:"gender,omitempty"`, "Gender is \"m\", \"f\" or empty."},
			{"Name", "string", `json:"name,omitempty"`, "Name is the user's full name."},
			{"Nickname", "string", `json:"nickname,omitempty"`, "Nickname is the user's nickname."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's locale, e.g. \"ru_RU\"."},
			{"FirstName", "string", `json:"first_name,omitempty"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name,omitempty"`, "LastName is the user's last name."},
			{"Birthday", "string", `json:"birthday,omitempty"`, "Birthday is the date of birth as DD.MM.YYYY."},
			{"Image", "string", `json:"image,omitempty"`, `Image is the URL of the user's picture. The default mapping reads
picture, so it does not become the user's image.`},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's e-mail address."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		DefaultsDoc: `Defaults returns the Mail.ru configuration before any user option. Its
Profile is nil: the default mapping gives id ← id, name ← name, else
nickname, email ← email.`,
		Map: "claims", Missing: "profile has no id",
	},
	{
		ID: "mastodon", Package: "mastodon", Const: "Mastodon",
		Name: "Mastodon", Kind: "oauth", IssuerRequired: true,
		Doc: `Package mastodon is the built-in Mastodon provider (OAuth 2.0). Mastodon
is self-hosted: the endpoints are those of the instance whose base URL
is the Issuer option (AUTH_MASTODON_ISSUER), e.g. https://mastodon.social.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/oauth/authorize", Doc: "AuthorizationPath is where the user signs in and consents."},
			{Name: "TokenPath", Value: "/oauth/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/api/v1/accounts/verify_credentials", Doc: "UserinfoPath answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "read", Doc: "Scope lets the token read the account (verify_credentials needs it)."},
		},
		ProfileDoc: "Profile is the Account entity that verify_credentials answers.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the account's id on the instance (a string of digits)."},
			{"Username", "string", `json:"username"`, "Username is the account's user name, without the domain."},
			{"Acct", "string", `json:"acct"`, `Acct is the webfinger account URI: the user name, with @domain for
remote accounts.`},
			{"DisplayName", "string", `json:"display_name"`, "DisplayName is the profile's display name."},
			{"Locked", "bool", `json:"locked"`, "Locked is true when the account approves followers by hand."},
			{"Bot", "bool", `json:"bot"`, "Bot is true when the account performs automated actions."},
			{"CreatedAt", "string", `json:"created_at"`, "CreatedAt is when the account was created (RFC 3339)."},
			{"Note", "string", `json:"note"`, "Note is the profile's biography, as HTML."},
			{"URL", "string", `json:"url"`, "URL is the profile page."},
			{"Avatar", "string", `json:"avatar"`, "Avatar is the avatar's URL; it may be animated."},
			{"AvatarStatic", "string", `json:"avatar_static"`, "AvatarStatic is the avatar's URL as a still image."},
			{"Header", "string", `json:"header"`, "Header is the header image's URL."},
			{"FollowersCount", "int64", `json:"followers_count"`, "FollowersCount is the number of followers."},
			{"FollowingCount", "int64", `json:"following_count"`, "FollowingCount is the number of accounts followed."},
			{"StatusesCount", "int64", `json:"statuses_count"`, "StatusesCount is the number of posts."},
		},
		Defaults: &Defaults{BaseURL: true, ScopeParam: "scope"},
		NewDoc: `New returns the Mastodon provider configuration for the instance at
opts.Issuer, with opts laid over its defaults by providers.Merge.`,
		DefaultsDoc: `Defaults returns the configuration for the instance at issuer, its base
URL (a trailing slash is allowed). With issuer "" the endpoints are left
empty, and gatehouse.New reports the missing issuer.`,
		MapDoc: `MapProfile maps a Mastodon account to a user: id ← id, name ← username,
no e-mail (Mastodon does not disclose it), image ← avatar_static.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Username`, MapImage: `p.AvatarStatic`, Missing: "profile has no id",
	},
	{
		ID: "mattermost", Package: "mattermost", Const: "Mattermost",
		Name: "Mattermost", Kind: "oauth", IssuerRequired: true,
		Doc: `Package mattermost is the built-in Mattermost provider (OAuth 2.0).
Mattermost is self-hosted: the endpoints are those of the server whose
base URL is the Issuer option (AUTH_MATTERMOST_ISSUER), e.g.
https://chat.example.com.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/oauth/authorize", Doc: "AuthorizationPath is where the user signs in and consents."},
			{Name: "TokenPath", Value: "/oauth/access_token", Doc: `TokenPath exchanges the code for tokens, with the client
credentials in the form (client_secret_post).`},
			{Name: "UserinfoPath", Value: "/api/v4/users/me", Doc: "UserinfoPath answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is the User object of GET /api/v4/users/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id (26 characters)."},
			{"Username", "string", `json:"username"`, "Username is the user's login name."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the user's last name."},
			{"Nickname", "string", `json:"nickname"`, "Nickname is the user's nickname."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"EmailVerified", "bool", `json:"email_verified"`, "EmailVerified is Mattermost's flag for a verified address."},
			{"AuthService", "string", `json:"auth_service"`, "AuthService is the sign-in method the user has (\"\" for e-mail)."},
			{"Roles", "string", `json:"roles"`, "Roles is a space-separated list of the user's roles."},
			{"Locale", "string", `json:"locale"`, "Locale is the user's locale, e.g. \"en\"."},
			{"Position", "string", `json:"position"`, "Position is the user's job title."},
			{"CreateAt", "int64", `json:"create_at"`, "CreateAt is the creation time in milliseconds since the epoch."},
			{"UpdateAt", "int64", `json:"update_at"`, "UpdateAt is the last update in milliseconds since the epoch."},
			{"DeleteAt", "int64", `json:"delete_at"`, "DeleteAt is the deactivation time, 0 when active."},
		},
		Defaults: &Defaults{BaseURL: true, AuthMethod: "client_secret_post", Style: Style{BrandColor: "#000"}},
		NewDoc: `New returns the Mattermost provider configuration for the server at
opts.Issuer, with opts laid over its defaults by providers.Merge.`,
		DefaultsDoc: `Defaults returns the configuration for the server at issuer, its base
URL (a trailing slash is allowed). It sets no scope: Mattermost's OAuth
service has none. With issuer "" the endpoints are left empty, and
gatehouse.New reports the missing issuer.`,
		MapDoc: `MapProfile maps a Mattermost user to a user: id ← id, name ← username,
else "first_name last_name", email ← email, no image.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "medium", Package: "medium", Const: "Medium",
		Name: "Medium", Kind: "oauth",
		Doc: `Package medium is the built-in Medium provider (OAuth 2.0): its
endpoints, the record its /v1/me endpoint answers, and the mapping of
that record to a user.

Two settings differ from Auth.js's, which follow the defaults and do not
match Medium's API documentation: the client credentials go in the token
request's form (client_secret_post), as Medium lists client_id and
client_secret among the form's fields; and the callback checks state,
which Medium requires on the authorization request and which gives CSRF
protection that PKCE, unknown to Medium, cannot.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://medium.com/m/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.medium.com/v1/tokens", Doc: "TokenURL exchanges the code for tokens (client_secret_post)."},
			{Name: "UserinfoURL", Value: "https://api.medium.com/v1/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "basicProfile", Doc: "Scope grants the user's basic profile."},
		},
		ProfileDoc: "Profile is the answer of GET /v1/me: the user inside a data envelope.",
		Profile: []Field{
			{"Data", "User", `json:"data"`, "Data is the user."},
		},
		Defaults: &Defaults{ScopeParam: "scope", AuthMethod: "client_secret_post", Checks: []string{"state"}},
		MapDoc: `MapProfile maps a Medium profile to a user: id ← data.id, name ←
data.name, no e-mail (Medium does not give it), image ← data.imageUrl.`,
		Map: "fields", MapID: `p.Data.ID`, MapName: `p.Data.Name`, MapImage: `p.Data.ImageURL`, Missing: "profile has no id",
	},
	{
		ID: "microsoft-entra-id", Package: "microsoftentraid", Const: "MicrosoftEntraID",
		Name: "Microsoft Entra ID", Kind: "oidc",
		Doc: `Package microsoftentraid is the built-in Microsoft Entra ID provider
(OpenID Connect; formerly Azure Active Directory), id
"microsoft-entra-id". Package azuread is the same provider under the
old id "azure-ad".

# Tenants and the issuer

The issuer names the tenant: https://login.microsoftonline.com/<tenant>/v2.0.
With a tenant id (a GUID) the provider is single-tenant and the ID
token's iss must equal that issuer, as for any OIDC provider. The
default, Issuer (tenant "common"), and the tenants "organizations" and
"consumers" are multi-tenant: their discovery document's issuer is the
template DiscoveredIssuerTemplate, "https://login.microsoftonline.com/{tenantid}/v2.0",
and each ID token is issued by the user's own tenant. For those the
sign-in flow must:

  - accept the template as the discovered issuer (ValidDiscoveredIssuer);
  - check the ID token's iss against the token's own tid claim, not the
    configured issuer: iss must equal IssuerForTenant(tid)
    (ValidMultiTenantIssuer), the rule Microsoft documents for
    multi-tenant applications. The signature is still checked with the
    keys from discovery.

Use a tenant's GUID, not its domain name, for single-tenant
applications: discovery answers a GUID issuer either way.`,
		Facts: []Const{
			{Name: "LoginURL", Value: "https://login.microsoftonline.com", Doc: "LoginURL is the base of every Entra issuer."},
			{Name: "Issuer", Expr: `LoginURL + "/common/v2.0"`, Doc: `Issuer is the default issuer: the multi-tenant "common" endpoint,
for work, school and personal Microsoft accounts.`},
			{Name: "DiscoveredIssuerTemplate", Expr: `LoginURL + "/{tenantid}/v2.0"`, Doc: `DiscoveredIssuerTemplate is the issuer that the multi-tenant
endpoints' discovery documents give.`},
			{Name: "Scope", Value: "openid profile email User.Read", Doc: `Scope adds Microsoft Graph's User.Read, which reading the profile
photo needs, to the OIDC scopes.`},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#0072c6"}},
		NewDoc: `New returns the Entra ID configuration with opts laid over its defaults
by providers.Merge. The profile is the ID token's claims, mapped by
profile.FromClaims (id ← sub; name ← name; email ← email); set Profile
to PhotoProfile(…) to add the Graph profile photo as the image.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "naver", Package: "naver", Const: "Naver",
		Name: "Naver", Kind: "oauth",
		Doc: `Package naver is the built-in Naver provider (OAuth 2.0): its endpoints,
the record its profile API answers, and the mapping of that record to a
user.

Naver's login API differs from Auth.js's configuration, which follows
the defaults, in three documented ways, and this package follows Naver:
the authorization request must carry a state (so the callback checks
state; Naver does not implement PKCE); the token request carries the
client credentials and that same state as form parameters; and a failed
token request is answered 200 with an error member, which Exchange turns
into an error.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://nid.naver.com/oauth2.0/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://nid.naver.com/oauth2.0/token", Doc: "TokenURL exchanges the code for tokens; see Exchange."},
			{Name: "UserinfoURL", Value: "https://openapi.naver.com/v1/nid/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
		},
		ProfileDoc: `Profile is the answer of the profile API: a result code and message,
and the member in response.`,
		Profile: []Field{
			{"ResultCode", "string", `json:"resultcode"`, "ResultCode is \"00\" on success."},
			{"Message", "string", `json:"message"`, "Message is \"success\" on success."},
			{"Response", "Member", `json:"response"`, "Response is the member."},
		},
		Defaults: &Defaults{TokenRequest: "Exchange", AuthMethod: "client_secret_post", Checks: []string{"state"}},
		DefaultsDoc: `Defaults returns the Naver configuration before any user option. It sets
no scope: Naver's permissions are chosen in the application's settings.`,
		MapDoc: `MapProfile maps a Naver profile to a user: id ← response.id, name ←
response.nickname, email ← response.email, image ←
response.profile_image. An answer whose resultcode is not "00" is an
error.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "netlify", Package: "netlify", Const: "Netlify",
		Name: "Netlify", Kind: "oauth",
		Doc: `Package netlify is the built-in Netlify provider (OAuth 2.0): its
endpoints, the record its user endpoint answers, and the mapping of that
record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://app.netlify.com/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.netlify.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.netlify.com/api/v1/user", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /api/v1/user.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's unique id."},
			{"UID", "string", `json:"uid,omitempty"`, "UID is the user's id in Netlify's older numbering, if any."},
			{"FullName", "string", `json:"full_name"`, "FullName is the user's name."},
			{"AvatarURL", "string", `json:"avatar_url"`, "AvatarURL is the user's avatar."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"AffiliateID", "string", `json:"affiliate_id,omitempty"`, "AffiliateID is the user's affiliate id."},
			{"SiteCount", "int64", `json:"site_count"`, "SiteCount is the number of sites the user owns."},
			{"CreatedAt", "string", `json:"created_at"`, "CreatedAt is when the account was created (RFC 3339)."},
			{"LastLogin", "string", `json:"last_login"`, "LastLogin is the user's last sign-in (RFC 3339)."},
			{"LoginProviders", "[]string", `json:"login_providers"`, "LoginProviders are the ways the user can sign in, e.g. \"github\"."},
		},
		Defaults: &Defaults{ScopeParam: "empty", Style: Style{BrandColor: "#32e6e2"}},
		DefaultsDoc: `Defaults returns the Netlify configuration before any user option. The
scope parameter is sent empty: Netlify has no scopes.`,
		MapDoc: `MapProfile maps a Netlify profile to a user: id ← id, name ← full_name,
email ← email, image ← avatar_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.FullName`, MapEmail: `p.Email`, MapImage: `p.AvatarURL`, Missing: "profile has no id",
	},
	{
		ID: "netsuite", Package: "netsuite", Const: "NetSuite",
		Name: "NetSuite", Kind: "oauth", IssuerRequired: true,
		Doc: `Package netsuite is the built-in Oracle NetSuite provider (OAuth 2.0).
NetSuite's endpoints are per account: the Issuer option
(AUTH_NETSUITE_ISSUER) is the account ID, e.g. "TSTDRV1234567" or
"1234567_SB1", as in Auth.js. NetSuite has no userinfo endpoint: the
application deploys a RESTlet that answers the current user (from
N/runtime.getCurrentUser) as JSON, and passes its external URL as the
userinfo URL.

	p := netsuite.New(providers.OAuthUserConfig[netsuite.Profile]{
		ClientID:     os.Getenv("AUTH_NETSUITE_ID"),
		ClientSecret: os.Getenv("AUTH_NETSUITE_SECRET"),
		Issuer:       "TSTDRV1234567",
		Userinfo: providers.UserinfoEndpoint[netsuite.Profile]{
			URL: "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
		},
	})

The account ID is not an issuer identifier (NetSuite's authorization
responses carry none), so New uses it only to build the endpoint URLs
and leaves Issuer empty in the configuration it returns.`,
		Facts: []Const{
			{Name: "Scope", Value: "restlets rest_webservices", Doc: `Scope grants access to RESTlets (the userinfo RESTlet needs it) and
to the REST web services.`},
		},
		ProfileDoc: `Profile is what the userinfo RESTlet answers: the fields of
N/runtime.getCurrentUser().`,
		Profile: []Field{
			{"ID", "json.Number", `json:"id"`, "ID is the user's internal id (a number, or a string of digits)."},
			{"Name", "string", `json:"name"`, "Name is the user's name."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"Location", "json.RawMessage", `json:"location,omitempty"`, "Location is the user's location id."},
			{"Role", "json.RawMessage", `json:"role,omitempty"`, "Role is the id of the role the user signed in with."},
			{"Contact", "json.RawMessage", `json:"contact,omitempty"`, "Contact is the user's contact id, if any."},
		},
		MapDoc: `MapProfile maps the RESTlet's answer to a user: id ← id (as a string),
name ← name, email ← email, no image.`,
		Map: "fields", MapID: `p.ID.String()`, MapName: `p.Name`, MapEmail: `p.Email`, Missing: "profile has no id",
	},
	{
		ID: "nextcloud", Package: "nextcloud", Const: "Nextcloud",
		Name: "Nextcloud", Kind: "oauth", IssuerRequired: true,
		Doc: `Package nextcloud is the built-in Nextcloud provider (OAuth 2.0).
Nextcloud is self-hosted: the endpoints are those of the server whose
base URL is the Issuer option (AUTH_NEXTCLOUD_ISSUER), e.g.
https://cloud.example.com.

The profile comes from the OCS user provisioning API, which answers XML
unless asked for JSON and wants an OCS-APIRequest header; the token
response names the user (user_id) whose record is read. Nextcloud's
OAuth 2.0 has no scopes: a token has full access to the account.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/apps/oauth2/authorize", Doc: "AuthorizationPath is where the user signs in and consents."},
			{Name: "TokenPath", Value: "/apps/oauth2/api/v1/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/ocs/v1.php/cloud/users", Doc: `UserinfoPath is the OCS users collection; the user's record is at
UserinfoPath/<user_id>. See Userinfo.`},
		},
		ProfileDoc: "Profile is a user record of the OCS provisioning API (ocs.data).",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's login name, e.g. \"frank\"."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address, if set."},
			{"DisplayName", "string", `json:"displayname"`, "DisplayName is the user's display name."},
			{"Phone", "string", `json:"phone,omitempty"`, "Phone is the user's phone number."},
			{"Address", "string", `json:"address,omitempty"`, "Address is the user's postal address."},
			{"Website", "string", `json:"website,omitempty"`, "Website is the user's web site."},
			{"Twitter", "string", `json:"twitter,omitempty"`, "Twitter is the user's Twitter handle."},
			{"Fediverse", "string", `json:"fediverse,omitempty"`, "Fediverse is the user's fediverse handle."},
			{"Organisation", "string", `json:"organisation,omitempty"`, "Organisation is the user's organisation."},
			{"Role", "string", `json:"role,omitempty"`, "Role is the user's role or job title."},
			{"Headline", "string", `json:"headline,omitempty"`, "Headline is the user's headline."},
			{"Biography", "string", `json:"biography,omitempty"`, "Biography is the user's biography."},
			{"Groups", "[]string", `json:"groups,omitempty"`, "Groups are the groups the user belongs to."},
			{"Language", "string", `json:"language,omitempty"`, "Language is the user's language, e.g. \"en\"."},
			{"Locale", "string", `json:"locale,omitempty"`, "Locale is the user's locale, e.g. \"en_US\"."},
			{"Enabled", "bool", `json:"enabled"`, "Enabled is false for a disabled account."},
			{"StorageLocation", "string", `json:"storageLocation,omitempty"`, "StorageLocation is the path of the user's files on the server."},
		},
	},
	{
		ID: "notion", Package: "notion", Const: "Notion",
		Name: "Notion", Kind: "oauth",
		Doc: `Package notion is the built-in Notion provider (OAuth 2.0 for public
integrations): its endpoints, the user record, and the mapping of that
record to a user.

A Notion token belongs to a bot; the person who authorised it is the
bot's owner. The userinfo handler reads GET /v1/users/me (with the
Notion-Version header Notion requires) and returns bot.owner.user.
Auth.js configures /v1/users as the userinfo URL but fetches
/v1/users/me regardless; here the URL is the one fetched, so overriding
it works.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://api.notion.com/v1/oauth/authorize", Doc: "AuthorizationURL is where the user picks the pages to share."},
			{Name: "TokenURL", Value: "https://api.notion.com/v1/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.notion.com/v1/users/me", Doc: "UserinfoURL answers the token's bot user; see Userinfo."},
			{Name: "APIVersion", Value: "2022-06-28", Doc: "APIVersion is the Notion-Version header the userinfo request sends."},
		},
		ProfileDoc: "Profile is a Notion user of type \"person\".",
		Profile: []Field{
			{"Object", "string", `json:"object"`, "Object is always \"user\"."},
			{"ID", "string", `json:"id"`, "ID is the user's unique id (a UUID)."},
			{"Type", "string", `json:"type"`, "Type is \"person\" (or \"bot\")."},
			{"Name", "string", `json:"name"`, "Name is the user's name."},
			{"AvatarURL", "string", `json:"avatar_url"`, "AvatarURL is the user's avatar, if any."},
			{"Person", "Person", `json:"person"`, `Person holds a person's e-mail address; present when the
integration may read user e-mail addresses.`},
		},
		Defaults: &Defaults{AuthParams: []Param{{"owner", `"user"`}}, UserinfoRequest: "Userinfo", Style: Style{BrandColor: "#fff"}},
		DefaultsDoc: `Defaults returns the Notion configuration before any user option. The
authorization request asks for a user-owned token (owner=user); there
is no scope: the user picks the pages to share.`,
		MapDoc: `MapProfile maps a Notion user to a user: id ← id, name ← name, email ←
person.email, image ← avatar_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Name`, MapEmail: `p.Person.Email`, MapImage: `p.AvatarURL`, Missing: "profile has no id",
	},
	{
		ID: "okta", Package: "okta", Const: "Okta",
		Name: "Okta", Kind: "oidc", IssuerRequired: true,
		Doc: `Package okta is the built-in provider for Okta (OpenID Connect). The
issuer is the org authorization server, https://<org>.okta.com, or a
custom one, https://<org>.okta.com/oauth2/<server id> ("default" for the
default custom server).

The issuer has no default: set Issuer (or AUTH_OKTA_ISSUER for
builtin.FromEnv), e.g. https://dev-123456.okta.com/oauth2/default.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{Style: Style{BrandColor: "#000"}},
		NewDoc: `New returns the Okta configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "onelogin", Package: "onelogin", Const: "OneLogin",
		Name: "OneLogin", Kind: "oidc", IssuerRequired: true,
		Doc: `Package onelogin is the built-in OneLogin provider (OpenID Connect). The
endpoints come from discovery of the issuer the application supplies
(AUTH_ONELOGIN_ISSUER): OneLogin's OpenID Connect v2 issuer,
https://<subdomain>.onelogin.com/oidc/2, whose discovery document is at
<issuer>/.well-known/openid-configuration. (Auth.js also declares a
wellKnown URL of <issuer>/oidc/2/.well-known/openid-configuration, which
its core ignores.) The ID token's claims go through the default OpenID
Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{},
		NewDoc: `New returns the OneLogin provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the OneLogin configuration before any user option: the
scope, the default checks (pkce, state, nonce) and the button style. It
has no issuer; the endpoints come from the issuer's discovery document.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "osso", Package: "osso", Const: "Osso",
		Name: "Osso", Kind: "oauth", IssuerRequired: true,
		Doc: `Package osso is the built-in Osso provider (OAuth 2.0 in front of SAML
identity providers). Osso is self-hosted: the endpoints are those of the
deployment whose base URL is the Issuer option (AUTH_OSSO_ISSUER), e.g.
https://demo.ossoapp.com. The profile goes through the default mapping
(profile.FromClaims).

Auth.js builds the endpoints by appending "oauth/…" to the issuer and so
needs it to end with a slash; here the issuer works with or without one.
Which SAML connection to use is chosen per sign-in with Osso's domain or
email authorization parameter.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/oauth/authorize", Doc: "AuthorizationPath is where the user is sent to their SAML provider."},
			{Name: "TokenPath", Value: "/oauth/token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/oauth/me", Doc: "UserinfoPath answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of Osso's /oauth/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id at Osso."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address, as the SAML provider asserted."},
			{"IDP", "string", `json:"idp"`, "IDP is the kind of SAML provider, e.g. \"Okta\" or \"Azure\"."},
			{"Requested", "Requested", `json:"requested"`, "Requested is what the authorization request asked for."},
		},
		Defaults: &Defaults{BaseURL: true},
		NewDoc: `New returns the Osso provider configuration for the deployment at
opts.Issuer, with opts laid over its defaults by providers.Merge.`,
		DefaultsDoc: `Defaults returns the configuration for the deployment at issuer, its
base URL. It sets no scope and no Profile: the default mapping gives
id ← id, email ← email. With issuer "" the endpoints are left empty, and
gatehouse.New reports the missing issuer.`,
		Map: "claims", Missing: "profile has no id",
	},
	{
		ID: "osu", Package: "osu", Const: "Osu",
		Name: "osu!", Kind: "oauth",
		Doc: `Package osu is the built-in osu! provider (OAuth 2.0): its endpoints,
the user record of the osu! API v2, and the mapping of that record to a
user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://osu.ppy.sh/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://osu.ppy.sh/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://osu.ppy.sh/api/v2/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "identify", Doc: "Scope lets the token read the user's public profile."},
		},
		ProfileDoc: `Profile is the User object of GET /api/v2/me (the fields a sign-in
needs; the answer has many more).`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id."},
			{"Username", "string", `json:"username"`, "Username is the user's current name."},
			{"AvatarURL", "string", `json:"avatar_url"`, "AvatarURL is the user's avatar."},
			{"CountryCode", "string", `json:"country_code"`, "CountryCode is the user's ISO 3166-1 alpha-2 country code."},
			{"DefaultGroup", "string", `json:"default_group"`, "DefaultGroup is the user's main group, e.g. \"default\"."},
			{"IsActive", "bool", `json:"is_active"`, "IsActive is true for an account active in the last months."},
			{"IsBot", "bool", `json:"is_bot"`, "IsBot is true for a bot account."},
			{"IsDeleted", "bool", `json:"is_deleted"`, "IsDeleted is true for a deleted account."},
			{"IsOnline", "bool", `json:"is_online"`, "IsOnline is true while the user is online."},
			{"IsSupporter", "bool", `json:"is_supporter"`, "IsSupporter is true for an osu!supporter."},
			{"CoverURL", "string", `json:"cover_url"`, "CoverURL is the user's profile cover image."},
			{"JoinDate", "string", `json:"join_date"`, "JoinDate is when the account was created (RFC 3339)."},
			{"Playmode", "string", `json:"playmode"`, "Playmode is the user's default game mode, e.g. \"osu\"."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		MapDoc: `MapProfile maps an osu! user to a user: id ← id (as a string), name ←
username, no e-mail (osu! does not give it), image ← avatar_url. A
profile without an id is refused.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `p.Username`, MapImage: `p.AvatarURL`, Missing: "profile has no id",
	},
	{
		ID: "passage", Package: "passage", Const: "Passage",
		Name: "Passage", Kind: "oidc", IssuerRequired: true,
		Doc: `Package passage is the built-in Passage by 1Password provider (OpenID
Connect). The endpoints come from discovery of the issuer the
application supplies (AUTH_PASSAGE_ISSUER), e.g.
https://auth.passage.id/v1/apps/<app-id>. The client authenticates to
the token endpoint with HTTP Basic (client_secret_basic), which the
configuration states explicitly, as Auth.js's does. The ID token's
claims go through the default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{AuthMethod: "client_secret_basic", Style: Style{BrandColor: "#3d53f6"}},
		NewDoc: `New returns the Passage provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the Passage configuration before any user option: the
scope, the default checks (pkce, state, nonce) and the button style. It
has no issuer; the endpoints come from the issuer's discovery document.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "patreon", Package: "patreon", Const: "Patreon",
		Name: "Patreon", Kind: "oauth",
		Doc: `Package patreon is the built-in Patreon provider (OAuth 2.0): its
endpoints, the JSON:API user record of its current_user endpoint, and
the mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.patreon.com/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://www.patreon.com/api/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://www.patreon.com/api/oauth2/api/current_user", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "identity identity[email]", Doc: "Scope asks for the user's identity and e-mail address."},
		},
		ProfileDoc: "Profile is the JSON:API document current_user answers.",
		Profile: []Field{
			{"Data", "User", `json:"data"`, "Data is the user resource."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#e85b46"}},
		MapDoc: `MapProfile maps a Patreon user to a user: id ← data.id, name ←
data.attributes.full_name, email ← data.attributes.email, image ←
data.attributes.image_url.`,
		Map: "fields", MapID: `p.Data.ID`, MapName: `p.Data.Attributes.FullName`, MapEmail: `p.Data.Attributes.Email`, MapImage: `p.Data.Attributes.ImageURL`, Missing: "profile has no id",
	},
	{
		ID: "ping-id", Package: "pingid", Const: "PingID",
		Name: "Ping Identity", Kind: "oidc", IssuerRequired: true,
		Doc: `Package pingid is the built-in Ping Identity provider (OpenID Connect).
The endpoints come from discovery of the issuer the application supplies
(AUTH_PING_ID_ISSUER), e.g. https://auth.pingone.com/<environment-id>/as
for PingOne. The ID token's claims go through the default OpenID
Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{},
		NewDoc: `New returns the Ping Identity provider configuration with opts laid over its
defaults by providers.Merge. opts.Issuer is required: without it the
configuration is incomplete and gatehouse.New reports so.`,
		DefaultsDoc: `Defaults returns the Ping Identity configuration before any user option: the
scope, the default checks (pkce, state, nonce) and the button style. It
has no issuer; the endpoints come from the issuer's discovery document.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "pinterest", Package: "pinterest", Const: "Pinterest",
		Name: "Pinterest", Kind: "oauth",
		Doc: `Package pinterest is the built-in Pinterest provider (OAuth 2.0, API
v5): its endpoints, the user account record, and the mapping of that
record to a user.

Auth.js uses the username as the user's id. A username can be changed,
which would make a returning user a stranger, so here the id is the
account's id, which API v5 answers; the username is the id only when no
id is given.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.pinterest.com/oauth", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.pinterest.com/v5/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.pinterest.com/v5/user_account", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "user_accounts:read", Doc: "Scope lets the token read the user account."},
		},
		ProfileDoc: "Profile is the answer of GET /v5/user_account.",
		Profile: []Field{
			{"ID", "string", `json:"id,omitempty"`, "ID is the account's id."},
			{"AccountType", "string", `json:"account_type"`, "AccountType is \"PINNER\" or \"BUSINESS\"."},
			{"ProfileImage", "string", `json:"profile_image"`, "ProfileImage is the URL of the account's picture."},
			{"WebsiteURL", "string", `json:"website_url"`, "WebsiteURL is the account's web site."},
			{"Username", "string", `json:"username"`, "Username is the account's user name."},
			{"About", "string", `json:"about,omitempty"`, "About is the account's description."},
			{"BusinessName", "string", `json:"business_name,omitempty"`, "BusinessName is the name of a business account."},
			{"BoardCount", "int64", `json:"board_count,omitempty"`, "BoardCount is the number of boards."},
			{"PinCount", "int64", `json:"pin_count,omitempty"`, "PinCount is the number of pins."},
			{"FollowerCount", "int64", `json:"follower_count,omitempty"`, "FollowerCount is the number of followers."},
			{"FollowingCount", "int64", `json:"following_count,omitempty"`, "FollowingCount is the number of accounts followed."},
			{"MonthlyViews", "int64", `json:"monthly_views,omitempty"`, "MonthlyViews is the number of monthly views."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#bd081c"}},
		MapDoc: `MapProfile maps a Pinterest account to a user: id ← id, else username;
name ← username; no e-mail (Pinterest does not give it); image ←
profile_image.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "pipedrive", Package: "pipedrive", Const: "Pipedrive",
		Name: "Pipedrive", Kind: "oauth",
		Doc: `Package pipedrive is the built-in Pipedrive provider (OAuth 2.0): its
endpoints, the user record, and the mapping of that record to a user.

Pipedrive serves each company's API at its own domain, which the token
response names (api_domain); the userinfo handler reads
<api_domain>/api/v1/users/me there, and UserinfoURL only when the token
response has no api_domain. Auth.js's userinfo URL,
https://api.pipedrive.com/users/me, lacks the /v1 of Pipedrive's API
paths.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://oauth.pipedrive.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://oauth.pipedrive.com/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.pipedrive.com/v1/users/me", Doc: `UserinfoURL answers the Profile when the token response has no
api_domain; see Userinfo.`},
			{Name: "UserinfoPath", Value: "/api/v1/users/me", Doc: "UserinfoPath is the path of the user record under api_domain."},
		},
		ProfileDoc: `Profile is the answer of GET /v1/users/me: a success flag and the user
in data.`,
		Profile: []Field{
			{"Success", "bool", `json:"success"`, "Success is true for a successful answer."},
			{"Data", "User", `json:"data"`, "Data is the user."},
		},
		Defaults: &Defaults{UserinfoRequest: "Userinfo"},
		DefaultsDoc: `Defaults returns the Pipedrive configuration before any user option. It
sets no scope: a Pipedrive app's scopes are chosen in its settings.`,
		MapDoc: `MapProfile maps a Pipedrive user to a user: id ← data.id (as a string),
name ← data.name, email ← data.email, image ← data.icon_url. A profile
without a data.id is refused.`,
		Map: "fields", MapID: `providers.FormatID(p.Data.ID)`, MapName: `p.Data.Name`, MapEmail: `p.Data.Email`, MapImage: `p.Data.IconURL`, Missing: "profile has no data.id",
	},
	{
		ID: "reddit", Package: "reddit", Const: "Reddit",
		Name: "Reddit", Kind: "oauth",
		Doc: `Package reddit is the built-in Reddit provider (OAuth 2.0): its
endpoints and the account record of /api/v1/me, which goes through the
default mapping (profile.FromClaims: id ← id, name ← name).

Reddit's API rules ask every client for a unique, descriptive
User-Agent and throttle generic ones, so the userinfo request sends
UserAgent. Reddit does not implement PKCE; the callback checks state.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.reddit.com/api/v1/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://www.reddit.com/api/v1/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://oauth.reddit.com/api/v1/me", Doc: "UserinfoURL answers the Profile; see Userinfo."},
			{Name: "Scope", Value: "identity", Doc: "Scope lets the token read the user's identity."},
			{Name: "UserAgent", Value: "web:gatehouse:v1 (Go; +https://github.com/gatehouse-auth/gatehouse)", Doc: "UserAgent is the User-Agent of the userinfo request."},
		},
		ProfileDoc: `Profile is the account record of GET /api/v1/me (the fields a sign-in
needs; the answer has many more).`,
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the account's id in base 36, without the t2_ prefix."},
			{"Name", "string", `json:"name"`, "Name is the user name."},
			{"IconImg", "string", `json:"icon_img,omitempty"`, "IconImg is the URL of the user's icon."},
			{"SnoovatarImg", "string", `json:"snoovatar_img,omitempty"`, "SnoovatarImg is the URL of the user's avatar, if any."},
			{"Created", "float64", `json:"created"`, "Created is the account's creation time in seconds since the epoch."},
			{"HasVerifiedEmail", "bool", `json:"has_verified_email"`, `HasVerifiedEmail is true when the account's e-mail is verified;
Reddit does not disclose the address.`},
			{"Over18", "bool", `json:"over_18"`, "Over18 is true when the user has said they are 18 or older."},
			{"TotalKarma", "int64", `json:"total_karma"`, "TotalKarma is the user's total karma."},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoRequest: "Userinfo", Checks: []string{"state"}, Style: Style{BrandColor: "#FF4500"}},
		DefaultsDoc: `Defaults returns the Reddit configuration before any user option. Its
Profile is nil: the default mapping applies.`,
		Map: "claims", Missing: "profile has no id",
	},
	{
		ID: "roblox", Package: "roblox", Const: "Roblox",
		Name: "Roblox", Kind: "oidc",
		Doc: `Package roblox is the built-in Roblox provider (OpenID Connect). The
issuer ends with a slash, as Roblox's ID tokens say it; the ID token's
claims (sub, name, nickname, preferred_username, picture) go through the
default OpenID Connect mapping. Roblox gives no e-mail address.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://apis.roblox.com/oauth/", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile", Doc: "Scope asks for an ID token with the profile claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Checks: []string{"pkce", "state"}, Style: Style{BrandColor: "#5865F2"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "salesforce", Package: "salesforce", Const: "Salesforce",
		Name: "Salesforce", Kind: "oidc",
		Doc: `Package salesforce is the built-in Salesforce provider (OpenID Connect)
for production orgs; sandboxes use the issuer https://test.salesforce.com
and My Domain orgs their own, passed as the Issuer option. The claims go
through the default OpenID Connect mapping.

Auth.js turns the ID token off for Salesforce (idToken: false) and
reads the profile from the userinfo endpoint. Gatehouse's model has no
such switch: Salesforce's ID token carries the same sub, name, email
and picture claims as its userinfo answer, so the mapping gives the
same user, and the ID token is verified.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://login.salesforce.com", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#00a1e0"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "shopify", Package: "shopify", Const: "Shopify", Gatehouse: true,
		Name: "Shopify", Kind: "oauth", IssuerRequired: true,
		Doc: `Package shopify is the built-in Shopify provider (OAuth 2.0 for a
shop's staff), which Auth.js does not have: its per-shop endpoints, the
staff member record, and the mapping of that record to a user.

Shopify's OAuth server is the shop itself, at
https://<shop>.myshopify.com/admin/oauth/…, so the provider is made for
one shop: New takes it from the Issuer option (AUTH_SHOPIFY_ISSUER, the
shop's name, its myshopify.com domain or URL), NewShop as an argument.

Who signs in: the authorization request asks for online access
(grant_options[]=per-user), whose token response names the staff member
who approved it (associated_user). That record is the profile; no API
call is made. The other candidate, the Admin API's shop.json, describes
the shop, not the person: every member of a shop's staff would sign in
as the same user, so it is not used. User ids are Shopify's user ids;
as with any provider, accounts are kept per provider id, so two shops
are two providers with two ids.

Shopify does not implement PKCE and requires a state, so the callback
checks state; the client credentials go in the token request's form
(client_secret_post). Shopify also signs its callbacks with an hmac
parameter, which this configuration does not check: the shop is fixed
and the code is only redeemed with the client secret, so state and the
exchange already bind the answer to this shop and this browser.

	p := shopify.NewShop("my-shop", providers.OAuthUserConfig[shopify.Profile]{
		ClientID:     os.Getenv("AUTH_SHOPIFY_ID"),
		ClientSecret: os.Getenv("AUTH_SHOPIFY_SECRET"),
	})`,
		Facts: []Const{
			{Name: "AuthorizationPath", Value: "/admin/oauth/authorize", Doc: "AuthorizationPath is where the staff member signs in and approves."},
			{Name: "TokenPath", Value: "/admin/oauth/access_token", Doc: "TokenPath exchanges the code for tokens (client_secret_post)."},
			{Name: "GrantOptions", Value: "per-user", Doc: `GrantOptions asks for an online access token, tied to the staff
member who approved it.`},
		},
		ProfileDoc: `Profile is the staff member an online access token belongs to (the
token response's associated_user), with the shop it is for.`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the staff member's Shopify user id."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the staff member's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the staff member's last name."},
			{"Email", "string", `json:"email"`, "Email is the staff member's e-mail address."},
			{"EmailVerified", "bool", `json:"email_verified"`, "EmailVerified is true when Shopify has verified the address."},
			{"AccountOwner", "bool", `json:"account_owner"`, "AccountOwner is true for the shop's owner."},
			{"Locale", "string", `json:"locale"`, "Locale is the staff member's locale, e.g. \"en\"."},
			{"Collaborator", "bool", `json:"collaborator"`, "Collaborator is true for a collaborator account."},
			{"Shop", "string", `json:"shop,omitempty"`, `Shop is the shop's myshopify.com domain. It is not part of
associated_user; AssociatedUser's caller fills it.`},
		},
		MapDoc: `MapProfile maps a Shopify staff member to a user: id ← id (as a
string), name ← "first_name last_name", email ← email, no image.
EmailVerified is set when email_verified is true. A profile without an
id is refused.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "simplelogin", Package: "simplelogin", Const: "SimpleLogin",
		Name: "SimpleLogin", Kind: "oidc",
		Doc: `Package simplelogin is the built-in SimpleLogin provider (OpenID
Connect): its issuer, its claims, and their mapping to a user, which
takes the picture from avatar_url.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://app.simplelogin.io", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		ProfileDoc: `Profile is SimpleLogin's claims. The e-mail address may be a
SimpleLogin alias of the user's real address.`,
		Profile: []Field{
			{"Sub", "string", `json:"sub"`, "Sub is the user's unique id."},
			{"Name", "string", `json:"name"`, "Name is the user's name."},
			{"Email", "string", `json:"email"`, "Email is the address the user chose to share (often an alias)."},
			{"EmailVerified", "bool", `json:"email_verified"`, "EmailVerified is true: SimpleLogin verifies its users' addresses."},
			{"AvatarURL", "string", `json:"avatar_url"`, "AvatarURL is the user's avatar, if any."},
			{"Client", "string", `json:"client"`, "Client is the name of the application the user signed in to."},
		},
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#e3156a"}},
		MapDoc: `MapProfile maps SimpleLogin's claims to a user: id ← sub, name ← name,
email ← email, image ← avatar_url. EmailVerified is set when
email_verified is true, as the default OpenID Connect mapping does.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "slack", Package: "slack", Const: "Slack",
		Name: "Slack", Kind: "oidc",
		Doc: `Package slack is the built-in Sign in with Slack provider (OpenID
Connect). The callback checks the ID token's nonce only, as Auth.js's
configuration does; the ID token's claims go through the default OpenID
Connect mapping (sub is the Slack user id).`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://slack.com", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Checks: []string{"nonce"}, Style: Style{BrandColor: "#611f69"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "spotify", Package: "spotify", Const: "Spotify",
		Name: "Spotify", Kind: "oauth",
		Doc: `Package spotify is the built-in Spotify provider (OAuth 2.0): its
endpoints, the current user's profile record, and the mapping of that
record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://accounts.spotify.com/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://accounts.spotify.com/api/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.spotify.com/v1/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "user-read-email", Doc: "Scope lets the token read the user's e-mail address."},
		},
		ProfileDoc: "Profile is the answer of GET /v1/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's Spotify user id."},
			{"DisplayName", "string", `json:"display_name"`, "DisplayName is the name shown on the profile; null when unset."},
			{"Email", "string", `json:"email"`, `Email is the e-mail address on the account, which Spotify does not
necessarily verify.`},
			{"Images", "[]Image", `json:"images"`, "Images are the profile images, largest first."},
			{"Country", "string", `json:"country,omitempty"`, "Country is an ISO 3166-1 alpha-2 code (needs user-read-private)."},
			{"Product", "string", `json:"product,omitempty"`, "Product is the subscription level (needs user-read-private)."},
			{"URI", "string", `json:"uri"`, "URI is the user's Spotify URI."},
			{"Href", "string", `json:"href"`, "Href is the Web API endpoint for the user."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#1db954"}},
		MapDoc: `MapProfile maps a Spotify user to a user: id ← id, name ← display_name,
email ← email, image ← the first of images, if any.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "strava", Package: "strava", Const: "Strava",
		Name: "Strava", Kind: "oauth",
		Doc: `Package strava is the built-in Strava provider (OAuth 2.0): its
endpoints, the athlete record, and the mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.strava.com/api/v3/oauth/authorize", Doc: "AuthorizationURL is where the athlete signs in and consents."},
			{Name: "TokenURL", Value: "https://www.strava.com/api/v3/oauth/token", Doc: `TokenURL exchanges the code for tokens, with the client credentials
in the form (client_secret_post).`},
			{Name: "UserinfoURL", Value: "https://www.strava.com/api/v3/athlete", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "read", Doc: "Scope lets the token read public data."},
		},
		ProfileDoc: `Profile is the athlete record of GET /api/v3/athlete. The token
response also carries a summary of it, as athlete.`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the athlete's numeric id."},
			{"Username", "string", `json:"username"`, "Username is the athlete's user name, if set."},
			{"Firstname", "string", `json:"firstname"`, "Firstname is the athlete's first name."},
			{"Lastname", "string", `json:"lastname"`, "Lastname is the athlete's last name."},
			{"Bio", "string", `json:"bio,omitempty"`, "Bio is the athlete's description."},
			{"City", "string", `json:"city,omitempty"`, "City is the athlete's city."},
			{"State", "string", `json:"state,omitempty"`, "State is the athlete's state or region."},
			{"Country", "string", `json:"country,omitempty"`, "Country is the athlete's country."},
			{"Sex", "string", `json:"sex,omitempty"`, "Sex is \"M\", \"F\" or empty."},
			{"Premium", "bool", `json:"premium"`, "Premium is true for a subscriber."},
			{"Summit", "bool", `json:"summit"`, "Summit is true for a subscriber (Strava's newer name)."},
			{"CreatedAt", "string", `json:"created_at"`, "CreatedAt is when the account was created (RFC 3339)."},
			{"UpdatedAt", "string", `json:"updated_at"`, "UpdatedAt is the account's last change (RFC 3339)."},
			{"ProfileMedium", "string", `json:"profile_medium"`, "ProfileMedium is the 62×62 picture."},
			{"Profile", "string", `json:"profile"`, "Profile is the 124×124 picture."},
		},
		Defaults: &Defaults{AuthParams: []Param{{"scope", `Scope`}, {"approval_prompt", `"auto"`}, {"response_type", `"code"`}}, AuthMethod: "client_secret_post"},
		DefaultsDoc: `Defaults returns the Strava configuration before any user option:
besides the scope, approval_prompt=auto (no consent screen for an
athlete who has already consented) and response_type=code.`,
		MapDoc: `MapProfile maps a Strava athlete to a user: id ← id (a number, as a
string), name ← "firstname lastname", no e-mail (Strava does not give
it), image ← profile. A profile without an id is refused.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `profile.FullName(p.Firstname, p.Lastname)`, MapImage: `p.Profile`, Missing: "profile has no id",
	},
	{
		ID: "tailscale", Package: "tailscale", Const: "Tailscale", Gatehouse: true,
		Name: "Tailscale", Kind: "oidc", IssuerRequired: true,
		Doc: `Package tailscale is the built-in provider for Tailscale's identity
provider, tsidp (OpenID Connect): the self-hosted service that signs in
the tailnet's users. The issuer is the URL tsidp is served at, e.g.
https://idp.<tailnet>.ts.net.

The issuer has no default: set Issuer (or AUTH_TAILSCALE_ISSUER for
builtin.FromEnv), e.g. https://idp.example.ts.net.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{},
		NewDoc: `New returns the Tailscale configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "threads", Package: "threads", Const: "Threads",
		Name: "Threads", Kind: "oauth",
		Doc: `Package threads is the built-in Threads provider (OAuth 2.0, Meta's
Threads API): its endpoints, the user record, and the mapping of that
record to a user.

Auth.js maps data.id, data.username and so on, as if the answer were
wrapped in a data member; the Threads API's /me answers the fields at
the top level, so here the mapping reads them there.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://threads.net/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://graph.threads.net/oauth/access_token", Doc: `TokenURL exchanges the code for tokens, with the client credentials
in the form (client_secret_post).`},
			{Name: "UserinfoURL", Value: "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "threads_basic", Doc: "Scope grants the user's basic profile."},
		},
		ProfileDoc: `Profile is the answer of GET /v1.0/me with the fields UserinfoURL asks
for.`,
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's Threads id."},
			{"Username", "string", `json:"username"`, "Username is the user's handle."},
			{"ThreadsProfilePictureURL", "string", `json:"threads_profile_picture_url"`, "ThreadsProfilePictureURL is the user's picture."},
			{"ThreadsBiography", "string", `json:"threads_biography,omitempty"`, "ThreadsBiography is the user's biography (when asked for)."},
		},
		Defaults: &Defaults{ScopeParam: "scope", AuthMethod: "client_secret_post", Checks: []string{"state"}, Style: Style{BrandColor: "#000"}},
		DefaultsDoc: `Defaults returns the Threads configuration before any user option. The
callback checks state.`,
		MapDoc: `MapProfile maps a Threads user to a user: id ← id, name ← username, no
e-mail (Threads does not give it), image ← threads_profile_picture_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.Username`, MapImage: `p.ThreadsProfilePictureURL`, Missing: "profile has no id",
	},
	{
		ID: "tiktok", Package: "tiktok", Const: "TikTok",
		Name: "TikTok", Kind: "oauth",
		Doc: `Package tiktok is the built-in TikTok provider (OAuth 2.0, Login Kit
v2): its endpoints, the user info record, and the mapping of that record
to a user.

TikTok calls the client id the client key and wants it under that name:
as the client_key parameter of the authorization request and of the
token request's form (the client credentials go in the form,
client_secret_post). Both come from opts.ClientID, so New must be given
the client id (the builtin registry does).

	p := tiktok.New(providers.OAuthUserConfig[tiktok.Profile]{
		ClientID:     os.Getenv("AUTH_TIKTOK_ID"), // the client key
		ClientSecret: os.Getenv("AUTH_TIKTOK_SECRET"),
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://www.tiktok.com/v2/auth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://open.tiktokapis.com/v2/oauth/token/", Doc: `TokenURL exchanges the code for tokens (client_secret_post, plus
client_key).`},
			{Name: "UserinfoURL", Value: "https://open.tiktokapis.com/v2/user/info/?fields=open_id,avatar_url,display_name", Doc: `UserinfoURL answers the Profile to a Bearer GET, with the fields
user.info.basic grants.`},
			{Name: "Scope", Value: "user.info.basic", Doc: "Scope grants the user's open id, avatar and display name."},
		},
		ProfileDoc: `Profile is the answer of GET /v2/user/info/: the user in data.user and
the outcome in error.`,
		Profile: []Field{
			{"Data", "struct {\n\t// User is the TikTok user; which fields are present depends on\n\t// the fields query parameter and the granted scopes.\n\tUser User `json:\"user\"`\n}", `json:"data"`, "Data holds the user."},
			{"Error", "Error", `json:"error"`, "Error is the outcome; its code is \"ok\" on success."},
		},
		MapDoc: `MapProfile maps a TikTok user to a user: id ← data.user.open_id, name ←
data.user.display_name, no e-mail (TikTok does not give it), image ←
data.user.avatar_url. An answer whose error code is not "ok" is an
error.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "todoist", Package: "todoist", Const: "Todoist",
		Name: "Todoist", Kind: "oauth",
		Doc: `Package todoist is the built-in Todoist provider (OAuth 2.0): its
endpoints, the user record of the Sync API, and the mapping of that
record to a user.

Todoist has no userinfo endpoint: the user record comes from a Sync API
POST asking for the user resource only (see Userinfo). Auth.js
configures that request without a userinfo URL, which its own
configuration check then rejects; here UserinfoURL is set, so the
configuration is complete and the URL can be overridden. Todoist
requires a state on the authorization request and does not implement
PKCE, so the callback checks state.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://todoist.com/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://todoist.com/oauth/access_token", Doc: `TokenURL exchanges the code for tokens, with the client credentials
in the form (client_secret_post).`},
			{Name: "UserinfoURL", Value: "https://api.todoist.com/sync/v9/sync", Doc: `UserinfoURL is the Sync API endpoint the user record is read from;
see Userinfo.`},
			{Name: "Scope", Value: "data:read", Doc: "Scope lets the token read the user's data."},
		},
		ProfileDoc: "Profile is the Sync API's user resource.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id (a string of digits)."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"FullName", "string", `json:"full_name"`, "FullName is the user's name."},
			{"AvatarBig", "string", `json:"avatar_big,omitempty"`, "AvatarBig is the large avatar (195×195)."},
			{"AvatarMedium", "string", `json:"avatar_medium,omitempty"`, "AvatarMedium is the medium avatar (60×60)."},
			{"AvatarS640", "string", `json:"avatar_s640,omitempty"`, "AvatarS640 is the 640×640 avatar."},
			{"AvatarSmall", "string", `json:"avatar_small,omitempty"`, "AvatarSmall is the small avatar (35×35)."},
			{"Lang", "string", `json:"lang,omitempty"`, "Lang is the user's language, e.g. \"en\"."},
			{"IsPremium", "bool", `json:"is_premium"`, "IsPremium is true for a Pro user."},
			{"JoinedAt", "string", `json:"joined_at,omitempty"`, "JoinedAt is when the account was created (RFC 3339)."},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoRequest: "Userinfo", AuthMethod: "client_secret_post", Checks: []string{"state"}, Style: Style{BrandColor: "#E44332"}},
		MapDoc: `MapProfile maps a Todoist user to a user: id ← id, name ← full_name,
email ← email, image ← avatar_big.`,
		Map: "fields", MapID: `p.ID`, MapName: `p.FullName`, MapEmail: `p.Email`, MapImage: `p.AvatarBig`, Missing: "profile has no id",
	},
	{
		ID: "trakt", Package: "trakt", Const: "Trakt",
		Name: "Trakt", Kind: "oauth",
		Doc: `Package trakt is the built-in Trakt provider (OAuth 2.0): its endpoints,
the user settings record, and the mapping of that record to a user.

Every Trakt API request names the API version and the application
(trakt-api-version: 2, trakt-api-key: the client id), so the userinfo
request is a handler that sends those headers.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://trakt.tv/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://api.trakt.tv/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.trakt.tv/users/me?extended=full", Doc: "UserinfoURL answers the Profile; see Userinfo."},
			{Name: "APIVersion", Value: "2", Doc: "APIVersion is the trakt-api-version header's value."},
		},
		ProfileDoc: "Profile is the answer of GET /users/me?extended=full.",
		Profile: []Field{
			{"Username", "string", `json:"username"`, "Username is the user's name."},
			{"Private", "bool", `json:"private"`, "Private is true for a private profile."},
			{"Name", "string", `json:"name"`, "Name is the user's full name."},
			{"VIP", "bool", `json:"vip"`, "VIP is true for a VIP member."},
			{"VIPEP", "bool", `json:"vip_ep"`, "VIPEP is true for a VIP executive producer."},
			{"IDs", "IDs", `json:"ids"`, "IDs are the user's ids."},
			{"JoinedAt", "string", `json:"joined_at,omitempty"`, "JoinedAt is when the account was created (RFC 3339)."},
			{"Location", "string", `json:"location,omitempty"`, "Location is the user's location."},
			{"About", "string", `json:"about,omitempty"`, "About is the user's description."},
			{"Gender", "string", `json:"gender,omitempty"`, "Gender is the user's gender."},
			{"Age", "int", `json:"age,omitempty"`, "Age is the user's age."},
			{"Images", "Images", `json:"images"`, "Images holds the user's avatar."},
		},
		Defaults: &Defaults{ScopeParam: "empty", UserinfoRequest: "Userinfo", Style: Style{BrandColor: "#ED2224"}},
		DefaultsDoc: `Defaults returns the Trakt configuration before any user option. The
scope parameter is sent empty: Trakt has no scopes.`,
		MapDoc: `MapProfile maps a Trakt user to a user: id ← ids.slug, name ← name, no
e-mail (Trakt does not give it), image ← images.avatar.full.`,
		Map: "fields", MapID: `p.IDs.Slug`, MapName: `p.Name`, MapImage: `p.Images.Avatar.Full`, Missing: "profile has no id",
	},
	{
		ID: "twitch", Package: "twitch", Const: "Twitch",
		Name: "Twitch", Kind: "oidc",
		Doc: `Package twitch is the built-in Twitch provider (OpenID Connect). The
authorization request asks, through the claims parameter, for the
e-mail address, picture and preferred_username in the ID token; the
default OpenID Connect mapping then takes the name from
preferred_username (Twitch sends no name claim).

Twitch's token endpoint wants the client credentials in the form
(client_secret_post). Auth.js also rewrites Twitch's token answers: it
joins a scope array into a string and renames the members of error
bodies. The first is not needed here, as account.TokenSet ignores a
scope that is not a string; the second is the flow's business, since
Twitch answers errors with {status, message} instead of RFC 6749's
{error, error_description}.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://id.twitch.tv/oauth2", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid user:read:email", Doc: "Scope asks for an ID token and the user's e-mail address."},
			{Name: "Claims", Expr: "`{\"id_token\":{\"email\":null,\"picture\":null,\"preferred_username\":null}}`", Doc: `Claims is the claims request parameter (OpenID Connect Core §5.5):
the ID token claims to include.`},
		},
		ProfileDoc: `Profile is the ID token's claims: sub, preferred_username, email,
email_verified and picture.`,
		Claims:   true,
		Defaults: &Defaults{Issuer: true, AuthParams: []Param{{"claims", `Claims`}}, AuthMethod: "client_secret_post", Style: Style{BrandColor: "#65459B"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "twitter", Package: "twitter", Const: "Twitter",
		Name: "Twitter", Kind: "oauth",
		Doc: `Package twitter is the built-in X (formerly Twitter) provider: OAuth 2.0
with PKCE and state, profile from the v2 API's users/me. The id stays
"twitter", as in Auth.js. OAuth 1.0a is not supported.`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://x.com/i/oauth2/authorize"},
			{Name: "TokenURL", Value: "https://api.x.com/2/oauth2/token"},
			{Name: "UserinfoURL", Value: "https://api.x.com/2/users/me?user.fields=profile_image_url", Doc: `UserinfoURL asks users/me for the profile image besides id, name
and username.`},
			{Name: "Scope", Value: "users.read tweet.read offline.access", Doc: `Scope reads the user (users.read needs tweet.read) and asks for a
refresh token (offline.access).`},
		},
		ProfileDoc: "Profile is the answer of users/me: the user under \"data\".",
		Profile: []Field{
			{"Data", "User", `json:"data"`, ""},
		},
		Defaults: &Defaults{ScopeParam: "scope", Checks: []string{"pkce", "state"}, Style: Style{BrandColor: "#1da1f2"}},
		NewDoc: `New returns the X configuration with opts laid over its defaults by
providers.Merge.`,
		MapDoc: `MapProfile is the default mapping: id ← data.id; name ← data.name;
email ← data.email; image ← data.profile_image_url.`,
		Map: "fields", MapID: `p.Data.ID`, MapName: `p.Data.Name`, MapEmail: `p.Data.Email`, MapImage: `p.Data.ProfileImageURL`, Missing: "users/me answered no data.id",
	},
	{
		ID: "united-effects", Package: "unitedeffects", Const: "UnitedEffects",
		Name: "United Effects", Kind: "oidc", IssuerRequired: true,
		Doc: `Package unitedeffects is the built-in United Effects provider (OpenID
Connect). The endpoints come from discovery of the issuer the
application supplies (AUTH_UNITED_EFFECTS_ISSUER), of the form
https://auth.unitedeffects.com/<authGroupId>. The authorization request
names that issuer as the resource (RFC 8707) the token is for. The ID
token's claims go through the default OpenID Connect mapping.`,
		Example: true,
		Facts: []Const{
			{Name: "Scope", Value: "openid email profile", Doc: "Scope asks for an ID token with the e-mail and profile claims."},
		},
		Claims: true,
		Map:    "claims", Missing: "claims have no sub",
	},
	{
		ID: "vipps", Package: "vipps", Const: "Vipps",
		Name: "Vipps", Kind: "oidc",
		Doc: `Package vipps is the built-in Vipps MobilePay login provider (OpenID
Connect) for production; the test environment's issuer is
https://apitest.vipps.no/access-management-1.0/access/, passed as the
Issuer option. The callback checks pkce, state and nonce (the default).

Auth.js turns the ID token off for Vipps (idToken: false) and reads the
profile from the userinfo endpoint, because Vipps puts the name and
e-mail address only there. Gatehouse's model has no such switch: the
name and e-mail address reach the mapping only from the userinfo answer.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://api.vipps.no/access-management-1.0/access/", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid name email", Doc: "Scope asks for an ID token and the user's name and e-mail address."},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#f05c18"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "vk", Package: "vk", Const: "VK",
		Name: "VK", Kind: "oauth",
		Doc: `Package vk is the built-in VK provider (OAuth 2.0 at oauth.vk.com, VK
API version 5.131): its endpoints, the user record of users.get, and the
mapping of that record to a user.

VK gives the e-mail address in the token response (email), not in the
user record, so MapProfile reads it from the token set. users.get
answers a list, and errors with status 200, so the userinfo request is a
handler that takes response[0] and turns an error member into an error.

Auth.js's table lists PKCE as VK's check, which oauth.vk.com does not
implement (later Auth.js versions switched all checks off); PKCE that
the server ignores protects nothing, so here the callback checks state.`,
		Example: true,
		Facts: []Const{
			{Name: "APIVersion", Value: "5.131", Doc: "APIVersion is the VK API version every URL names."},
			{Name: "AuthorizationURL", Expr: `"https://oauth.vk.com/authorize?v=" + APIVersion`, Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Expr: `"https://oauth.vk.com/access_token?v=" + APIVersion`, Doc: `TokenURL exchanges the code for tokens, with the client credentials
in the form (client_secret_post).`},
			{Name: "UserinfoURL", Expr: `"https://api.vk.com/method/users.get?fields=photo_100&v=" + APIVersion`, Doc: `UserinfoURL is users.get for the token's user, with photo_100; see
Userinfo.`},
			{Name: "Scope", Value: "email", Doc: "Scope asks for the user's e-mail address."},
		},
		ProfileDoc: `Profile is a VK user object (the fields a sign-in needs), with the
e-mail address, which VK gives only in the token response.`,
		Profile: []Field{
			{"ID", "int64", `json:"id"`, "ID is the user's numeric id."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the user's last name."},
			{"Photo100", "string", `json:"photo_100"`, "Photo100 is the user's square 100-pixel photo."},
			{"ScreenName", "string", `json:"screen_name,omitempty"`, "ScreenName is the user's short address, if asked for."},
			{"CanAccessClosed", "bool", `json:"can_access_closed"`, "CanAccessClosed is true when the token may see a closed profile."},
			{"IsClosed", "bool", `json:"is_closed"`, "IsClosed is true for a closed (private) profile."},
			{"Deactivated", "string", `json:"deactivated,omitempty"`, "Deactivated is \"deleted\" or \"banned\" for such a profile."},
			{"Email", "string", `json:"email,omitempty"`, `Email is empty in users.get answers: MapProfile takes the address
from the token response. A custom userinfo handler may fill it.`},
		},
		Defaults: &Defaults{ScopeParam: "scope", UserinfoRequest: "Userinfo", AuthMethod: "client_secret_post", Checks: []string{"state"}, Style: Style{BrandColor: "#07F"}},
		MapDoc: `MapProfile maps a VK user to a user: id ← id (as a string), name ←
"first_name last_name", email ← the token response's email (or the
profile's, when set), image ← photo_100. A profile without an id is
refused.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "webex", Package: "webex", Const: "Webex",
		Name: "Webex", Kind: "oauth",
		Doc: `Package webex is the built-in Webex provider (OAuth 2.0): its endpoints
under the Webex API base URL, the person record, and the mapping of that
record to a user. For another API base (e.g. a FedRAMP deployment), use
NewAPI.`,
		Example: true,
		Facts: []Const{
			{Name: "APIBaseURL", Value: "https://webexapis.com/v1", Doc: "APIBaseURL is the default API base URL."},
			{Name: "AuthorizationPath", Value: "/authorize", Doc: "AuthorizationPath is where the user signs in and consents."},
			{Name: "TokenPath", Value: "/access_token", Doc: "TokenPath exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoPath", Value: "/people/me", Doc: "UserinfoPath answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "spark:kms spark:people_read", Doc: `Scope lets the token read the user's person record; spark:kms lets
it use Webex's key management, which Webex asks integrations for.`},
		},
		ProfileDoc: "Profile is the Person record of GET /people/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the person's unique id."},
			{"Emails", "[]string", `json:"emails"`, "Emails are the person's e-mail addresses."},
			{"DisplayName", "string", `json:"displayName"`, "DisplayName is the person's full name."},
			{"NickName", "string", `json:"nickName,omitempty"`, "NickName is the person's nickname."},
			{"FirstName", "string", `json:"firstName,omitempty"`, "FirstName is the person's first name."},
			{"LastName", "string", `json:"lastName,omitempty"`, "LastName is the person's last name."},
			{"Avatar", "string", `json:"avatar,omitempty"`, "Avatar is the URL of the person's picture."},
			{"OrgID", "string", `json:"orgId"`, "OrgID is the person's organization."},
			{"Type", "string", `json:"type"`, "Type is \"person\", \"bot\" or \"appuser\"."},
			{"Created", "string", `json:"created,omitempty"`, "Created is when the person was created (RFC 3339)."},
			{"Status", "string", `json:"status,omitempty"`, "Status is the person's presence, e.g. \"active\"."},
		},
		MapDoc: `MapProfile maps a Webex person to a user: id ← id, name ← displayName,
email ← the first of emails, image ← avatar.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "wechat", Package: "wechat", Const: "WeChat",
		Name: "WeChat", Kind: "oauth",
		Doc: `Package wechat is the built-in WeChat provider (OAuth 2.0 as WeChat runs
it): its endpoints, the user info record, and the mapping of that record
to a user.

WeChat departs from OAuth 2.0 in ways that need handlers:

  - The client id is called appid, and the authorization request must
    carry it under that name, so New must be given the client id.
  - The token request is a GET whose query holds appid, secret, code
    and grant_type; the answer has no token_type, names the user
    (openid, and unionid when the app is bound to a WeChat Open
    Platform account), and reports errors with status 200 and an
    errcode. Exchange does that request.
  - The user info request takes access_token, openid and lang in its
    query, not a Bearer header. Userinfo does that request.

There are two kinds of WeChat login: inside the WeChat app for an
Official Account (New, scope snsapi_userinfo) and by QR code on a web
site (NewWebsiteApp, scope snsapi_login). The callback checks state.

Auth.js maps the user's id from unionid alone, which is absent unless
the app is bound to an Open Platform account; here the id is unionid
when WeChat sends it and openid otherwise. An app that is bound later
sees its users' ids change from openid to unionid: bind first.

	p := wechat.New(providers.OAuthUserConfig[wechat.Profile]{
		ClientID:     os.Getenv("AUTH_WECHAT_ID"), // the AppID
		ClientSecret: os.Getenv("AUTH_WECHAT_SECRET"),
	})`,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://open.weixin.qq.com/connect/oauth2/authorize", Doc: `AuthorizationURL is where a user inside WeChat consents (Official
Account web pages).`},
			{Name: "QRConnectURL", Value: "https://open.weixin.qq.com/connect/qrconnect", Doc: `QRConnectURL is where a web site's user scans a QR code (Website
App).`},
			{Name: "TokenURL", Value: "https://api.weixin.qq.com/sns/oauth2/access_token", Doc: "TokenURL exchanges the code for tokens; see Exchange."},
			{Name: "UserinfoURL", Value: "https://api.weixin.qq.com/sns/userinfo", Doc: "UserinfoURL answers the Profile; see Userinfo."},
			{Name: "Scope", Value: "snsapi_userinfo", Doc: "Scope asks an Official Account's user for their profile."},
			{Name: "WebsiteAppScope", Value: "snsapi_login", Doc: "WebsiteAppScope is the scope of QR code login."},
		},
		ProfileDoc: "Profile is the answer of GET /sns/userinfo.",
		Profile: []Field{
			{"OpenID", "string", `json:"openid"`, "OpenID is the user's id for this app."},
			{"Nickname", "string", `json:"nickname"`, "Nickname is the user's nickname."},
			{"Sex", "int", `json:"sex"`, "Sex is 1 for male, 2 for female, 0 when unknown."},
			{"Province", "string", `json:"province"`, "Province is the user's province."},
			{"City", "string", `json:"city"`, "City is the user's city."},
			{"Country", "string", `json:"country"`, "Country is the user's country."},
			{"HeadImgURL", "string", `json:"headimgurl"`, "HeadImgURL is the user's avatar; empty when the user has none."},
			{"Privilege", "[]string", `json:"privilege"`, "Privilege lists the user's privileges, e.g. \"chinaunicom\"."},
			{"UnionID", "string", `json:"unionid,omitempty"`, `UnionID is the user's id across the apps of one Open Platform
account; absent when the app is not bound to one.`},
		},
		MapDoc: `MapProfile maps a WeChat user to a user: id ← unionid, else openid;
name ← nickname; no e-mail (WeChat does not give it); image ←
headimgurl.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "wikimedia", Package: "wikimedia", Const: "Wikimedia",
		Name: "Wikimedia", Kind: "oauth",
		Doc: `Package wikimedia is the built-in Wikimedia provider (OAuth 2.0 on
meta.wikimedia.org, for Wikipedia and its sister projects): its
endpoints, the profile record, and the mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of the oauth2/resource/profile endpoint.",
		Profile: []Field{
			{"Sub", "json.Number", `json:"sub"`, "Sub is the user's central (global) account id."},
			{"Username", "string", `json:"username"`, "Username is the user's name."},
			{"EditCount", "int64", `json:"editcount"`, "EditCount is the user's number of edits."},
			{"ConfirmedEmail", "bool", `json:"confirmed_email"`, "ConfirmedEmail is true when the user's address is confirmed."},
			{"Blocked", "bool", `json:"blocked"`, "Blocked is true when the user is blocked."},
			{"Registered", "string", `json:"registered"`, "Registered is the registration time, YYYYMMDDHHMMSS."},
			{"Groups", "[]string", `json:"groups"`, "Groups are the user's groups, e.g. \"*\", \"user\", \"autoconfirmed\"."},
			{"Rights", "[]string", `json:"rights"`, "Rights are the user's rights."},
			{"RealName", "string", `json:"realname,omitempty"`, "RealName is the user's real name, when the client may see it."},
			{"Email", "string", `json:"email,omitempty"`, "Email is the user's address, when the client may see it."},
		},
		Defaults: &Defaults{ScopeParam: "empty", Style: Style{BrandColor: "#000"}},
		DefaultsDoc: `Defaults returns the Wikimedia configuration before any user option. The
scope parameter is sent empty: a Wikimedia OAuth consumer's grants are
fixed when it is registered.`,
		MapDoc: `MapProfile maps a Wikimedia profile to a user: id ← sub, name ←
username, email ← email, no image.`,
		Map: "fields", MapID: `p.Sub.String()`, MapName: `p.Username`, MapEmail: `p.Email`, Missing: "profile has no id",
	},
	{
		ID: "wordpress", Package: "wordpress", Const: "WordPress",
		Name: "WordPress.com", Kind: "oauth",
		Doc: `Package wordpress is the built-in WordPress.com provider (OAuth 2.0):
its endpoints, the /me record of the WordPress.com REST API, and the
mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://public-api.wordpress.com/oauth2/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://public-api.wordpress.com/oauth2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://public-api.wordpress.com/rest/v1/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "auth", Doc: "Scope is the authentication-only scope: it reads the user's profile."},
		},
		ProfileDoc: "Profile is the answer of GET /rest/v1/me.",
		Profile: []Field{
			{"ID", "int64", `json:"ID"`, "ID is the user's numeric id."},
			{"DisplayName", "string", `json:"display_name"`, "DisplayName is the user's display name."},
			{"Username", "string", `json:"username"`, "Username is the user's login."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"EmailVerified", "bool", `json:"email_verified"`, "EmailVerified is WordPress.com's flag for a verified address."},
			{"PrimaryBlog", "int64", `json:"primary_blog"`, "PrimaryBlog is the id of the user's primary site."},
			{"Language", "string", `json:"language"`, "Language is the user's language, e.g. \"en\"."},
			{"AvatarURL", "string", `json:"avatar_URL"`, "AvatarURL is the user's Gravatar."},
			{"ProfileURL", "string", `json:"profile_URL"`, "ProfileURL is the user's public profile page."},
			{"SiteCount", "int64", `json:"site_count"`, "SiteCount is the number of sites the user belongs to."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		MapDoc: `MapProfile maps a WordPress.com user to a user: id ← ID (as a string),
name ← display_name, email ← email, image ← avatar_URL. A profile
without an ID is refused.`,
		Map: "fields", MapID: `providers.FormatID(p.ID)`, MapName: `p.DisplayName`, MapEmail: `p.Email`, MapImage: `p.AvatarURL`, Missing: "profile has no ID",
	},
	{
		ID: "workos", Package: "workos", Const: "WorkOS",
		Name: "WorkOS", Kind: "oauth",
		Doc: `Package workos is the built-in WorkOS provider (OAuth 2.0 for WorkOS
SSO): its endpoints, the SSO profile record, and the mapping of that
record to a user.

WorkOS needs to know which connection to sign in with: set one of the
connection, organization or provider authorization parameters, in
Authorization.Params or per sign-in. The endpoints are under
https://api.workos.com/; a WorkOS custom authentication domain can be
given as the Issuer option instead.

	p := workos.New(providers.OAuthUserConfig[workos.Profile]{
		ClientID:     os.Getenv("AUTH_WORKOS_ID"),
		ClientSecret: os.Getenv("AUTH_WORKOS_SECRET"),
		Authorization: providers.AuthorizationEndpoint{
			Params: map[string]string{"connection": "conn_01E4ZCR3C56J083X43JQXF3JK5"},
		},
	})`,
		Facts: []Const{
			{Name: "BaseURL", Value: "https://api.workos.com", Doc: "BaseURL is the default base URL of WorkOS's API."},
			{Name: "AuthorizationPath", Value: "/sso/authorize", Doc: `AuthorizationPath is where the user is sent to their identity
provider.`},
			{Name: "TokenPath", Value: "/sso/token", Doc: `TokenPath exchanges the code for tokens, with the client credentials
in the form (client_secret_post).`},
			{Name: "UserinfoPath", Value: "/sso/profile", Doc: "UserinfoPath answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is a WorkOS SSO profile.",
		Profile: []Field{
			{"Object", "string", `json:"object"`, "Object is \"profile\"."},
			{"ID", "string", `json:"id"`, "ID is the profile's unique id, \"prof_…\"."},
			{"IDPID", "string", `json:"idp_id"`, "IDPID is the user's id at the identity provider."},
			{"ConnectionID", "string", `json:"connection_id"`, "ConnectionID is the connection signed in with, \"conn_…\"."},
			{"ConnectionType", "string", `json:"connection_type"`, "ConnectionType is the kind of connection, e.g. \"OktaSAML\"."},
			{"OrganizationID", "string", `json:"organization_id"`, "OrganizationID is the user's organization, \"org_…\"."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the user's last name."},
			{"RawAttributes", "map[string]any", `json:"raw_attributes,omitempty"`, "RawAttributes are the identity provider's own attributes."},
		},
		MapDoc: `MapProfile maps a WorkOS profile to a user: id ← id, name ← "first_name
last_name", email ← email, image ← raw_attributes.picture when it is a
string.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "yahoo", Package: "yahoo", Const: "Yahoo", Gatehouse: true,
		Name: "Yahoo", Kind: "oidc",
		Doc: `Package yahoo is the built-in Yahoo provider (OpenID Connect), which
Auth.js does not have. Its ID token's claims go through the default
OpenID Connect mapping. The button uses Yahoo's brand purple.`,
		Example: true,
		Facts: []Const{
			{Name: "Issuer", Value: "https://api.login.yahoo.com", Doc: `Issuer is the issuer identifier; the endpoints come from its
discovery document.`},
			{Name: "Scope", Value: "openid profile email", Doc: "Scope asks for an ID token with the profile and e-mail claims."},
		},
		Claims:   true,
		Defaults: &Defaults{Issuer: true, Style: Style{BrandColor: "#6001d2"}},
		Map:      "claims", Missing: "claims have no sub",
	},
	{
		ID: "yandex", Package: "yandex", Const: "Yandex",
		Name: "Yandex", Kind: "oauth",
		Doc: `Package yandex is the built-in Yandex ID provider (OAuth 2.0): its
endpoints, its profile record (the answer of its userinfo endpoint) and the
mapping of that profile to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://oauth.yandex.ru/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://oauth.yandex.ru/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://login.yandex.ru/info?format=json", Doc: "UserinfoURL answers the Profile as JSON to a Bearer GET."},
			{Name: "Scope", Value: "login:info login:email login:avatar", Doc: "Scope asks for the login, the e-mail addresses and the avatar."},
			{Name: "AvatarBaseURL", Value: "https://avatars.yandex.net/get-yapic", Doc: "AvatarBaseURL is the base of avatar URLs: AvatarBaseURL/<id>/<size>."},
		},
		ProfileDoc: `Profile is the answer of the Yandex userinfo endpoint. Which
fields are present depends on the access the user granted: basic
information, e-mail address, avatar, birthday, name and sex, phone.`,
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's unique id at Yandex."},
			{"Login", "string", `json:"login"`, "Login is the user's Yandex login."},
			{"ClientID", "string", `json:"client_id"`, "ClientID is the id of the application the token was issued to."},
			{"PSUID", "string", `json:"psuid"`, "PSUID is the user's id as Yandex forms it for this client_id."},
			{"Birthday", "*string", `json:"birthday"`, `Birthday is YYYY-MM-DD, with unknown parts as zeros (0000-MM-DD); nil
when absent or null (unknown). See BirthDate.`},
			{"DefaultAvatarID", "string", `json:"default_avatar_id,omitempty"`, "DefaultAvatarID is the id of the profile picture; see AvatarURL."},
			{"IsAvatarEmpty", "bool", `json:"is_avatar_empty,omitempty"`, `IsAvatarEmpty is true when DefaultAvatarID is the automatically
assigned stub picture.`},
			{"DefaultEmail", "string", `json:"default_email,omitempty"`, "DefaultEmail is the default contact e-mail address."},
			{"Emails", "[]string", `json:"emails,omitempty"`, "Emails are the user's addresses (currently only the default one)."},
			{"DefaultPhone", "*Phone", `json:"default_phone,omitempty"`, `DefaultPhone is the default contact phone number; Yandex may leave it
out at its discretion.`},
			{"DisplayName", "string", `json:"display_name,omitempty"`, "DisplayName is the name the user chose to show."},
			{"FirstName", "string", `json:"first_name,omitempty"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name,omitempty"`, "LastName is the user's last name."},
			{"RealName", "string", `json:"real_name,omitempty"`, "RealName is the first and last name as entered in Yandex ID."},
			{"Sex", "Sex", `json:"sex,omitzero"`, "Sex is female, male, null (unknown) or absent; see Sex.Kind."},
		},
		Defaults: &Defaults{ScopeParam: "scope", Style: Style{BrandColor: "#ffcc00"}},
		NewDoc: `New returns the Yandex provider configuration with opts laid over its
defaults by providers.Merge: every set option replaces the default, and
the type stays "oauth".`,
		DefaultsDoc: `Defaults returns the Yandex configuration before any user option: the
endpoints, the scope, the default checks (pkce), MapProfile and the
button style.`,
		MapDoc: `MapProfile is the default mapping of a Yandex profile to a user:

  - id ← id;
  - name ← display_name, else real_name, else first_name;
  - email ← default_email, else the first of emails;
  - image ← the islands-200 avatar URL, unless the avatar is the stub
    (is_avatar_empty) or there is no default_avatar_id.

Yandex does not say whether an address is verified, so EmailVerified is
left nil.`,
		Map: "hook", Missing: "profile has no id",
	},
	{
		ID: "zitadel", Package: "zitadel", Const: "Zitadel",
		Name: "ZITADEL", Kind: "oidc", IssuerRequired: true,
		Doc: `Package zitadel is the built-in provider for ZITADEL (OpenID Connect). The
issuer is the instance's domain, e.g. https://<instance>.zitadel.cloud or
a custom domain.

The issuer has no default: set Issuer (or AUTH_ZITADEL_ISSUER for
builtin.FromEnv), e.g. https://my-instance.zitadel.cloud.`,
		Facts: []Const{
			{Name: "Scope", Value: "openid profile email"},
		},
		ProfileDoc: `Profile is the ID token's claims (sub, name, email, picture, …),
mapped by profile.FromClaims.`,
		Claims:   true,
		Defaults: &Defaults{},
		NewDoc: `New returns the ZITADEL configuration with opts laid over its defaults by
providers.Merge. The endpoints come from discovery; the profile is the
ID token's claims, mapped by profile.FromClaims.`,
		Map: "claims", Missing: "claims have no sub",
	},
	{
		ID: "zoho", Package: "zoho", Const: "Zoho",
		Name: "Zoho", Kind: "oauth",
		Doc: `Package zoho is the built-in Zoho provider (OAuth 2.0): its endpoints on
the US data centre (accounts.zoho.com), the user record, and the mapping
of that record to a user. Accounts in other data centres sign in at
their own host (accounts.zoho.eu, accounts.zoho.in, …): override the
three URLs for those.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://accounts.zoho.com/oauth/v2/auth", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://accounts.zoho.com/oauth/v2/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://accounts.zoho.com/oauth/user/info", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
			{Name: "Scope", Value: "AaaServer.profile.Read", Doc: "Scope lets the token read the user's profile."},
		},
		ProfileDoc: "Profile is the answer of GET /oauth/user/info.",
		Profile: []Field{
			{"ZUID", "json.Number", `json:"ZUID"`, "ZUID is the user's Zoho user id (a number)."},
			{"FirstName", "string", `json:"First_Name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"Last_Name"`, "LastName is the user's last name."},
			{"DisplayName", "string", `json:"Display_Name"`, "DisplayName is the user's display name."},
			{"Email", "string", `json:"Email"`, "Email is the user's primary e-mail address."},
		},
		Defaults: &Defaults{ScopeParam: "scope"},
		MapDoc: `MapProfile maps a Zoho user to a user: id ← ZUID, name ← "First_Name
Last_Name", email ← Email, no image.`,
		Map: "fields", MapID: `p.ZUID.String()`, MapName: `profile.FullName(p.FirstName, p.LastName)`, MapEmail: `p.Email`, Missing: "profile has no id",
	},
	{
		ID: "zoom", Package: "zoom", Const: "Zoom",
		Name: "Zoom", Kind: "oauth",
		Doc: `Package zoom is the built-in Zoom provider (OAuth 2.0): its endpoints,
the user record of Zoom's API, and the mapping of that record to a user.`,
		Example: true,
		Facts: []Const{
			{Name: "AuthorizationURL", Value: "https://zoom.us/oauth/authorize", Doc: "AuthorizationURL is where the user signs in and consents."},
			{Name: "TokenURL", Value: "https://zoom.us/oauth/token", Doc: "TokenURL exchanges the code for tokens (client_secret_basic)."},
			{Name: "UserinfoURL", Value: "https://api.zoom.us/v2/users/me", Doc: "UserinfoURL answers the Profile to a Bearer GET."},
		},
		ProfileDoc: "Profile is the answer of GET /v2/users/me.",
		Profile: []Field{
			{"ID", "string", `json:"id"`, "ID is the user's id."},
			{"FirstName", "string", `json:"first_name"`, "FirstName is the user's first name."},
			{"LastName", "string", `json:"last_name"`, "LastName is the user's last name."},
			{"DisplayName", "string", `json:"display_name,omitempty"`, "DisplayName is the user's display name."},
			{"Email", "string", `json:"email"`, "Email is the user's e-mail address."},
			{"Type", "int", `json:"type"`, "Type is the license type: 1 basic, 2 licensed, …"},
			{"RoleName", "string", `json:"role_name,omitempty"`, "RoleName is the user's role, e.g. \"Owner\"."},
			{"PMI", "int64", `json:"pmi,omitempty"`, "PMI is the user's personal meeting id."},
			{"Timezone", "string", `json:"timezone,omitempty"`, "Timezone is the user's IANA time zone."},
			{"Verified", "int", `json:"verified"`, "Verified is 1 when the user's address is verified."},
			{"Dept", "string", `json:"dept,omitempty"`, "Dept is the user's department."},
			{"PicURL", "string", `json:"pic_url,omitempty"`, "PicURL is the user's picture."},
			{"AccountID", "string", `json:"account_id"`, "AccountID is the Zoom account the user belongs to."},
			{"Language", "string", `json:"language,omitempty"`, "Language is the user's language, e.g. \"en-US\"."},
			{"Status", "string", `json:"status,omitempty"`, "Status is \"active\", \"inactive\" or \"pending\"."},
		},
		Defaults: &Defaults{ScopeParam: "empty", Style: Style{BrandColor: "#0b5cff"}},
		DefaultsDoc: `Defaults returns the Zoom configuration before any user option. The
scope parameter is sent empty: a Zoom app's scopes are set in its
Marketplace configuration.`,
		MapDoc: `MapProfile maps a Zoom user to a user: id ← id, name ← "first_name
last_name", email ← email, image ← pic_url.`,
		Map: "fields", MapID: `p.ID`, MapName: `profile.FullName(p.FirstName, p.LastName)`, MapEmail: `p.Email`, MapImage: `p.PicURL`, Missing: "profile has no id",
	},
}
