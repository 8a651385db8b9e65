package pages

import (
	"math"
	"strconv"
	"strings"
)

// rgba is a colour parsed from a validated CSS colour string: 8-bit
// channels and an 8-bit alpha (255 is opaque).
type rgba struct{ r, g, b, a uint8 }

// ValidColor reports whether s is a colour the pages accept in a Theme or a
// provider Style: a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa) or a CSS
// named colour such as "rebeccapurple" or "transparent" (any letter case,
// surrounding spaces ignored). Anything else (rgb() functions, variables,
// stray punctuation) is refused, because the colour is written into the
// page's style sheet and a strict pattern is what keeps a value like
// "red;}</style><script>" from ending the rule or the element. The pages
// drop an invalid colour and fall back to their defaults.
func ValidColor(s string) bool {
	_, ok := parseColor(s)
	return ok
}

// cssColor returns the canonical form of a valid colour (lower case,
// trimmed) and true, or "" and false.
func cssColor(s string) (string, bool) {
	if _, ok := parseColor(s); !ok {
		return "", false
	}
	return strings.ToLower(strings.TrimSpace(s)), true
}

// parseColor parses a colour that ValidColor accepts.
func parseColor(s string) (rgba, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if hex, ok := strings.CutPrefix(s, "#"); ok {
		return parseHex(hex)
	}
	if s == "transparent" {
		return rgba{}, true
	}
	hex, ok := namedColors[s]
	if !ok {
		return rgba{}, false
	}
	return parseHex(hex)
}

// parseHex parses 3, 4, 6 or 8 hex digits (no '#').
func parseHex(h string) (rgba, bool) {
	switch len(h) {
	case 3, 4:
		// Each digit stands for itself twice: #abc is #aabbcc.
		var long strings.Builder
		for _, c := range h {
			long.WriteRune(c)
			long.WriteRune(c)
		}
		h = long.String()
	case 6, 8:
	default:
		return rgba{}, false
	}
	if len(h) == 6 {
		h += "ff"
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgba{}, false
	}
	return rgba{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}, true
}

// overWhite returns c composited over an opaque white background: the
// colour a translucent button shows on the light card. Opaque colours are
// returned unchanged.
func (c rgba) overWhite() rgba {
	if c.a == 255 {
		return c
	}
	mix := func(v uint8) uint8 {
		return uint8((int(v)*int(c.a) + 255*(255-int(c.a)) + 127) / 255)
	}
	return rgba{mix(c.r), mix(c.g), mix(c.b), 255}
}

// luminance is the relative luminance of an opaque colour as WCAG 2.2
// defines it: sRGB channels linearised, then weighted 0.2126, 0.7152,
// 0.0722. Black is 0, white is 1.
func (c rgba) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrastRatio is the WCAG contrast ratio of two opaque colours, from 1
// (no contrast) to 21 (black on white). The order of a and b does not
// matter.
func contrastRatio(a, b rgba) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

var (
	black = rgba{0, 0, 0, 255}
	white = rgba{255, 255, 255, 255}
)

// textOn returns the text colour for the background colour bg
// (composited over white if translucent): "#fff" when white contrasts
// with it by at least 4.5:1, as it does on most brand colours, else
// "#000". Black then reaches at least 4.67:1, since white falls short
// only on backgrounds whose luminance is above 0.183; so the answer
// always meets WCAG's 4.5:1, and white is kept where both would.
func textOn(bg rgba) string {
	if contrastRatio(bg.overWhite(), white) >= minTextContrast {
		return "#fff"
	}
	return "#000"
}

// namedColors maps the CSS Color Module Level 4 named colours (except
// "transparent", handled apart) to their hex values.
var namedColors = map[string]string{
	"aliceblue": "f0f8ff", "antiquewhite": "faebd7", "aqua": "00ffff",
	"aquamarine": "7fffd4", "azure": "f0ffff", "beige": "f5f5dc",
	"bisque": "ffe4c4", "black": "000000", "blanchedalmond": "ffebcd",
	"blue": "0000ff", "blueviolet": "8a2be2", "brown": "a52a2a",
	"burlywood": "deb887", "cadetblue": "5f9ea0", "chartreuse": "7fff00",
	"chocolate": "d2691e", "coral": "ff7f50", "cornflowerblue": "6495ed",
	"cornsilk": "fff8dc", "crimson": "dc143c", "cyan": "00ffff",
	"darkblue": "00008b", "darkcyan": "008b8b", "darkgoldenrod": "b8860b",
	"darkgray": "a9a9a9", "darkgreen": "006400", "darkgrey": "a9a9a9",
	"darkkhaki": "bdb76b", "darkmagenta": "8b008b", "darkolivegreen": "556b2f",
	"darkorange": "ff8c00", "darkorchid": "9932cc", "darkred": "8b0000",
	"darksalmon": "e9967a", "darkseagreen": "8fbc8f", "darkslateblue": "483d8b",
	"darkslategray": "2f4f4f", "darkslategrey": "2f4f4f", "darkturquoise": "00ced1",
	"darkviolet": "9400d3", "deeppink": "ff1493", "deepskyblue": "00bfff",
	"dimgray": "696969", "dimgrey": "696969", "dodgerblue": "1e90ff",
	"firebrick": "b22222", "floralwhite": "fffaf0", "forestgreen": "228b22",
	"fuchsia": "ff00ff", "gainsboro": "dcdcdc", "ghostwhite": "f8f8ff",
	"gold": "ffd700", "goldenrod": "daa520", "gray": "808080",
	"green": "008000", "greenyellow": "adff2f", "grey": "808080",
	"honeydew": "f0fff0", "hotpink": "ff69b4", "indianred": "cd5c5c",
	"indigo": "4b0082", "ivory": "fffff0", "khaki": "f0e68c",
	"lavender": "e6e6fa", "lavenderblush": "fff0f5", "lawngreen": "7cfc00",
	"lemonchiffon": "fffacd", "lightblue": "add8e6", "lightcoral": "f08080",
	"lightcyan": "e0ffff", "lightgoldenrodyellow": "fafad2", "lightgray": "d3d3d3",
	"lightgreen": "90ee90", "lightgrey": "d3d3d3", "lightpink": "ffb6c1",
	"lightsalmon": "ffa07a", "lightseagreen": "20b2aa", "lightskyblue": "87cefa",
	"lightslategray": "778899", "lightslategrey": "778899", "lightsteelblue": "b0c4de",
	"lightyellow": "ffffe0", "lime": "00ff00", "limegreen": "32cd32",
	"linen": "faf0e6", "magenta": "ff00ff", "maroon": "800000",
	"mediumaquamarine": "66cdaa", "mediumblue": "0000cd", "mediumorchid": "ba55d3",
	"mediumpurple": "9370db", "mediumseagreen": "3cb371", "mediumslateblue": "7b68ee",
	"mediumspringgreen": "00fa9a", "mediumturquoise": "48d1cc", "mediumvioletred": "c71585",
	"midnightblue": "191970", "mintcream": "f5fffa", "mistyrose": "ffe4e1",
	"moccasin": "ffe4b5", "navajowhite": "ffdead", "navy": "000080",
	"oldlace": "fdf5e6", "olive": "808000", "olivedrab": "6b8e23",
	"orange": "ffa500", "orangered": "ff4500", "orchid": "da70d6",
	"palegoldenrod": "eee8aa", "palegreen": "98fb98", "paleturquoise": "afeeee",
	"palevioletred": "db7093", "papayawhip": "ffefd5", "peachpuff": "ffdab9",
	"peru": "cd853f", "pink": "ffc0cb", "plum": "dda0dd",
	"powderblue": "b0e0e6", "purple": "800080", "rebeccapurple": "663399",
	"red": "ff0000", "rosybrown": "bc8f8f", "royalblue": "4169e1",
	"saddlebrown": "8b4513", "salmon": "fa8072", "sandybrown": "f4a460",
	"seagreen": "2e8b57", "seashell": "fff5ee", "sienna": "a0522d",
	"silver": "c0c0c0", "skyblue": "87ceeb", "slateblue": "6a5acd",
	"slategray": "708090", "slategrey": "708090", "snow": "fffafa",
	"springgreen": "00ff7f", "steelblue": "4682b4", "tan": "d2b48c",
	"teal": "008080", "thistle": "d8bfd8", "tomato": "ff6347",
	"turquoise": "40e0d0", "violet": "ee82ee", "wheat": "f5deb3",
	"white": "ffffff", "whitesmoke": "f5f5f5", "yellow": "ffff00",
	"yellowgreen": "9acd32",
}
