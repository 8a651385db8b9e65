package mailchimp

// Login is the Mailchimp login (the person) that granted the token.
type Login struct {
	// Email is the login's e-mail address.
	Email string `json:"email"`
	// Avatar is the URL of the login's avatar, if any.
	Avatar string `json:"avatar"`
	// LoginID is the login's numeric id.
	LoginID int64 `json:"login_id"`
	// LoginName is the login's user name.
	LoginName string `json:"login_name"`
	// LoginEmail is the address the login signs in with.
	LoginEmail string `json:"login_email"`
}
