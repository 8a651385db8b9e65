package mail

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// addMessages adds the messages of the built-in e-mails to the pages'
// catalogue (pages.Text), once: NewData, NewInvitation and Render calls
// it, so they are there before any of them is shown, and a program that
// never turns the feature on links none of them.
func addMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the built-in e-mails, by key.
// German has exactly the English keys (see the test).
var english = map[string]string{
	"mail.until":              "The link works once, until %s.",
	"mail.signin.subject":     "Sign in to %s",
	"mail.signin.intro":       "Sign in to %s.",
	"mail.signin.button":      "Sign in",
	"mail.signin.ignore":      "If you did not ask to sign in, ignore this message.",
	"mail.verify.subject":     "Confirm your email address for %s",
	"mail.verify.intro":       "Confirm your email address to finish creating your account on %s.",
	"mail.verify.button":      "Confirm address",
	"mail.verify.ignore":      "If you did not create an account, ignore this message.",
	"mail.reset.subject":      "Reset your password on %s",
	"mail.reset.intro":        "Someone asked to reset the password of your account on %s.",
	"mail.reset.button":       "Choose a new password",
	"mail.reset.ignore":       "If it was not you, ignore this message: your password stays as it is.",
	"mail.exists.subject":     "Your account on %s",
	"mail.exists.intro":       "Someone tried to create an account on %s with this address, which already has one.",
	"mail.exists.button":      "Reset your password",
	"mail.exists.ignore":      "If it was you and you forgot your password, reset it. If not, ignore this message.",
	"mail.invitation.subject": "You are invited to join %s",
	"mail.invitation.intro":   "You are invited to join %s as %s.",
	"mail.invitation.button":  "Accept the invitation",
	"mail.invitation.ignore":  "If you did not expect this invitation, ignore this message.",
}

var german = map[string]string{
	"mail.until":              "Der Link funktioniert einmal, bis %s.",
	"mail.signin.subject":     "Anmelden bei %s",
	"mail.signin.intro":       "Anmelden bei %s.",
	"mail.signin.button":      "Anmelden",
	"mail.signin.ignore":      "Wenn Sie keine Anmeldung angefordert haben, ignorieren Sie diese Nachricht.",
	"mail.verify.subject":     "Bestätigen Sie Ihre E-Mail-Adresse für %s",
	"mail.verify.intro":       "Bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto bei %s fertig anzulegen.",
	"mail.verify.button":      "Adresse bestätigen",
	"mail.verify.ignore":      "Wenn Sie kein Konto angelegt haben, ignorieren Sie diese Nachricht.",
	"mail.reset.subject":      "Passwort zurücksetzen bei %s",
	"mail.reset.intro":        "Jemand hat verlangt, das Passwort Ihres Kontos bei %s zurückzusetzen.",
	"mail.reset.button":       "Neues Passwort wählen",
	"mail.reset.ignore":       "Wenn Sie es nicht waren, ignorieren Sie diese Nachricht: Ihr Passwort bleibt, wie es ist.",
	"mail.exists.subject":     "Ihr Konto bei %s",
	"mail.exists.intro":       "Jemand hat versucht, bei %s ein Konto mit dieser Adresse anzulegen, die schon eines hat.",
	"mail.exists.button":      "Passwort zurücksetzen",
	"mail.exists.ignore":      "Wenn Sie es waren und Ihr Passwort vergessen haben, setzen Sie es zurück. Wenn nicht, ignorieren Sie diese Nachricht.",
	"mail.invitation.subject": "Sie sind eingeladen, %s beizutreten",
	"mail.invitation.intro":   "Sie sind eingeladen, %s als %s beizutreten.",
	"mail.invitation.button":  "Einladung annehmen",
	"mail.invitation.ignore":  "Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese Nachricht.",
}
