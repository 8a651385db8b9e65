package atlassian

// ExtendedProfile is the job part of an Atlassian profile.
type ExtendedProfile struct {
	// JobTitle is the user's job title.
	JobTitle string `json:"job_title,omitempty"`
	// Organization is the user's organization.
	Organization string `json:"organization,omitempty"`
	// Department is the user's department.
	Department string `json:"department,omitempty"`
	// Location is where the user works.
	Location string `json:"location,omitempty"`
}
