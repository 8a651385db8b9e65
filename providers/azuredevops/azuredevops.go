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

	"github.com/gatehouse-auth/gatehouse/providers"
)

// UserinfoParams returns the query of the profile request: the full
// profile with the avatar, in API version 6.0.
func UserinfoParams() map[string]string {
	return map[string]string{"details": "true", "coreAttributes": "Avatar", "api-version": "6.0"}
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
