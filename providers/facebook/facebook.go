package facebook

// Picture is the picture field of a Graph API user.
type Picture struct {
	// Data is the picture itself.
	Data PictureData `json:"data"`
}

// PictureData describes a profile picture.
type PictureData struct {
	// Height is the picture's height in pixels.
	Height int `json:"height,omitempty"`
	// Width is the picture's width in pixels.
	Width int `json:"width,omitempty"`
	// IsSilhouette is true for the default silhouette picture.
	IsSilhouette bool `json:"is_silhouette,omitempty"`
	// URL is where the picture is served.
	URL string `json:"url,omitempty"`
}
