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
	c := providers.OAuthDefaults(ID, Name, e, MapProfile, providers.Style{BrandColor: "#fff", Icon: Icon})
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

// mapProfile is the mapping of MapProfile, which documents it; MapProfile
// refuses the user it gives when that has no id.
func mapProfile(_ context.Context, p Profile, _ account.TokenSet) (profile.User, error) {
	id := p.UnionID
	if id == "" {
		id = p.OpenID
	}
	return profile.User{ID: id, Name: p.Nickname, Image: p.HeadImgURL}, nil
}
