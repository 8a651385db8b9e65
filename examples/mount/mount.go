// Package mount shows the Handler mounted in gin and echo, the routers
// that are not in the library's own go.mod: this directory is a module of
// its own (its tests run the whole sign-in through each). The Handler
// answers its routes whether the path it is given still has the base path
// (these routers, http.ServeMux, chi) or not (http.StripPrefix), and
// makes every link on Config.URL / Config.BasePath; mount it where
// Config.URL says it lives.
package mount

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"github.com/gatehouse-auth/gatehouse"
)

// Gin returns a gin site with the Handler at /auth (Config.URL
// "https://app.example.com/auth"), the application's private page (wrap it
// in Require) at /private and another page at /page, all behind the
// Handler's Middleware.
func Gin(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
	return ginSite(auth, private, page, "")
}

// GinGroup is Gin with the Handler in a group: at /api/auth (Config.URL
// "https://app.example.com/api/auth").
func GinGroup(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
	return ginSite(auth, private, page, "/api")
}

// ginSite is Gin with the Handler in the group at prefix ("" for none).
func ginSite(auth *gatehouse.Handler, private, page http.Handler, prefix string) http.Handler {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Group(prefix).Any("/auth/*path", gin.WrapH(auth))
	r.GET("/private", gin.WrapH(private))
	r.GET("/page", gin.WrapH(page))
	return auth.Middleware(r)
}

// Echo is Gin for echo.
func Echo(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
	return echoSite(auth, private, page, "")
}

// EchoGroup is GinGroup for echo.
func EchoGroup(auth *gatehouse.Handler, private, page http.Handler) http.Handler {
	return echoSite(auth, private, page, "/api")
}

// echoSite is ginSite for echo.
func echoSite(auth *gatehouse.Handler, private, page http.Handler, prefix string) http.Handler {
	e := echo.New()
	e.HideBanner = true
	e.Group(prefix).Any("/auth/*", echo.WrapHandler(auth))
	e.GET("/private", echo.WrapHandler(private))
	e.GET("/page", echo.WrapHandler(page))
	return auth.Middleware(e)
}
