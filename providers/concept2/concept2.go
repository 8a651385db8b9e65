package concept2

// User is a Concept2 Logbook user.
type User struct {
	// ID is the user's numeric id.
	ID int64 `json:"id"`
	// Username is the user's Logbook username.
	Username string `json:"username"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Gender is "M" or "F".
	Gender string `json:"gender,omitempty"`
	// DOB is the user's date of birth, YYYY-MM-DD.
	DOB string `json:"dob,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Country is the user's country, as an ISO 3166-1 alpha-3 code.
	Country string `json:"country,omitempty"`
	// ProfileImage is the URL of the user's picture.
	ProfileImage string `json:"profile_image,omitempty"`
	// AgeRestricted is true for users under the age limit.
	AgeRestricted bool `json:"age_restricted,omitempty"`
	// Weight is the user's weight, as the Logbook records it.
	Weight int64 `json:"weight,omitempty"`
	// LogbookPrivacy is who may see the user's logbook, e.g. "partners".
	LogbookPrivacy string `json:"logbook_privacy,omitempty"`
}
