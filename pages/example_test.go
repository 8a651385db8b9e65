package pages_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/gatehouse-auth/gatehouse/pages"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// ExampleRender renders the sign-in page, as GET {base}/signin does, into
// a ResponseRecorder.
func ExampleRender() {
	page := pages.SignIn{
		Theme:       pages.Theme{BrandColor: "#0f766e"},
		CSRFToken:   "4b3c…",
		CallbackURL: "/dashboard",
		Error:       "OAuthAccountNotLinked",
		OAuth: []pages.Button{{
			ID:        "github",
			Name:      "GitHub",
			SigninURL: "/auth/signin/github",
			Style:     providers.Style{BrandColor: "#24292f"},
		}},
		Forms: []pages.Form{pages.EmailForm{ID: "email", Name: "Email", SigninURL: "/auth/signin/email"}},
	}

	rec := httptest.NewRecorder()
	if err := pages.Render(rec, 200, page); err != nil {
		fmt.Println(err)
		return
	}
	body := rec.Body.String()
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(strings.Contains(body, "Sign in with GitHub"))
	fmt.Println(strings.Contains(body, pages.ErrorMessage(page.Error)))
	fmt.Println(pages.ErrorStatus("AccessDenied"))
	// Output:
	// 200 text/html; charset=utf-8
	// true
	// true
	// 403
}
