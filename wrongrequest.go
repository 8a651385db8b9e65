package gatehouse

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/gatehouse-auth/gatehouse/internal/httpx"
	"github.com/gatehouse-auth/gatehouse/pages"
)

// wrongAnswer is the answer to a request that no route takes: a small
// page for a browser (Accept: text/html), JSON for anything else. Both
// are built once, at New, so that a stream of wrong requests costs no
// rendering.
type wrongAnswer struct {
	status int
	page   httpx.Response // the page, headers and all
	json   []byte
}

// newWrongAnswer renders the answer of status, in the built-in pages' look.
func (h *Handler) newWrongAnswer(status int, title, message string) (*wrongAnswer, error) {
	a := &wrongAnswer{status: status}
	signIn := h.cfg.BasePath + "/signin"
	if h.cfg.Pages.SignIn != "" {
		signIn = h.cfg.Pages.SignIn
	}
	if err := pages.Render(&a.page, status, pages.Notice{Theme: h.cfg.Theme, Title: title, Message: message,
		LinkURL: signIn, LinkText: "Sign in"}); err != nil {
		return nil, err
	}
	var js httpx.Response
	httpx.WriteJSON(&js, status, map[string]string{"message": title + "."})
	a.json = js.Body()
	return a, nil
}

// write sends the answer, the page when r asks for HTML.
func (a *wrongAnswer) write(w http.ResponseWriter, r *http.Request) {
	if !httpx.AcceptsHTML(r) {
		httpx.WriteJSONBytes(w, a.status, a.json)
		return
	}
	a.page.WriteTo(w)
}

// newWrongAnswers builds the 404 and 405 answers.
func (h *Handler) newWrongAnswers() (err error) {
	if h.notFoundAnswer, err = h.newWrongAnswer(http.StatusNotFound, "Not found",
		"There is nothing at this address."); err != nil {
		return err
	}
	h.methodAnswer, err = h.newWrongAnswer(http.StatusMethodNotAllowed, "Method not allowed",
		"This address does not take that kind of request.")
	return err
}

// notFound answers a path under the base path that is no route: 404.
func (h *Handler) notFound(w http.ResponseWriter, r *http.Request) { h.notFoundAnswer.write(w, r) }

// methodNotAllowed answers a route asked with a method it does not take:
// 405, with the methods it takes in Allow.
func (h *Handler) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	path := "/"
	if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
		path = rctx.RoutePath
	}
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		if h.routes.Match(chi.NewRouteContext(), m, path) {
			allow = append(allow, m)
		}
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	h.methodAnswer.write(w, r)
}
