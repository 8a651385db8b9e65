package yandex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Phone is a Yandex contact phone number.
type Phone struct {
	// ID is the phone number's id.
	ID int64 `json:"id"`
	// Number is the number itself, e.g. "+79037659418".
	Number string `json:"number"`
}

// BirthDate returns the parts of Birthday, with 0 for each part Yandex
// does not know (a year of 0000). ok is false when Birthday is nil or not
// of the YYYY-MM-DD form.
func (p Profile) BirthDate() (year, month, day int, ok bool) {
	if p.Birthday == nil {
		return 0, 0, 0, false
	}
	s := *p.Birthday
	if len(s) != len("2006-01-02") || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	parts := [3]int{}
	for i, f := range [3]string{s[0:4], s[5:7], s[8:10]} {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return 0, 0, 0, false
		}
		parts[i] = n
	}
	if parts[1] > 12 || parts[2] > 31 {
		return 0, 0, 0, false
	}
	return parts[0], parts[1], parts[2], true
}

// SexKind says which of its four forms a Sex has.
type SexKind int

// The forms of the sex member.
const (
	SexAbsent SexKind = iota // the member is not in the answer
	SexNull                  // the member is null: unknown or unspecified
	SexFemale                // "female"
	SexMale                  // "male"
	SexOther                 // a string Yandex does not document; see Sex.String
)

// Sex is the profile's sex member. Its zero value is absent; decoding JSON
// null gives a Sex whose Kind is SexNull, so the two stay apart.
type Sex struct {
	kind SexKind
	raw  string
}

// NewSex returns a Sex of kind k (SexAbsent, SexNull, SexFemale or
// SexMale).
func NewSex(k SexKind) Sex {
	switch k {
	case SexFemale:
		return Sex{kind: k, raw: "female"}
	case SexMale:
		return Sex{kind: k, raw: "male"}
	case SexNull:
		return Sex{kind: k}
	}
	return Sex{}
}

// Kind returns which form s has.
func (s Sex) Kind() SexKind { return s.kind }

// String returns "female", "male", an undocumented value as sent, or ""
// when absent or null.
func (s Sex) String() string { return s.raw }

// IsZero reports whether s is absent, so that `omitzero` leaves it out.
func (s Sex) IsZero() bool { return s.kind == SexAbsent }

// UnmarshalJSON reads null or a string. encoding/json calls it for a null
// member too, but not for a missing one, which leaves SexAbsent.
func (s *Sex) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*s = Sex{kind: SexNull}
		return nil
	}
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("yandex: sex is neither a string nor null: %w", err)
	}
	switch v {
	case "female":
		*s = Sex{kind: SexFemale, raw: v}
	case "male":
		*s = Sex{kind: SexMale, raw: v}
	default:
		*s = Sex{kind: SexOther, raw: v}
	}
	return nil
}

// MarshalJSON writes null for SexNull and SexAbsent (a Profile field
// tagged omitzero leaves an absent Sex out) and the string otherwise.
func (s Sex) MarshalJSON() ([]byte, error) {
	if s.kind == SexAbsent || s.kind == SexNull {
		return []byte("null"), nil
	}
	return json.Marshal(s.raw)
}

// AvatarSize is one of the sizes Yandex serves avatars in.
type AvatarSize string

// The avatar sizes Yandex serves (AvatarURL).
const (
	IslandsSmall        AvatarSize = "islands-small"         // 28×28
	Islands34           AvatarSize = "islands-34"            // 34×34
	IslandsMiddle       AvatarSize = "islands-middle"        // 42×42
	Islands50           AvatarSize = "islands-50"            // 50×50
	IslandsRetinaSmall  AvatarSize = "islands-retina-small"  // 56×56
	Islands68           AvatarSize = "islands-68"            // 68×68
	Islands75           AvatarSize = "islands-75"            // 75×75
	IslandsRetinaMiddle AvatarSize = "islands-retina-middle" // 84×84
	IslandsRetina50     AvatarSize = "islands-retina-50"     // 100×100
	Islands200          AvatarSize = "islands-200"           // 200×200
)

// AvatarSizes lists the sizes from the smallest to the largest.
var AvatarSizes = []AvatarSize{
	IslandsSmall, Islands34, IslandsMiddle, Islands50, IslandsRetinaSmall,
	Islands68, Islands75, IslandsRetinaMiddle, IslandsRetina50, Islands200,
}

// Pixels returns the width (equal to the height) of the size in pixels,
// or 0 for a size that is not one of the constants.
func (s AvatarSize) Pixels() int {
	switch s {
	case IslandsSmall:
		return 28
	case Islands34:
		return 34
	case IslandsMiddle:
		return 42
	case Islands50:
		return 50
	case IslandsRetinaSmall:
		return 56
	case Islands68:
		return 68
	case Islands75:
		return 75
	case IslandsRetinaMiddle:
		return 84
	case IslandsRetina50:
		return 100
	case Islands200:
		return 200
	}
	return 0
}

// AvatarURL returns the URL of the avatar avatarID in the given size:
// AvatarBaseURL/<avatarID>/<size>. The id is used as Yandex sends it: it
// may itself hold a '/' (e.g. "21377/enc-…"), which must stay a path
// separator.
func AvatarURL(avatarID string, size AvatarSize) string {
	return AvatarBaseURL + "/" + avatarID + "/" + string(size)
}
