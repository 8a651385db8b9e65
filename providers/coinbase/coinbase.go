package coinbase

// User is a Coinbase user.
type User struct {
	// ID is the user's id (a UUID).
	ID string `json:"id"`
	// Name is the user's name.
	Name string `json:"name,omitempty"`
	// Username is the user's public username, if any.
	Username string `json:"username,omitempty"`
	// ProfileLocation is the location the user shows publicly.
	ProfileLocation string `json:"profile_location,omitempty"`
	// ProfileBio is the user's public biography.
	ProfileBio string `json:"profile_bio,omitempty"`
	// ProfileURL is the user's public profile page.
	ProfileURL string `json:"profile_url,omitempty"`
	// AvatarURL is the URL of the user's avatar.
	AvatarURL string `json:"avatar_url,omitempty"`
	// Resource is "user".
	Resource string `json:"resource,omitempty"`
	// ResourcePath is the user's API path, "/v2/user".
	ResourcePath string `json:"resource_path,omitempty"`
	// Email is the user's address (wallet:user:email scope).
	Email string `json:"email,omitempty"`
	// TimeZone is the user's time zone.
	TimeZone string `json:"time_zone,omitempty"`
	// NativeCurrency is the user's currency, e.g. "USD".
	NativeCurrency string `json:"native_currency,omitempty"`
	// Country is the user's country.
	Country *Country `json:"country,omitempty"`
	// CreatedAt is when the account was created (RFC 3339).
	CreatedAt string `json:"created_at,omitempty"`
}

// Country is a Coinbase user's country.
type Country struct {
	// Code is the ISO 3166-1 alpha-2 code.
	Code string `json:"code"`
	// Name is the country's name.
	Name string `json:"name"`
}
