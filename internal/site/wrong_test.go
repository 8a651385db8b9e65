package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/pages"
)

// TestWrongAnswer: a browser gets the page in its language, linking to
// the sign-in page; any other client the JSON message; both with the
// answer's status.
func TestWrongAnswer(t *testing.T) {
	a, err := NewWrongAnswer(pages.Theme{}, "/login", http.StatusNotFound, "wrong.notFound", "wrong.notFoundText")
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/auth/nothing", nil)
	w := httptest.NewRecorder()
	a.Write(w, r, pages.LanguageFor("en"))
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"message":"`+pages.Text("en", "wrong.notFound")+`."`) {
		t.Errorf("JSON: %d %s", w.Code, w.Body)
	}
	r.Header.Set("Accept", "text/html")
	for _, tag := range []string{"en", "de", "xx"} {
		w := httptest.NewRecorder()
		a.Write(w, r, pages.LanguageFor(tag))
		want := pages.Text(pages.LanguageFor(tag).Tag, "wrong.notFoundText")
		if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `href="/login"`) || !strings.Contains(w.Body.String(), want) {
			t.Errorf("%s page: %d, lacks the link or %q", tag, w.Code, want)
		}
	}
}
