package clickup

// User is a ClickUp user.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Username is the user's name.
	Username string `json:"username"`
	// Color is the user's colour, e.g. "#795548".
	Color string `json:"color,omitempty"`
	// ProfilePicture is the URL of the user's picture, if any.
	ProfilePicture string `json:"profilePicture,omitempty"`
}
