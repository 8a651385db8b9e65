package medium

// User is a Medium user.
type User struct {
	// ID is the user's unique id.
	ID string `json:"id"`
	// Username is the user's handle, without the @.
	Username string `json:"username"`
	// Name is the user's name.
	Name string `json:"name"`
	// URL is the user's profile page.
	URL string `json:"url"`
	// ImageURL is the user's avatar.
	ImageURL string `json:"imageUrl"`
}
