// Package wechat is the built-in WeChat provider (OAuth 2.0 as WeChat runs
// it): its endpoints, the user info record, and the mapping of that record
// to a user.
//
// WeChat departs from OAuth 2.0 in ways that need handlers:
//
//   - The client id is called appid, and the authorization request must
//     carry it under that name, so New must be given the client id.
//   - The token request is a GET whose query holds appid, secret, code
//     and grant_type; the answer has no token_type, names the user
//     (openid, and unionid when the app is bound to a WeChat Open
//     Platform account), and reports errors with status 200 and an
//     errcode. Exchange does that request.
//   - The user info request takes access_token, openid and lang in its
//     query, not a Bearer header. Userinfo does that request.
//
// There are two kinds of WeChat login: inside the WeChat app for an
// Official Account (New, scope snsapi_userinfo) and by QR code on a web
// site (NewWebsiteApp, scope snsapi_login). The callback checks state.
//
// Auth.js maps the user's id from unionid alone, which is absent unless
// the app is bound to an Open Platform account; here the id is unionid
// when WeChat sends it and openid otherwise. An app that is bound later
// sees its users' ids change from openid to unionid: bind first.
//
//	p := wechat.New(providers.OAuthUserConfig[wechat.Profile]{
//		ClientID:     os.Getenv("AUTH_WECHAT_ID"), // the AppID
//		ClientSecret: os.Getenv("AUTH_WECHAT_SECRET"),
//	})
package wechat

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

// The provider's facts.
const (
	// ID is the provider id, part of its URLs.
	ID = "wechat"
	// Name is the display name.
	Name = "WeChat"
	// AuthorizationURL is where a user inside WeChat consents (Official
	// Account web pages).
	AuthorizationURL = "https://open.weixin.qq.com/connect/oauth2/authorize"
	// QRConnectURL is where a web site's user scans a QR code (Website
	// App).
	QRConnectURL = "https://open.weixin.qq.com/connect/qrconnect"
	// TokenURL exchanges the code for tokens; see Exchange.
	TokenURL = "https://api.weixin.qq.com/sns/oauth2/access_token"
	// UserinfoURL answers the Profile; see Userinfo.
	UserinfoURL = "https://api.weixin.qq.com/sns/userinfo"
	// Scope asks an Official Account's user for their profile.
	Scope = "snsapi_userinfo"
	// WebsiteAppScope is the scope of QR code login.
	WebsiteAppScope = "snsapi_login"
)

// Profile is the answer of GET /sns/userinfo.
type Profile struct {
	// OpenID is the user's id for this app.
	OpenID string `json:"openid"`
	// Nickname is the user's nickname.
	Nickname string `json:"nickname"`
	// Sex is 1 for male, 2 for female, 0 when unknown.
	Sex int `json:"sex"`
	// Province is the user's province.
	Province string `json:"province"`
	// City is the user's city.
	City string `json:"city"`
	// Country is the user's country.
	Country string `json:"country"`
	// HeadImgURL is the user's avatar; empty when the user has none.
	HeadImgURL string `json:"headimgurl"`
	// Privilege lists the user's privileges, e.g. "chinaunicom".
	Privilege []string `json:"privilege"`
	// UnionID is the user's id across the apps of one Open Platform
	// account; absent when the app is not bound to one.
	UnionID string `json:"unionid,omitempty"`
}

// New returns the WeChat Official Account configuration with opts laid
// over its defaults by providers.Merge.
func New(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	return providers.Merge(Defaults(opts.ClientID), opts)
}

// NewWebsiteApp returns the WeChat Website App (QR code login)
// configuration with opts laid over its defaults by providers.Merge.
func NewWebsiteApp(opts providers.OAuthUserConfig[Profile]) providers.OAuthConfig[Profile] {
	d := Defaults(opts.ClientID)
	d.Authorization.URL = QRConnectURL
	d.Authorization.Params["scope"] = WebsiteAppScope
	return providers.Merge(d, opts)
}

// Defaults returns the Official Account configuration for the AppID appID
// before any user option.
func Defaults(appID string) providers.OAuthConfig[Profile] {
	e := providers.Endpoints(AuthorizationURL, TokenURL, UserinfoURL, Scope)
	e.AuthorizationParams["appid"] = appID
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#fff"})
	c.Token.Request = Exchange
	c.Userinfo.Request = Userinfo
	c.Checks = []providers.Check{providers.CheckState}
	return c
}

// apiError is the error part of a WeChat API answer.
type apiError struct {
	ErrCode int    `json:"errcode"`
	ErrMsg  string `json:"errmsg"`
}

func (e apiError) err(what string) error {
	if e.ErrCode == 0 {
		return nil
	}
	return fmt.Errorf("wechat: %s answered errcode %d: %s", what, e.ErrCode, e.ErrMsg)
}

// Exchange is WeChat's token request: a GET of r.URL with appid, secret,
// code and grant_type=authorization_code in the query. An answer with a
// non-zero errcode is an error; token_type, which WeChat leaves out, is
// set to "bearer". openid and unionid stay in the token set's Extra.
func Exchange(ctx context.Context, r providers.TokenRequest) (account.TokenSet, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return account.TokenSet{}, err
	}
	q := u.Query()
	q.Set("appid", r.ClientID)
	q.Set("secret", r.ClientSecret)
	q.Set("code", r.Code)
	q.Set("grant_type", "authorization_code")
	u.RawQuery = q.Encode()

	var t account.TokenSet
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, u.String(), "", nil, nil, &t); err != nil {
		return account.TokenSet{}, err
	}
	code, _ := t.Extra["errcode"].(float64)
	msg, _ := t.Extra["errmsg"].(string)
	if err := (apiError{int(code), msg}).err("the token request"); err != nil {
		return account.TokenSet{}, err
	}
	if t.AccessToken == "" {
		return account.TokenSet{}, errors.New("wechat: the token answer has no access_token")
	}
	if t.TokenType == "" {
		t.TokenType = "bearer"
	}
	t.Normalize(time.Now())
	return t, nil
}

// Userinfo is WeChat's user info request: a GET of r.URL with
// access_token, openid (from the token response) and lang=zh_CN in the
// query. An answer with a non-zero errcode is an error.
func Userinfo(ctx context.Context, r providers.UserinfoRequest) (Profile, error) {
	openID, _ := r.Tokens.Extra["openid"].(string)
	if openID == "" {
		return Profile{}, errors.New("wechat: the token response has no openid")
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return Profile{}, err
	}
	q := u.Query()
	q.Set("access_token", r.Tokens.AccessToken)
	q.Set("openid", openID)
	q.Set("lang", "zh_CN")
	u.RawQuery = q.Encode()

	var answer struct {
		Profile
		apiError
	}
	if err := providers.FetchJSON(ctx, r.HTTPClient, http.MethodGet, u.String(), "", nil, nil, &answer); err != nil {
		return Profile{}, err
	}
	if err := answer.err("the user info request"); err != nil {
		return Profile{}, err
	}
	return answer.Profile, nil
}

// MapProfile maps a WeChat user to a user: id ← unionid, else openid;
// name ← nickname; no e-mail (WeChat does not give it); image ←
// headimgurl.
func MapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.UnionID
	if id == "" {
		id = p.OpenID
	}
	return profile.User{ID: id, Name: p.Nickname, Image: p.HeadImgURL}, nil
}
