package passwordaccount

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// addMessages adds the messages of the password-account pages and
// notices, and the sign-up and forgotten-password links of the sign-in
// page to the pages' catalogue (pages.Text), once: Config.Prepare (which
// NewService and NewFlow call) calls it, so they are there before any of
// them is shown, and a program that never turns the feature on links
// none of them.
func addMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the password-account pages and
// notices, and the sign-up and forgotten-password links of the sign-in
// page, by key. German has exactly the English keys (see the test).
var english = map[string]string{
	"signin.createAccount":            "Create an account",
	"signin.forgot":                   "Forgot your password?",
	"password.forgotIntro":            "Type the address of your account: we will send it a link to choose a new password.",
	"password.current":                "Current password",
	"password.new":                    "New password",
	"password.create":                 "Create account",
	"password.send":                   "Send the link",
	"password.set":                    "Set the new password",
	"password.change":                 "Change password",
	"password.resetTitle":             "Choose a new password",
	"password.changeTitle":            "Change your password",
	"passwordflow.confirmSent":        "We sent a message to the address you gave. Follow its link to confirm the address, then sign in.",
	"passwordflow.resetSent":          "If an account has this address, we sent it a link to choose a new password. The link works once, for a short time.",
	"passwordflow.changed":            "Password changed",
	"passwordflow.resetDone":          "Your new password is set, and every session of your account was signed out. Sign in with the new password.",
	"passwordflow.changeDone":         "Your new password is set. Your account's other sessions were signed out.",
	"passwordflow.continue":           "Continue",
	"passwordflow.err.invalid_email":  "That e-mail address cannot receive mail. Check it and try again.",
	"passwordflow.err.too_short":      "The password is too short.",
	"passwordflow.err.too_long":       "The password is too long.",
	"passwordflow.err.breached":       "This password appears in known data breaches. Choose another.",
	"passwordflow.err.invalid_token":  "The link is no longer valid.",
	"passwordflow.err.wrong_password": "The current password is wrong.",
	"passwordflow.err.no_password":    "Your account has no password yet: sign out and use “Forgot your password?” to set one.",
	"passwordflow.err.name_too_long":  "The name is too long.",
	"password.hint":                   "At least %d characters, up to %d. A long phrase is easy to remember and hard to guess.",
}

var german = map[string]string{
	"signin.createAccount":            "Konto erstellen",
	"signin.forgot":                   "Passwort vergessen?",
	"password.forgotIntro":            "Geben Sie die Adresse Ihres Kontos ein: Wir senden ihr einen Link, mit dem Sie ein neues Passwort wählen können.",
	"password.current":                "Aktuelles Passwort",
	"password.new":                    "Neues Passwort",
	"password.create":                 "Konto anlegen",
	"password.send":                   "Link senden",
	"password.set":                    "Neues Passwort speichern",
	"password.change":                 "Passwort ändern",
	"password.resetTitle":             "Neues Passwort wählen",
	"password.changeTitle":            "Ihr Passwort ändern",
	"passwordflow.confirmSent":        "Wir haben eine Nachricht an die angegebene Adresse gesendet. Folgen Sie dem Link darin, um die Adresse zu bestätigen, und melden Sie sich dann an.",
	"passwordflow.resetSent":          "Falls ein Konto diese Adresse hat, haben wir ihm einen Link gesendet, mit dem Sie ein neues Passwort wählen können. Der Link gilt einmal und nur kurze Zeit.",
	"passwordflow.changed":            "Passwort geändert",
	"passwordflow.resetDone":          "Ihr neues Passwort ist gesetzt, und alle Sitzungen Ihres Kontos wurden abgemeldet. Melden Sie sich mit dem neuen Passwort an.",
	"passwordflow.changeDone":         "Ihr neues Passwort ist gesetzt. Die anderen Sitzungen Ihres Kontos wurden abgemeldet.",
	"passwordflow.continue":           "Weiter",
	"passwordflow.err.invalid_email":  "Diese E-Mail-Adresse kann keine E-Mails empfangen. Prüfen Sie sie und versuchen Sie es erneut.",
	"passwordflow.err.too_short":      "Das Passwort ist zu kurz.",
	"passwordflow.err.too_long":       "Das Passwort ist zu lang.",
	"passwordflow.err.breached":       "Dieses Passwort taucht in bekannten Datenlecks auf. Wählen Sie ein anderes.",
	"passwordflow.err.invalid_token":  "Der Link ist nicht mehr gültig.",
	"passwordflow.err.wrong_password": "Das aktuelle Passwort ist falsch.",
	"passwordflow.err.no_password":    "Ihr Konto hat noch kein Passwort: Melden Sie sich ab und wählen Sie „Passwort vergessen?“, um eines festzulegen.",
	"passwordflow.err.name_too_long":  "Der Name ist zu lang.",
	"password.hint":                   "Mindestens %d Zeichen, höchstens %d. Ein langer Satz ist leicht zu merken und schwer zu erraten.",
}
