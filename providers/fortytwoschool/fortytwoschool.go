package fortytwoschool

// Image is a 42 profile picture: the original and its resized versions.
type Image struct {
	// Link is the URL of the original picture.
	Link string `json:"link"`
	// Versions are URLs of the picture in other sizes.
	Versions ImageVersions `json:"versions"`
}

// ImageVersions are a picture's URLs by size.
type ImageVersions struct {
	// Large is the largest resized version.
	Large string `json:"large,omitempty"`
	// Medium is the medium-sized version.
	Medium string `json:"medium,omitempty"`
	// Small is the small version.
	Small string `json:"small,omitempty"`
	// Micro is the thumbnail.
	Micro string `json:"micro,omitempty"`
}
