package huggingface

// Org is one of the user's Hugging Face organizations.
type Org struct {
	// Sub is the organization's unique id.
	Sub string `json:"sub"`
	// Name is the organization's name.
	Name string `json:"name"`
	// Picture is the URL of the organization's avatar.
	Picture string `json:"picture,omitempty"`
	// PreferredUsername is the organization's handle.
	PreferredUsername string `json:"preferred_username"`
	// IsEnterprise is true for organizations with an enterprise plan.
	IsEnterprise bool `json:"isEnterprise"`
	// RoleInOrg is admin, write, read or contributor; present only when
	// the user granted the app access to the organization.
	RoleInOrg string `json:"roleInOrg,omitempty"`
}
