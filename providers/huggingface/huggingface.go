// Package huggingface is the built-in Hugging Face provider (OpenID
// Connect, issuer https://huggingface.co, endpoints from discovery). The
// claims are mapped by the default OpenID Connect mapping.
//
//	p := huggingface.New(providers.OIDCUserConfig[huggingface.Profile]{
//		ClientID:     os.Getenv("AUTH_HUGGINGFACE_ID"),
//		ClientSecret: os.Getenv("AUTH_HUGGINGFACE_SECRET"),
//	})
//
// Scopes beyond the default (read-repos, write-repos, manage-repos,
// inference-api, …) must first be enabled in the OAuth app's settings.
package huggingface

import "github.com/gatehouse-auth/gatehouse/providers"

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "huggingface"
	// Name is the display name.
	Name = "Hugging Face"
	// Issuer is Hugging Face's issuer; the endpoints come from its
	// discovery document.
	Issuer = "https://huggingface.co"
	// Scope asks for an ID token with the profile and e-mail claims.
	Scope = "openid profile email"
)

// Profile is the claims Hugging Face returns about the user.
type Profile struct {
	// Sub is the user's unique id.
	Sub string `json:"sub"`
	// Name is the user's full name (profile scope).
	Name string `json:"name,omitempty"`
	// PreferredUsername is the user's Hugging Face username (profile scope).
	PreferredUsername string `json:"preferred_username,omitempty"`
	// ProfileURL is the URL of the user's profile page (profile scope).
	ProfileURL string `json:"profile,omitempty"`
	// Picture is the URL of the user's avatar (profile scope).
	Picture string `json:"picture,omitempty"`
	// Website is the user's website (profile scope).
	Website string `json:"website,omitempty"`
	// Email is the user's address (email scope).
	Email string `json:"email,omitempty"`
	// EmailVerified says whether Email is verified; Hugging Face requires
	// a verified address before a user can grant access to an OAuth app.
	EmailVerified bool `json:"email_verified,omitempty"`
	// IsPro is true when the user has a paid subscription.
	IsPro bool `json:"isPro"`
	// CanPay is true when the user has a payment method (read-billing
	// scope).
	CanPay *bool `json:"canPay,omitempty"`
	// Orgs are the user's organizations.
	Orgs []Org `json:"orgs,omitempty"`
}

// Org is one of the user's Hugging Face organizations.
type Org struct {
	// Sub is the organization's unique id.
	Sub string `json:"sub"`
	// Name is the organization's name.
	Name string `json:"name"`
	// Picture is the URL of the organization's avatar.
	Picture string `json:"picture,omitempty"`
	// PreferredUsername is the organization's handle.
	PreferredUsername string `json:"preferred_username"`
	// IsEnterprise is true for organizations with an enterprise plan.
	IsEnterprise bool `json:"isEnterprise"`
	// RoleInOrg is admin, write, read or contributor; present only when
	// the user granted the app access to the organization.
	RoleInOrg string `json:"roleInOrg,omitempty"`
}

// New returns the Hugging Face provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OIDCUserConfig[Profile]) providers.OIDCConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Hugging Face configuration before any user option:
// the issuer, the scope, the checks (state and pkce, no nonce) and the
// button style. The profile goes through the default mapping (id ← sub,
// name ← name, else preferred_username, email, image ← picture).
func Defaults() providers.OIDCConfig[Profile] {
	c := providers.OIDCDefaultsAt[Profile](ID, Name, Issuer, Scope, providers.Style{BrandColor: "#FFD21E"})
	c.Checks = []providers.Check{providers.CheckState, providers.CheckPKCE}
	return c
}
