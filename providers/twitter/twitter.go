package twitter

// User is an X user object, with the fields Gatehouse asks for.
type User struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Username string `json:"username"`
	// Email is only present when the app asks for it and X grants it;
	// X does not send it with the default fields.
	Email           string `json:"email,omitempty"`
	ProfileImageURL string `json:"profile_image_url,omitempty"`
}
