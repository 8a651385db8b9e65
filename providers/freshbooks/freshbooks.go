package freshbooks

// User is a FreshBooks identity.
type User struct {
	// ID is the identity's numeric id.
	ID int64 `json:"id"`
	// IdentityID is the same id, under its other name.
	IdentityID int64 `json:"identity_id,omitempty"`
	// IdentityUUID is the identity's UUID.
	IdentityUUID string `json:"identity_uuid,omitempty"`
	// FirstName is the user's first name.
	FirstName string `json:"first_name,omitempty"`
	// LastName is the user's last name.
	LastName string `json:"last_name,omitempty"`
	// Email is the user's address.
	Email string `json:"email,omitempty"`
	// Language is the user's language, e.g. "en".
	Language string `json:"language,omitempty"`
	// ConfirmedAt is when the user confirmed their address.
	ConfirmedAt string `json:"confirmed_at,omitempty"`
	// CreatedAt is when the identity was created.
	CreatedAt string `json:"created_at,omitempty"`
	// SetupComplete is true once the user finished onboarding.
	SetupComplete bool `json:"setup_complete,omitempty"`
}
