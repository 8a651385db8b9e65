package site

import (
	"net/http"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// WrongAnswer is the answer to a request that no route takes: a small
// page for a browser (Accept: text/html), JSON for anything else. Both
// are built once, the page in every language there are messages for, so
// that a stream of wrong requests costs no rendering.
type WrongAnswer struct {
	status int
	page   map[string]*httpx.Response // by language tag: the page, headers and all
	json   []byte
}

// NewWrongAnswer renders the answer of status in theme's look, its page
// linking to the sign-in page at signIn. title and message are catalogue
// keys (pages.Text); the JSON answer is in English.
func NewWrongAnswer(theme pages.Theme, signIn string, status int, title, message string) (*WrongAnswer, error) {
	a := &WrongAnswer{status: status, page: map[string]*httpx.Response{}}
	for _, tag := range pages.Languages() {
		lang := pages.LanguageFor(tag)
		page := &httpx.Response{}
		if err := pages.RenderIn(page, lang, status, pages.Notice{Theme: theme, Title: pages.Text(lang.Tag, title),
			Message: pages.Text(lang.Tag, message), LinkURL: signIn, LinkText: pages.Text(lang.Tag, "signin.title")}); err != nil {
			return nil, err
		}
		a.page[lang.Tag] = page
	}
	var js httpx.Response
	httpx.WriteJSON(&js, status, map[string]string{"message": pages.Text("en", title) + "."})
	a.json = js.Body()
	return a, nil
}

// Write sends the answer, the page in lang when r asks for HTML.
func (a *WrongAnswer) Write(w http.ResponseWriter, r *http.Request, lang pages.Language) {
	if !httpx.AcceptsHTML(r) {
		httpx.WriteJSONBytes(w, a.status, a.json)
		return
	}
	page, ok := a.page[lang.Tag]
	if !ok {
		page = a.page["en"]
	}
	page.WriteTo(w)
}
