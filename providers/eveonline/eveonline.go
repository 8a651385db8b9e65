package eveonline

import (
	"strconv"
)

// PortraitURL returns the URL of the character's 128×128 portrait.
func PortraitURL(characterID int64) string {
	return ImageBaseURL + "/Character/" + strconv.FormatInt(characterID, 10) + "_128.jpg"
}
