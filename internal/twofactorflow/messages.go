package twofactorflow

import "github.com/gatehouse-auth/gatehouse/internal/catalog"

// AddMessages adds the messages of the two-factor challenge and settings
// pages to the pages' catalogue (pages.Text), once: New calls it, so
// they are there before any of them is shown, and a program that never
// turns the feature on links none of them.
func AddMessages() { messages.Add(english, german) }

// messages adds english and german once.
var messages catalog.Catalogue

// english and german are the messages of the two-factor challenge and
// settings pages, by key. German has exactly the English keys (see the
// test).
var english = map[string]string{
	"twofactor.title":     "Two-factor authentication",
	"twofactor.codeLabel": "Code from your authenticator app, or a backup code",
	"twofactor.verify":    "Verify",
	"tfsetup.signInAgain": "Sign in again",
	"tfsetup.scan":        "Scan this code with your authenticator app, then enter the code it shows.",
	"tfsetup.qrAlt":       "QR code of your two-factor secret",
	"tfsetup.typeKey":     "Or type the key:",
	"tfsetup.codeLabel":   "Code from your authenticator app",
	"tfsetup.turnOn":      "Turn on",
	"tfsetup.keep":        "Keep these backup codes somewhere safe. Each signs you in once if you lose your authenticator app. They will not be shown again.",
	"tfsetup.is":          "Two-factor sign-in is",
	"tfsetup.on":          "on",
	"tfsetup.off":         "off",
	"tfsetup.left1":       "You have 1 backup code left.",
	"tfsetup.leftN":       "You have %d backup codes left.",
	"tfsetup.newLabel":    "Current code, to make new backup codes",
	"tfsetup.makeNew":     "Make new backup codes",
	"tfsetup.offLabel":    "Current code or a backup code, to turn it off",
	"tfsetup.turnOff":     "Turn off two-factor sign-in",
	"tfsetup.offHint":     "Turn it on to be asked for a code from an authenticator app each time you sign in.",
	"tfsetup.setUp":       "Set up an authenticator app",
}

var german = map[string]string{
	"twofactor.title":     "Zwei-Faktor-Authentifizierung",
	"twofactor.codeLabel": "Code aus Ihrer Authenticator-App oder ein Ersatzcode",
	"twofactor.verify":    "Bestätigen",
	"tfsetup.signInAgain": "Erneut anmelden",
	"tfsetup.scan":        "Scannen Sie diesen Code mit Ihrer Authenticator-App und geben Sie dann den angezeigten Code ein.",
	"tfsetup.qrAlt":       "QR-Code Ihres Zwei-Faktor-Schlüssels",
	"tfsetup.typeKey":     "Oder geben Sie den Schlüssel ein:",
	"tfsetup.codeLabel":   "Code aus Ihrer Authenticator-App",
	"tfsetup.turnOn":      "Einschalten",
	"tfsetup.keep":        "Bewahren Sie diese Ersatzcodes sicher auf. Jeder meldet Sie einmal an, falls Sie Ihre Authenticator-App verlieren. Sie werden nicht noch einmal angezeigt.",
	"tfsetup.is":          "Die Zwei-Faktor-Anmeldung ist",
	"tfsetup.on":          "an",
	"tfsetup.off":         "aus",
	"tfsetup.left1":       "Sie haben noch 1 Ersatzcode.",
	"tfsetup.leftN":       "Sie haben noch %d Ersatzcodes.",
	"tfsetup.newLabel":    "Aktueller Code, um neue Ersatzcodes zu erzeugen",
	"tfsetup.makeNew":     "Neue Ersatzcodes erzeugen",
	"tfsetup.offLabel":    "Aktueller Code oder ein Ersatzcode, um sie auszuschalten",
	"tfsetup.turnOff":     "Zwei-Faktor-Anmeldung ausschalten",
	"tfsetup.offHint":     "Schalten Sie sie ein, um bei jeder Anmeldung nach einem Code aus einer Authenticator-App gefragt zu werden.",
	"tfsetup.setUp":       "Authenticator-App einrichten",
}
