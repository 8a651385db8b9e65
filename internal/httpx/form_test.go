package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestFormAnswer: a program gets the route's JSON as it is; a browser's
// form is answered by page, with the route's status, its JSON decoded
// and its cookies kept.
func TestFormAnswer(t *testing.T) {
	next := func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "c", Value: "v"})
		WriteJSON(w, http.StatusConflict, map[string]string{"code": "taken"})
	}
	var got struct {
		status int
		code   string
	}
	h := FormAnswer(next, func(w http.ResponseWriter, r *http.Request, status int, body struct{ Code string }) {
		got.status, got.code = status, body.Code
		w.WriteHeader(http.StatusSeeOther)
	})

	w := httptest.NewRecorder()
	h(w, httptest.NewRequest("POST", "/x", nil))
	if w.Code != http.StatusConflict || got.status != 0 {
		t.Errorf("a program's request: %d, page called with %d; want 409 and no page", w.Code, got.status)
	}

	w = httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/x", nil)
	r.Header.Set("Accept", "text/html")
	h(w, r)
	if w.Code != http.StatusSeeOther || got.status != http.StatusConflict || got.code != "taken" {
		t.Errorf("a browser's form: %d, page got %d %q; want 303, page 409 taken", w.Code, got.status, got.code)
	}
	if c := w.Result().Cookies(); len(c) != 1 || c[0].Name != "c" {
		t.Errorf("a browser's form lost the route's cookie: %v", c)
	}
}
