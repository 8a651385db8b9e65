package keyflow

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// AddMessages adds the messages of the API keys page, its notices and
// alerts; the four org.* keys it shares with the organization pages have
// the same text to the pages' catalogue (pages.Text), once: New calls
// it, so they are there before any of them is shown, and a program that
// never turns the feature on links none of them.
func AddMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the API keys page, its notices
// and alerts; the four org.* keys it shares with the organization pages
// have the same text, by key. German has exactly the English keys (see
// the test).
var english = map[string]string{
	"org.noPermissions": "no permissions",
	"org.errForm":       "The form had expired: try again.",
	"org.errTooMany":    "Too many attempts: try again later.",
	"org.errOther":      "That could not be done.",
	"keys.title":        "API keys",
	"keys.yours":        "Your keys",
	"keys.none":         "You have no API keys yet.",
	"keys.secretFor":    "Your new key %s:",
	"keys.copyHint":     "Copy it now and keep it safe: it is shown this once, and cannot be shown again.",
	"keys.secretLabel":  "The key",
	"keys.revokedAt":    "revoked %s",
	"keys.organization": "organization %s",
	"keys.created":      "made %s",
	"keys.lastUsed":     "last used %s",
	"keys.neverUsed":    "never used",
	"keys.expires":      "expires %s",
	"keys.rotateName":   "Rotate %s…",
	"keys.rotateText":   "A new secret replaces this key's: programs using the old one must be given the new one.",
	"keys.rotateNow":    "Rotate %s now",
	"keys.revokeName":   "Revoke %s…",
	"keys.revokeText":   "Programs using this key stop working at once. This cannot be undone.",
	"keys.revokeNow":    "Revoke %s now",
	"keys.create":       "Make a key",
	"keys.permissions":  "Permissions",
	"keys.expiry":       "Expires after, in days (optional)",
	"keys.expiryMax":    "Expires after, in days (optional; at most %s)",
	"keys.createButton": "Make the key",
	"keys.doneRevoked":  "Key revoked.",
	"keys.errName":      "Give the key a name of 1 to 64 characters.",
	"keys.errPerms":     "You cannot give a key permissions you do not hold.",
	"keys.errExpiry":    "Choose an expiry within the allowed number of days.",
	"keys.errTooMany":   "You have as many keys as allowed: revoke one first.",
	"keys.errNotFound":  "That key is gone or revoked already.",
	"keys.freshTitle":   "Sign in again to continue",
	"keys.freshText":    "Making or rotating an API key needs a recent sign-in: a key keeps working after you sign out, so an old session alone cannot make one.",
	"keys.signInAgain":  "Sign in again",
}

var german = map[string]string{
	"org.noPermissions": "keine Berechtigungen",
	"org.errForm":       "Das Formular war abgelaufen: Versuchen Sie es erneut.",
	"org.errTooMany":    "Zu viele Versuche: Versuchen Sie es später erneut.",
	"org.errOther":      "Das hat nicht geklappt.",
	"keys.title":        "API-Schlüssel",
	"keys.yours":        "Ihre Schlüssel",
	"keys.none":         "Sie haben noch keine API-Schlüssel.",
	"keys.secretFor":    "Ihr neuer Schlüssel %s:",
	"keys.copyHint":     "Kopieren Sie ihn jetzt und bewahren Sie ihn sicher auf: Er wird nur dieses eine Mal angezeigt.",
	"keys.secretLabel":  "Der Schlüssel",
	"keys.revokedAt":    "widerrufen %s",
	"keys.organization": "Organisation %s",
	"keys.created":      "erstellt %s",
	"keys.lastUsed":     "zuletzt benutzt %s",
	"keys.neverUsed":    "nie benutzt",
	"keys.expires":      "läuft ab %s",
	"keys.rotateName":   "%s erneuern …",
	"keys.rotateText":   "Ein neues Geheimnis ersetzt das dieses Schlüssels: Programme, die das alte benutzen, brauchen das neue.",
	"keys.rotateNow":    "%s jetzt erneuern",
	"keys.revokeName":   "%s widerrufen …",
	"keys.revokeText":   "Programme, die diesen Schlüssel benutzen, funktionieren sofort nicht mehr. Das lässt sich nicht rückgängig machen.",
	"keys.revokeNow":    "%s jetzt widerrufen",
	"keys.create":       "Schlüssel erstellen",
	"keys.permissions":  "Berechtigungen",
	"keys.expiry":       "Läuft ab nach, in Tagen (optional)",
	"keys.expiryMax":    "Läuft ab nach, in Tagen (optional; höchstens %s)",
	"keys.createButton": "Schlüssel erstellen",
	"keys.doneRevoked":  "Schlüssel widerrufen.",
	"keys.errName":      "Geben Sie dem Schlüssel einen Namen von 1 bis 64 Zeichen.",
	"keys.errPerms":     "Sie können einem Schlüssel keine Berechtigungen geben, die Sie selbst nicht haben.",
	"keys.errExpiry":    "Wählen Sie einen Ablauf innerhalb der erlaubten Anzahl Tage.",
	"keys.errTooMany":   "Sie haben so viele Schlüssel wie erlaubt: Widerrufen Sie zuerst einen.",
	"keys.errNotFound":  "Dieser Schlüssel ist nicht mehr da oder schon widerrufen.",
	"keys.freshTitle":   "Erneut anmelden, um fortzufahren",
	"keys.freshText":    "Um einen API-Schlüssel zu erstellen oder zu erneuern, müssen Sie sich kürzlich angemeldet haben: Ein Schlüssel funktioniert auch nach dem Abmelden weiter, deshalb genügt eine ältere Sitzung allein nicht.",
	"keys.signInAgain":  "Erneut anmelden",
}
