package pages

import "strconv"

// APIKeys is the signed-in user's API keys page: their keys, each live
// one with a rotate and a revoke button (each behind a confirm step), and
// a form that makes one. Right after a key is made or rotated, Secret
// holds it: the page shows it this once.
type APIKeys struct {
	// Theme is the page's look.
	Theme Theme
	// CSRFToken goes into every form as the hidden csrfToken field.
	CSRFToken string
	// Notice, when set, says what just happened; Error what could not be
	// done.
	Notice, Error string
	// Secret, when set, is the whole key just made or rotated, named
	// SecretName: shown once, with a hint to copy it now. The page that
	// shows it must not be cached (Cache-Control: no-store), and must be
	// one a reload does not make again: the GET a POST is redirected to,
	// the key carried to it out of the URL, and shown once.
	Secret, SecretName string
	// Keys are the user's keys, newest first, revoked ones included.
	Keys []APIKeyRow
	// CreateURL is where the create form POSTs its name, permissions and
	// expiresInDays: {base}/api-keys.
	CreateURL string
	// Permissions are the permissions the create form offers as
	// checkboxes: those the user holds.
	Permissions []string
	// MaxDays, when not 0, is the longest lifetime a key may have, in
	// days: the expiry's upper bound, and what an empty one means.
	MaxDays int
	// HomeURL, when set, is linked as "Back".
	HomeURL string
}

// APIKeyRow is one key on the APIKeys page. Times are as shown; ""
// for none.
type APIKeyRow struct {
	// Name is the key's name; Start its public beginning (prefix_id),
	// which identifies it without being it.
	Name, Start string
	// Organization is the organization the key speaks for, "" for none.
	Organization string
	// Permissions are the key's permissions.
	Permissions []string
	// Created, LastUsed, Expires and Revoked are when the key was made,
	// last used, stops working and was revoked.
	Created, LastUsed, Expires, Revoked string
	// RotateURL and RevokeURL, when set, are where its rotate and revoke
	// forms POST: {base}/api-keys/{id}/rotate and .../revoke. A revoked
	// key has neither.
	RotateURL, RevokeURL string
}

// keyRules are the CSS rules of the keys page, also used by the
// organization page's role forms (checkbox groups), after the organization
// pages' (notice, rows, headings).
var keyRules = []string{
	".secret { font-family: ui-monospace, monospace; word-break: break-all; }",
	"fieldset { margin: 0 0 1rem; padding: 0; border: 0; }",
	"legend { margin: 0 0 .375rem; font-size: .875rem; font-weight: 500; }",
	".check { display: flex; gap: .5rem; align-items: center; font-weight: 400; }",
	".check input { width: auto; min-height: 0; }",
	"details { margin-top: .5rem; }",
	"summary { cursor: pointer; padding: .5rem 0; }",
	"details p { margin: .5rem 0; }",
	"details + form { margin-top: .75rem; }", // a Delete button below an open Edit form
}

func (value APIKeys) document(lang Language) *document {
	p := &value
	return newDocument(lang, p.Theme, Text(lang.Tag, "keys.title"), append(append([]string{}, orgRules...), keyRules...), apiKeysContent(lang.Tag, p))
}

// keyTimes is a key's line of times: made, last used, expires (each when
// known).
func keyTimes(tag string, k APIKeyRow) string {
	s := Text(tag, "keys.created", k.Created)
	if k.LastUsed != "" {
		s += " · " + Text(tag, "keys.lastUsed", k.LastUsed)
	} else {
		s += " · " + Text(tag, "keys.neverUsed")
	}
	if k.Expires != "" {
		s += " · " + Text(tag, "keys.expires", k.Expires)
	}
	return s
}

// expiryLabel is the create form's expiry label: at most MaxDays, or
// optional without a bound.
func expiryLabel(tag string, maxDays int) string {
	if maxDays > 0 {
		return Text(tag, "keys.expiryMax", strconv.Itoa(maxDays))
	}
	return Text(tag, "keys.expiry")
}
