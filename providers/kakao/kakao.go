package kakao

// Account is the kakao_account member of a Kakao profile.
type Account struct {
	// Profile is the user's Kakao profile (nickname and pictures).
	Profile AccountProfile `json:"profile"`
	// Name is the user's real name.
	Name string `json:"name,omitempty"`
	// Email is the user's Kakao account address.
	Email string `json:"email,omitempty"`
	// IsEmailValid is false when the address is no longer valid.
	IsEmailValid bool `json:"is_email_valid,omitempty"`
	// IsEmailVerified says whether Kakao verified the address.
	IsEmailVerified bool `json:"is_email_verified,omitempty"`
	// AgeRange is e.g. "20~29".
	AgeRange string `json:"age_range,omitempty"`
	// Birthyear is YYYY.
	Birthyear string `json:"birthyear,omitempty"`
	// Birthday is MMDD.
	Birthday string `json:"birthday,omitempty"`
	// Gender is "female" or "male".
	Gender string `json:"gender,omitempty"`
	// PhoneNumber is e.g. "+82 10-1234-5678".
	PhoneNumber string `json:"phone_number,omitempty"`
}

// AccountProfile is the profile member of a Kakao account.
type AccountProfile struct {
	// Nickname is the user's nickname.
	Nickname string `json:"nickname"`
	// ThumbnailImageURL is the 110×110 picture.
	ThumbnailImageURL string `json:"thumbnail_image_url,omitempty"`
	// ProfileImageURL is the 640×640 picture.
	ProfileImageURL string `json:"profile_image_url,omitempty"`
	// IsDefaultImage is true when the picture is Kakao's default.
	IsDefaultImage bool `json:"is_default_image,omitempty"`
}
