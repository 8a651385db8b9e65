// Package azuredevops is the built-in Azure DevOps provider (Azure DevOps
// Services OAuth 2.0).
//
//	p := azuredevops.New(providers.OAuthUserConfig[azuredevops.Profile]{
//		ClientID:     os.Getenv("AUTH_AZURE_DEVOPS_ID"),     // the App ID
//		ClientSecret: os.Getenv("AUTH_AZURE_DEVOPS_SECRET"), // the Client Secret
//	})
//
// Azure DevOps does not use the standard code exchange. Its authorization
// request asks for response_type=Assertion, and the code is then traded
// at /oauth2/token in a JWT-bearer assertion grant: the code is the
// assertion and the client secret the client assertion. Auth.js writes
// that exchange as a token.request handler, which its core never calls,
// and also points its token URL at /oauth2/authorize, so its provider
// cannot sign anyone in. Here the exchange is ExchangeAssertion, set as
// Token.Request, against the real token endpoint.
//
// The default authorization parameters carry response_type=Assertion,
// which the sign-in flow must send as is (not replace with "code"). Azure
// DevOps answers it with the usual code and state on the callback.
//
// Azure DevOps does not support PKCE (its grant has no code_verifier), so
// the callback is protected by state instead.
//
// Microsoft no longer accepts new Azure DevOps OAuth app registrations and
// recommends Microsoft Entra ID; this provider serves existing apps.
package azuredevops

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "azure-devops"
	// Name is the display name.
	Name = "Azure DevOps"
	// AuthorizationURL is where the user signs in and consents.
	AuthorizationURL = "https://app.vssps.visualstudio.com/oauth2/authorize"
	// TokenURL is where ExchangeAssertion trades the code for tokens.
	TokenURL = "https://app.vssps.visualstudio.com/oauth2/token"
	// UserinfoURL answers the Profile as JSON to a Bearer GET, with the
	// query parameters of UserinfoParams.
	UserinfoURL = "https://app.vssps.visualstudio.com/_apis/profile/profiles/me"
	// Scope lets the token read the user's profile. The scopes must match
	// those registered for the app.
	Scope = "vso.profile"
	// ResponseType is the response_type Azure DevOps requires.
	ResponseType = "Assertion"

	// AssertionGrantType is the grant_type of the code exchange.
	AssertionGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	// ClientAssertionType is the client_assertion_type of the code
	// exchange: the client secret is itself a JWT.
	ClientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
)

// UserinfoParams returns the query of the profile request: the full
// profile with the avatar, in API version 6.0.
func UserinfoParams() map[string]string {
	return map[string]string{"details": "true", "coreAttributes": "Avatar", "api-version": "6.0"}
}

// Profile is the answer of GET /_apis/profile/profiles/me.
type Profile struct {
	// ID is the user's profile id (a GUID).
	ID string `json:"id"`
	// DisplayName is the user's name.
	DisplayName string `json:"displayName,omitempty"`
	// PublicAlias is the user's public alias (usually the id).
	PublicAlias string `json:"publicAlias,omitempty"`
	// EmailAddress is the user's address.
	EmailAddress string `json:"emailAddress,omitempty"`
	// CoreRevision is the revision of the core attributes.
	CoreRevision int64 `json:"coreRevision,omitempty"`
	// TimeStamp is when the profile last changed.
	TimeStamp string `json:"timeStamp,omitempty"`
	// Revision is the profile's revision.
	Revision int64 `json:"revision,omitempty"`
	// CoreAttributes holds the attributes asked for with coreAttributes.
	CoreAttributes CoreAttributes `json:"coreAttributes,omitzero"`
}

// CoreAttributes are the profile's core attributes that Gatehouse asks
// for.
type CoreAttributes struct {
	// Avatar is the user's picture.
	Avatar *Attribute `json:"Avatar,omitempty"`
}

// Attribute is a profile attribute.
type Attribute struct {
	// Value is the attribute's value.
	Value AttributeValue `json:"value"`
}

// AttributeValue is a serialized .NET value: for the avatar a byte array,
// base64-encoded.
type AttributeValue struct {
	// Type is the .NET type, "System.Byte[]" for the avatar.
	Type string `json:"$type,omitempty"`
	// Data is the base64 value as the REST API writes it ("$value").
	Data string `json:"$value,omitempty"`
	// Value is the base64 value under the name Auth.js reads ("value").
	Value string `json:"value,omitempty"`
}

// New returns the Azure DevOps provider configuration with opts laid over
// its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(), opts)
}

// Defaults returns the Azure DevOps configuration before any user option:
// the endpoints, the scope and response_type, ExchangeAssertion, the
// checks (state), MapProfile. Azure DevOps has no button style of its
// own.
func Defaults() providers.OAuthConfig[Profile] {
	c := providers.OAuthDefaults(ID, Name, providers.OAuthEndpoints{
		AuthorizationURL: AuthorizationURL, TokenURL: TokenURL, UserinfoURL: UserinfoURL,
		AuthorizationParams: map[string]string{"scope": Scope, "response_type": ResponseType},
	}, MapProfile, providers.Style{})
	c.Token.Request = ExchangeAssertion
	c.Userinfo.Params = UserinfoParams()
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// ExchangeAssertion is the token handler: a form POST to r.URL (TokenURL
// when empty) with grant_type=AssertionGrantType, the code as assertion,
// client_assertion_type=ClientAssertionType, the client secret as
// client_assertion and the redirect_uri of the authorization request.
// Azure DevOps answers a standard token response (token_type
// "jwt-bearer", expires_in as a string); a non-2xx answer is a
// *providers.HTTPError with the body.
func ExchangeAssertion(ctx context.Context, r providers.TokenRequest) (account.TokenSet, error) {
	u := cmp.Or(r.URL, TokenURL)
	if r.Code == "" {
		return account.TokenSet{}, errors.New("azure-devops: no code in the callback")
	}
	form := url.Values{
		"client_assertion_type": {ClientAssertionType},
		"client_assertion":      {r.ClientSecret},
		"grant_type":            {AssertionGrantType},
		"assertion":             {r.Code},
		"redirect_uri":          {r.RedirectURI},
	}
	var t account.TokenSet
	if err := providers.PostForm(ctx, r.HTTPClient, u, "", form, &t); err != nil {
		return account.TokenSet{}, fmt.Errorf("azure-devops: token exchange: %w", err)
	}
	if t.AccessToken == "" {
		return account.TokenSet{}, errors.New("azure-devops: the token response has no access_token")
	}
	return t, nil
}

// AvatarDataURL returns the avatar as a data: URL, or "" when the profile
// has none. The media type is read from the picture's bytes, image/jpeg
// (what Auth.js always writes) when they are not recognized.
func AvatarDataURL(p Profile) string {
	a := p.CoreAttributes.Avatar
	if a == nil {
		return ""
	}
	b64 := a.Value.Data
	if b64 == "" {
		b64 = a.Value.Value
	}
	if b64 == "" {
		return ""
	}
	mediaType := "image/jpeg"
	if raw, err := base64.StdEncoding.DecodeString(b64); err == nil {
		if t := http.DetectContentType(raw); strings.HasPrefix(t, "image/") {
			mediaType = t
		}
	}
	return "data:" + mediaType + ";base64," + b64
}

// MapProfile maps an Azure DevOps profile to a user: id ← id, name ←
// displayName, email ← emailAddress, image ← AvatarDataURL.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	return providers.RequireID(profile.User{ID: p.ID, Name: p.DisplayName, Email: p.EmailAddress, Image: AvatarDataURL(p)}, ID, "profile has no id")
}
