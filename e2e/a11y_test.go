package e2e

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// checkAccessible checks the page as it is now, in the browser's own
// terms: every control in the accessibility tree has a name, the page has
// a language and one level-1 heading, and every piece of visible text
// contrasts with what is behind it by WCAG 2.2's minimum (4.5:1, or 3:1
// for large text). It runs in both colour schemes.
func checkAccessible(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	checkNames(t, ctx, page)
	for _, scheme := range []string{"light", "dark"} {
		if err := chromedp.Do(ctx, setColorScheme(scheme)); err != nil {
			t.Fatal(err)
		}
		checkContrast(t, ctx, page+" ("+scheme+")")
	}
	if err := chromedp.Do(ctx, setColorScheme("light")); err != nil {
		t.Fatal(err)
	}
}

// checkNames reads Chromium's accessibility tree.
func checkNames(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	tree, err := chromedp.Run(ctx, chromedp.Action[*accessibility.GetFullAXTreeResult](func(ctx context.Context, tg *chromedp.Target) (*accessibility.GetFullAXTreeResult, error) {
		r, err := cdp.Call(ctx, tg, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		return &r, err
	}))
	if err != nil {
		t.Fatalf("%s: reading the accessibility tree: %v", page, err)
	}
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		_ = json.Unmarshal(v.Value, &s)
		return s
	}
	controls, h1 := 0, 0
	for _, n := range tree.Nodes {
		if n.Ignored {
			continue
		}
		role, name := str(n.Role), strings.TrimSpace(str(n.Name))
		switch role {
		case "button", "link", "textbox", "checkbox", "combobox", "searchbox", "spinbutton":
			controls++
			if name == "" {
				t.Errorf("%s: a %s has no accessible name", page, role)
			}
			if strings.HasPrefix(name, "D ") || strings.HasPrefix(name, "G ") {
				t.Errorf("%s: the %s %q includes its decorative badge", page, role, name)
			}
		case "heading":
			for _, p := range n.Properties {
				if p.Name == accessibility.PropertyNameLevel && string(p.Value.Value) == "1" {
					h1++
				}
			}
		}
	}
	if controls == 0 {
		t.Errorf("%s: no controls in the accessibility tree", page)
	}
	if h1 != 1 {
		t.Errorf("%s: %d level-1 headings, want 1", page, h1)
	}
	lang, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	if err != nil || lang == "" {
		t.Errorf("%s: no document language (%v)", page, err)
	}
}

// textColours lists, for each visible element with its own text, its
// colour, the colour behind it (ancestors' backgrounds blended down to
// the first opaque one), and whether the text is large.
const textColours = `(() => {
	const parse = (s) => { const m = s.match(/[\d.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
	const over = (top, under) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
	const behind = (el) => {
		const layers = [];
		for (let e = el; e; e = e.parentElement) {
			const c = parse(getComputedStyle(e).backgroundColor);
			if (c[3] > 0) layers.push(c);
			if (c[3] >= 1) break;
		}
		let bg = [255, 255, 255, 1];
		for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
		return bg;
	};
	const out = [];
	for (const el of document.querySelectorAll("body *")) {
		const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== "");
		const r = el.getBoundingClientRect();
		if (!own || r.width === 0 || r.height === 0) continue;
		const s = getComputedStyle(el);
		const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight, 10) >= 700;
		const fg = parse(s.color), bg = behind(el);
		out.push({what: el.tagName.toLowerCase() + (el.className ? "." + String(el.className).replace(/ /g, ".") : "") + " " + JSON.stringify(el.textContent.trim().slice(0, 30)),
			fg: over(fg, bg).slice(0, 3).join(","), bg: bg.slice(0, 3).join(","), large: size >= 24 || (bold && size >= 18.66)});
	}
	return out;
})()`

type textColour struct {
	What  string `json:"what"`
	FG    string `json:"fg"`
	BG    string `json:"bg"`
	Large bool   `json:"large"`
}

func checkContrast(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	items, err := chromedp.Run(ctx, chromedp.Evaluate[[]textColour](textColours))
	if err != nil {
		t.Fatalf("%s: reading colours: %v", page, err)
	}
	if len(items) == 0 {
		t.Fatalf("%s: no text found", page)
	}
	for _, it := range items {
		min := 4.5
		if it.Large {
			min = 3
		}
		if r := contrast(rgb(it.FG), rgb(it.BG)); r < min {
			t.Errorf("%s: %s: text rgb(%s) on rgb(%s) has contrast %.2f:1, want %.1f:1", page, it.What, it.FG, it.BG, r, min)
		}
	}
}

// rgb parses "r,g,b" with channels 0 to 255.
func rgb(s string) [3]float64 {
	var c [3]float64
	for i, p := range strings.SplitN(s, ",", 3) {
		c[i], _ = strconv.ParseFloat(strings.TrimSpace(p), 64)
	}
	return c
}

// contrast is WCAG 2.2's contrast ratio of two sRGB colours.
func contrast(a, b [3]float64) float64 {
	lum := func(c [3]float64) float64 {
		var l [3]float64
		for i, v := range c {
			v /= 255
			if v <= 0.04045 {
				l[i] = v / 12.92
			} else {
				l[i] = math.Pow((v+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// focusStop is one element the Tab key reached.
type focusStop struct {
	What         string `json:"what"`
	FocusVisible bool   `json:"focusVisible"`
	Outline      string `json:"outline"`
	Width        string `json:"width"`
}

// tabThrough presses Tab until focus comes back to where it started (at
// most limit times) and returns the elements it stopped on, each with
// its focus ring. It fails the test when an element the keyboard reached
// shows no ring of at least 2px.
func tabThrough(t *testing.T, ctx context.Context, page string, limit int) []focusStop {
	t.Helper()
	var stops []focusStop
	seen := map[string]bool{}
	for i := 0; i < limit; i++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		s, err := chromedp.Run(ctx, chromedp.Evaluate[focusStop](`(() => {
			const e = document.activeElement;
			if (!e || e === document.body) return {what: ""};
			const s = getComputedStyle(e);
			const path = (u) => new URL(u, location.href).pathname;
			const name = e.tagName.toLowerCase() + (e.name ? "[name=" + e.name + "]" : "") + (e.form ? "@" + path(e.form.action) : "") + (e.href ? "@" + path(e.href) : "");
			return {what: name, focusVisible: e.matches(":focus-visible"), outline: s.outlineStyle, width: s.outlineWidth};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if s.What == "" {
			continue // focus left the document (the browser's own UI)
		}
		if seen[s.What] {
			break
		}
		seen[s.What] = true
		stops = append(stops, s)
		w, _ := strconv.ParseFloat(strings.TrimSuffix(s.Width, "px"), 64)
		if !s.FocusVisible || s.Outline == "none" || w < 2 {
			t.Errorf("%s: %s has no visible focus ring after Tab (%+v)", page, s.What, s)
		}
	}
	return stops
}

func (s focusStop) String() string { return s.What }
