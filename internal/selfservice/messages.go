package selfservice

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// AddMessages adds the messages of the linked-accounts and sessions
// pages and the self-service notices to the pages' catalogue
// (pages.Text), once. New does not call it: the Handler makes the routes
// whenever self-service or two-factor sign-in may be on. What turns each
// on calls it (selfservice.Routes.SelfServiceRoutes, twofactorflow.New),
// before any page is shown, so that a program that turns neither on
// links none of them.
func AddMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the linked-accounts and
// sessions pages and the self-service notices, by key. German has
// exactly the English keys (see the test).
var english = map[string]string{
	"accounts.title":             "Linked accounts",
	"accounts.unlinkQ":           "Unlink %s?",
	"accounts.noLonger":          "You will no longer be able to sign in with %s.",
	"accounts.stillWith":         " You can still sign in with: %s.",
	"accounts.unlinkName":        "Unlink %s",
	"accounts.unlink":            "Unlink",
	"accounts.cannot":            "It cannot be unlinked: it is your only way to sign in, or this site's own sign-in.",
	"accounts.ways":              "Other ways to sign in",
	"accounts.linkAnother":       "Link another account",
	"accounts.link":              "Link %s",
	"sessions.title":             "Your sessions",
	"sessions.this":              "This browser",
	"sessions.other":             "Another browser",
	"sessions.via":               "signed in with %s",
	"sessions.since":             "since %s",
	"sessions.lastSeen":          "last seen %s",
	"sessions.until":             "until %s",
	"sessions.revoke":            "Sign out that browser",
	"sessions.revokeOthers":      "Sign out everywhere else",
	"sessions.revokeAll":         "Sign out everywhere",
	"selfservice.linked":         "Linked %s.",
	"selfservice.unlinked":       "Unlinked %s.",
	"selfservice.unlinkExpired":  "Nothing was unlinked: the form had expired. Please try again.",
	"selfservice.stale":          "For your safety, sign in again first: this change needs a recent sign-in.",
	"selfservice.notLinked":      "That account is not linked, so there was nothing to unlink.",
	"selfservice.onlyWay":        "%s was not unlinked: it is your only way to sign in. Link another account first.",
	"selfservice.ownSignIn":      "%s was not unlinked: it is this site's own sign-in, not an account you linked.",
	"selfservice.wrongCode":      "That code is not right. Check your authenticator app and try again.",
	"selfservice.formExpired":    "The form had expired. Please try again.",
	"selfservice.alreadyOn":      "Two-factor sign-in is already on.",
	"selfservice.tooManyCodes":   "Too many wrong codes. Wait %d minutes, then try again.",
	"selfservice.nowOn":          "Two-factor sign-in is on.",
	"selfservice.nowOff":         "Two-factor sign-in is off.",
	"selfservice.oldCodes":       "Your old backup codes no longer work.",
	"ways.passkey":               "Passkey",
	"ways.passkeys":              "%d passkeys",
	"ways.password":              "Password",
	"ways.passwords":             "%d passwords",
	"ways.emailLink":             "Email link",
	"ways.emailLinks":            "%d email links",
	"device.on":                  "%s on %s",
	"device.someOn":              "A browser on %s",
	"device.unknown":             "Unknown browser",
	"selfservice.wrongCodeSetup": "That code is not right. Check your authenticator app and try again. Set up the app again if the code keeps failing.",
}

var german = map[string]string{
	"accounts.title":             "Verknüpfte Konten",
	"accounts.unlinkQ":           "Verknüpfung mit %s lösen?",
	"accounts.noLonger":          "Sie können sich dann nicht mehr mit %s anmelden.",
	"accounts.stillWith":         " Sie können sich weiterhin anmelden mit: %s.",
	"accounts.unlinkName":        "Verknüpfung mit %s lösen",
	"accounts.unlink":            "Lösen",
	"accounts.cannot":            "Die Verknüpfung kann nicht gelöst werden: Sie ist Ihre einzige Anmeldemöglichkeit oder die eigene Anmeldung dieser Website.",
	"accounts.ways":              "Weitere Anmeldemöglichkeiten",
	"accounts.linkAnother":       "Weiteres Konto verknüpfen",
	"accounts.link":              "%s verknüpfen",
	"sessions.title":             "Ihre Sitzungen",
	"sessions.this":              "Dieser Browser",
	"sessions.other":             "Anderer Browser",
	"sessions.via":               "angemeldet mit %s",
	"sessions.since":             "seit %s",
	"sessions.lastSeen":          "zuletzt aktiv %s",
	"sessions.until":             "bis %s",
	"sessions.revoke":            "Diesen Browser abmelden",
	"sessions.revokeOthers":      "Überall sonst abmelden",
	"sessions.revokeAll":         "Überall abmelden",
	"selfservice.linked":         "%s verknüpft.",
	"selfservice.unlinked":       "Verknüpfung mit %s gelöst.",
	"selfservice.unlinkExpired":  "Nichts wurde gelöst: Das Formular war abgelaufen. Bitte versuchen Sie es erneut.",
	"selfservice.stale":          "Zu Ihrer Sicherheit melden Sie sich bitte zuerst erneut an: Diese Änderung erfordert eine kürzliche Anmeldung.",
	"selfservice.notLinked":      "Dieses Konto ist nicht verknüpft, es gab also nichts zu lösen.",
	"selfservice.onlyWay":        "Die Verknüpfung mit %s wurde nicht gelöst: Sie ist Ihre einzige Anmeldemöglichkeit. Verknüpfen Sie zuerst ein weiteres Konto.",
	"selfservice.ownSignIn":      "Die Verknüpfung mit %s wurde nicht gelöst: Sie ist die eigene Anmeldung dieser Website, kein von Ihnen verknüpftes Konto.",
	"selfservice.wrongCode":      "Dieser Code stimmt nicht. Prüfen Sie Ihre Authenticator-App und versuchen Sie es erneut.",
	"selfservice.formExpired":    "Das Formular war abgelaufen. Bitte versuchen Sie es erneut.",
	"selfservice.alreadyOn":      "Die Zwei-Faktor-Anmeldung ist bereits eingeschaltet.",
	"selfservice.tooManyCodes":   "Zu viele falsche Codes. Warten Sie %d Minuten und versuchen Sie es dann erneut.",
	"selfservice.nowOn":          "Die Zwei-Faktor-Anmeldung ist eingeschaltet.",
	"selfservice.nowOff":         "Die Zwei-Faktor-Anmeldung ist ausgeschaltet.",
	"selfservice.oldCodes":       "Ihre alten Ersatzcodes gelten nicht mehr.",
	"ways.passkey":               "Passkey",
	"ways.passkeys":              "%d Passkeys",
	"ways.password":              "Passwort",
	"ways.passwords":             "%d Passwörter",
	"ways.emailLink":             "E-Mail-Link",
	"ways.emailLinks":            "%d E-Mail-Links",
	"device.on":                  "%s unter %s",
	"device.someOn":              "Ein Browser unter %s",
	"device.unknown":             "Unbekannter Browser",
	"selfservice.wrongCodeSetup": "Dieser Code stimmt nicht. Prüfen Sie Ihre Authenticator-App und versuchen Sie es erneut. Richten Sie die App neu ein, wenn der Code weiterhin nicht passt.",
}
