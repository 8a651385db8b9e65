package osso

// Requested holds the domain or e-mail address the sign-in was started
// with.
type Requested struct {
	// Domain is the requested domain, if any.
	Domain string `json:"domain,omitempty"`
	// Email is the requested e-mail address, if any.
	Email string `json:"email,omitempty"`
}
