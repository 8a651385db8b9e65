package adapter

import "context"

// SessionRevoker is implemented by adapters that can end every database
// session of a user at once. Gatehouse uses it for OpenID Connect
// back-channel logout (a provider tells the application that a user
// signed out there): with the database strategy, the user's sessions are
// deleted. Without it, back-channel logout answers 501.
type SessionRevoker interface {
	// DeleteUserSessions removes every session of the user userID and
	// returns how many there were. A user with no sessions (or no such
	// user) gives 0 and no error.
	DeleteUserSessions(ctx context.Context, userID string) (int, error)
}
