package patreon

// User is a Patreon user resource.
type User struct {
	// ID is the user's id (a string of digits).
	ID string `json:"id"`
	// Type is "user".
	Type string `json:"type"`
	// Attributes are the user's fields.
	Attributes Attributes `json:"attributes"`
}

// Attributes are a Patreon user's fields.
type Attributes struct {
	// FullName is the user's name.
	FullName string `json:"full_name"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Vanity is the user's vanity name, if any.
	Vanity string `json:"vanity,omitempty"`
	// Email is the user's e-mail address (needs identity[email]).
	Email string `json:"email,omitempty"`
	// IsEmailVerified is Patreon's flag for a verified address.
	IsEmailVerified bool `json:"is_email_verified,omitempty"`
	// ImageURL is the user's avatar.
	ImageURL string `json:"image_url"`
	// ThumbURL is a small version of the avatar.
	ThumbURL string `json:"thumb_url,omitempty"`
	// URL is the user's Patreon page.
	URL string `json:"url,omitempty"`
	// Created is when the account was created (RFC 3339).
	Created string `json:"created,omitempty"`
}
