package yandex

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestDefaults(t *testing.T) {
	c := New(providers.OAuthUserConfig[Profile]{ClientID: "cid", ClientSecret: "sec"})
	o := c.OAuth()
	if o.ID != "yandex" || o.Name != "Yandex" || o.Type != providers.TypeOAuth {
		t.Fatalf("base = %+v", o.Base)
	}
	if o.Authorization.URL != "https://oauth.yandex.ru/authorize" {
		t.Errorf("authorization = %q", o.Authorization.URL)
	}
	if s, ok := o.Authorization.Scope(); !ok || s != "login:info login:email login:avatar" {
		t.Errorf("scope = %q, %v", s, ok)
	}
	if o.Token.URL != "https://oauth.yandex.ru/token" || o.Token.Request != nil {
		t.Errorf("token = %+v", o.Token)
	}
	if o.UserinfoURL != "https://login.yandex.ru/info?format=json" || o.UserinfoRequest != nil {
		t.Errorf("userinfo = %q", o.UserinfoURL)
	}
	if o.Style != (providers.Style{BrandColor: "#ffcc00"}) {
		t.Errorf("style = %+v", o.Style)
	}
	if got := o.EffectiveChecks(false); !reflect.DeepEqual(got, []providers.Check{providers.CheckPKCE}) {
		t.Errorf("checks = %v, want [pkce]", got)
	}
	if o.Client != (providers.Client{}) || o.Issuer != "" || o.WellKnown != "" || o.AllowDangerousEmailAccountLinking {
		t.Errorf("unexpected defaults: %+v", o)
	}
	if o.ClientID != "cid" || o.ClientSecret != "sec" {
		t.Errorf("credentials = %q %q", o.ClientID, o.ClientSecret)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if reflect.ValueOf(c.Profile).Pointer() != reflect.ValueOf(MapProfile).Pointer() {
		t.Error("default profile mapping is not MapProfile")
	}
}

func customProfile(context.Context, Profile, account.TokenSet) (profile.User, error) {
	return profile.User{ID: "custom"}, nil
}

func customAccount(context.Context, account.TokenSet) (*account.TokenSet, error) { return nil, nil }

func customToken(context.Context, providers.TokenRequest) (account.TokenSet, error) {
	return account.TokenSet{AccessToken: "custom"}, nil
}

func customUserinfo(context.Context, providers.UserinfoRequest) (Profile, error) {
	return Profile{ID: "custom"}, nil
}

// data is the part of a configuration that == can compare; funcs are
// compared by identity through funcs.
type data struct {
	ID, Name                          string
	Type                              providers.ProviderType
	AllowDangerousEmailAccountLinking bool
	AuthURL                           string
	AuthParams                        string
	TokenURL, TokenParams             string
	UserinfoURL, UserinfoParams       string
	Checks                            string
	Client                            providers.Client
	ClientID, ClientSecret, Issuer    string
	JWKSEndpoint, RedirectProxyURL    string
	Style                             providers.Style
	WellKnown                         string
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

func dataOf(c providers.OAuthConfig[Profile]) data {
	return data{
		c.ID, c.Name, c.Type, c.AllowDangerousEmailAccountLinking,
		c.Authorization.URL, js(c.Authorization.Params),
		c.Token.URL, js(c.Token.Params),
		c.Userinfo.URL, js(c.Userinfo.Params),
		js(c.Checks), c.Client, c.ClientID, c.ClientSecret, c.Issuer,
		c.JWKSEndpoint, c.RedirectProxyURL, c.Style, c.WellKnown,
	}
}

func ptr(f any) uintptr {
	v := reflect.ValueOf(f)
	if v.IsNil() {
		return 0
	}
	return v.Pointer()
}

func funcs(c providers.OAuthConfig[Profile]) [4]uintptr {
	return [4]uintptr{ptr(c.Account), ptr(c.Token.Request), ptr(c.Userinfo.Request), ptr(c.Profile)}
}

// TestNewMerge checks providers.Merge's rule: each user option replaces its
// default, nothing else changes, and the type stays "oauth".
func TestNewMerge(t *testing.T) {
	tests := []struct {
		name string
		opts providers.OAuthUserConfig[Profile]
		want func(c *providers.OAuthConfig[Profile])
	}{
		{"none", providers.OAuthUserConfig[Profile]{}, func(*providers.OAuthConfig[Profile]) {}},
		{"id", providers.OAuthUserConfig[Profile]{ID: "yandex-2"}, func(c *providers.OAuthConfig[Profile]) { c.ID = "yandex-2" }},
		{"name", providers.OAuthUserConfig[Profile]{Name: "Яндекс"}, func(c *providers.OAuthConfig[Profile]) { c.Name = "Яндекс" }},
		{"client id and secret", providers.OAuthUserConfig[Profile]{ClientID: "a", ClientSecret: "b"}, func(c *providers.OAuthConfig[Profile]) { c.ClientID, c.ClientSecret = "a", "b" }},
		{"linking", providers.OAuthUserConfig[Profile]{AllowDangerousEmailAccountLinking: true}, func(c *providers.OAuthConfig[Profile]) { c.AllowDangerousEmailAccountLinking = true }},
		{"authorization url", providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{URL: "https://oauth.yandex.com/authorize"}},
			func(c *providers.OAuthConfig[Profile]) { c.Authorization.URL = "https://oauth.yandex.com/authorize" }},
		{"scope replaces", providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"scope": "login:info"}}},
			func(c *providers.OAuthConfig[Profile]) {
				c.Authorization.Params = map[string]string{"scope": "login:info"}
			}},
		{"extra param keeps scope", providers.OAuthUserConfig[Profile]{Authorization: providers.AuthorizationEndpoint{Params: map[string]string{"force_confirm": "yes"}}},
			func(c *providers.OAuthConfig[Profile]) {
				c.Authorization.Params = map[string]string{"scope": Scope, "force_confirm": "yes"}
			}},
		{"token url", providers.OAuthUserConfig[Profile]{Token: providers.TokenEndpoint{URL: "https://oauth.yandex.com/token"}},
			func(c *providers.OAuthConfig[Profile]) { c.Token.URL = "https://oauth.yandex.com/token" }},
		{"token request", providers.OAuthUserConfig[Profile]{Token: providers.TokenEndpoint{Request: customToken}},
			func(c *providers.OAuthConfig[Profile]) { c.Token.Request = customToken }},
		{"userinfo url", providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{URL: "https://login.yandex.com/info"}},
			func(c *providers.OAuthConfig[Profile]) { c.Userinfo.URL = "https://login.yandex.com/info" }},
		{"userinfo request", providers.OAuthUserConfig[Profile]{Userinfo: providers.UserinfoEndpoint[Profile]{Request: customUserinfo}},
			func(c *providers.OAuthConfig[Profile]) { c.Userinfo.Request = customUserinfo }},
		{"checks", providers.OAuthUserConfig[Profile]{Checks: []providers.Check{providers.CheckState}},
			func(c *providers.OAuthConfig[Profile]) { c.Checks = []providers.Check{providers.CheckState} }},
		{"client", providers.OAuthUserConfig[Profile]{Client: providers.Client{TokenEndpointAuthMethod: providers.AuthClientSecretPost}},
			func(c *providers.OAuthConfig[Profile]) {
				c.Client.TokenEndpointAuthMethod = providers.AuthClientSecretPost
			}},
		{"issuer", providers.OAuthUserConfig[Profile]{Issuer: "https://oauth.yandex.ru"}, func(c *providers.OAuthConfig[Profile]) { c.Issuer = "https://oauth.yandex.ru" }},
		{"jwks", providers.OAuthUserConfig[Profile]{JWKSEndpoint: "https://x/jwks"}, func(c *providers.OAuthConfig[Profile]) { c.JWKSEndpoint = "https://x/jwks" }},
		{"well-known", providers.OAuthUserConfig[Profile]{WellKnown: "https://x/.well-known/x"}, func(c *providers.OAuthConfig[Profile]) { c.WellKnown = "https://x/.well-known/x" }},
		{"redirect proxy", providers.OAuthUserConfig[Profile]{RedirectProxyURL: "https://proxy/auth"}, func(c *providers.OAuthConfig[Profile]) { c.RedirectProxyURL = "https://proxy/auth" }},
		{"profile", providers.OAuthUserConfig[Profile]{Profile: customProfile}, func(c *providers.OAuthConfig[Profile]) { c.Profile = customProfile }},
		{"account", providers.OAuthUserConfig[Profile]{Account: customAccount}, func(c *providers.OAuthConfig[Profile]) { c.Account = customAccount }},
		{"brand color keeps bg", providers.OAuthUserConfig[Profile]{Style: providers.Style{BrandColor: "#fc3f1d"}},
			func(c *providers.OAuthConfig[Profile]) { c.Style.BrandColor = "#fc3f1d" }},
		{"style bg", providers.OAuthUserConfig[Profile]{Style: providers.Style{BrandColor: "#fff", Logo: "/y.svg"}},
			func(c *providers.OAuthConfig[Profile]) { c.Style.BrandColor, c.Style.Logo = "#fff", "/y.svg" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := Defaults()
			tt.want(&want)
			got := New(tt.opts)
			if got.Type != providers.TypeOAuth {
				t.Fatalf("type = %q", got.Type)
			}
			if dataOf(got) != dataOf(want) {
				t.Errorf("config\n got %+v\nwant %+v", dataOf(got), dataOf(want))
			}
			if funcs(got) != funcs(want) {
				t.Errorf("callbacks differ: got %v, want %v", funcs(got), funcs(want))
			}
		})
	}
	// The defaults are not shared: changing one configuration's params
	// leaves the next New alone.
	a := New(providers.OAuthUserConfig[Profile]{})
	a.Authorization.Params["scope"] = "changed"
	if s, _ := New(providers.OAuthUserConfig[Profile]{}).Authorization.Scope(); s != Scope {
		t.Fatalf("defaults shared between configurations: scope %q", s)
	}
}

// The answers below are shaped as login.yandex.ru/info?format=json
// answers them, with made-up values.
const (
	fullAnswer = `{
		"id": "1000034426",
		"login": "ivan",
		"client_id": "4760187d81bc4b7799476b42b5103713",
		"psuid": "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
		"display_name": "Ivan",
		"real_name": "Ivan Ivanov",
		"first_name": "Иван",
		"last_name": "Иванов",
		"sex": "male",
		"default_email": "test@yandex.ru",
		"emails": ["test@yandex.ru", "other-test@yandex.ru"],
		"birthday": "1987-03-12",
		"default_avatar_id": "131652443",
		"is_avatar_empty": false,
		"default_phone": {"id": 12345678, "number": "+79037659418"}
	}`
	stubAvatar = `{"id": "2", "login": "stub", "client_id": "c", "psuid": "p",
		"default_avatar_id": "0/0-0", "is_avatar_empty": true,
		"real_name": "Stub User", "default_email": "stub@yandex.ru", "sex": null, "birthday": null}`
	noEmail = `{"id": "3", "login": "noemail", "client_id": "c", "psuid": "p",
		"first_name": "Olga", "default_avatar_id": "21377/enc-abc", "is_avatar_empty": false}`
	emailsOnly = `{"id": "4", "login": "list", "client_id": "c", "psuid": "p",
		"emails": ["first@yandex.ru", "second@ya.ru"], "birthday": "0000-07-21", "sex": "female"}`
	basicOnly = `{"id": "5", "login": "basic", "client_id": "c", "psuid": "p"}`
)

func decode(t *testing.T, s string) Profile {
	t.Helper()
	// Decode as the flow does: through the type-erased configuration.
	v, err := New(providers.OAuthUserConfig[Profile]{}).OAuth().DecodeProfile([]byte(s))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v.(Profile)
}

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		want   profile.User
	}{
		{"all fields", fullAnswer, profile.User{ID: "1000034426", Name: "Ivan", Email: "test@yandex.ru",
			Image: "https://avatars.yandex.net/get-yapic/131652443/islands-200"}},
		{"stub avatar", stubAvatar, profile.User{ID: "2", Name: "Stub User", Email: "stub@yandex.ru"}},
		{"no e-mail, first name only, avatar id with a slash", noEmail, profile.User{ID: "3", Name: "Olga",
			Image: "https://avatars.yandex.net/get-yapic/21377/enc-abc/islands-200"}},
		{"emails list only", emailsOnly, profile.User{ID: "4", Email: "first@yandex.ru"}},
		{"basic access only", basicOnly, profile.User{ID: "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := decode(t, tt.answer)
			got, err := New(providers.OAuthUserConfig[Profile]{}).OAuth().MapProfile(context.Background(), p, account.TokenSet{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("user\n got %+v\nwant %+v", got, tt.want)
			}
			direct, _ := MapProfile(context.Background(), p, account.TokenSet{})
			if direct != got {
				t.Errorf("MapProfile = %+v, configuration maps to %+v", direct, got)
			}
		})
	}
}

func TestProfileFields(t *testing.T) {
	p := decode(t, fullAnswer)
	bday := "1987-03-12"
	want := Profile{
		ID: "1000034426", Login: "ivan", ClientID: "4760187d81bc4b7799476b42b5103713",
		PSUID: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge", Birthday: &bday,
		DefaultAvatarID: "131652443", DefaultEmail: "test@yandex.ru",
		Emails:       []string{"test@yandex.ru", "other-test@yandex.ru"},
		DefaultPhone: &Phone{ID: 12345678, Number: "+79037659418"},
		DisplayName:  "Ivan", FirstName: "Иван", LastName: "Иванов", RealName: "Ivan Ivanov",
		Sex: NewSex(SexMale),
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("profile\n got %+v\nwant %+v", p, want)
	}
	if y, m, d, ok := p.BirthDate(); !ok || y != 1987 || m != 3 || d != 12 {
		t.Errorf("BirthDate = %d %d %d %v", y, m, d, ok)
	}
	// Round trip through JSON keeps everything.
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if again := decode(t, string(raw)); !reflect.DeepEqual(again, p) {
		t.Fatalf("round trip\n got %+v\nwant %+v", again, p)
	}
}

func TestBirthday(t *testing.T) {
	tests := []struct {
		name             string
		answer           string
		isNil            bool
		y, m, d          int
		ok               bool
		wantRawIfPresent string
	}{
		{"full date", `{"birthday":"1987-03-12"}`, false, 1987, 3, 12, true, "1987-03-12"},
		{"unknown year", `{"birthday":"0000-07-21"}`, false, 0, 7, 21, true, "0000-07-21"},
		{"null", `{"birthday":null}`, true, 0, 0, 0, false, ""},
		{"absent", `{}`, true, 0, 0, 0, false, ""},
		{"malformed", `{"birthday":"12.03.1987"}`, false, 0, 0, 0, false, "12.03.1987"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := decode(t, tt.answer)
			if (p.Birthday == nil) != tt.isNil {
				t.Fatalf("Birthday = %v", p.Birthday)
			}
			if p.Birthday != nil && *p.Birthday != tt.wantRawIfPresent {
				t.Errorf("Birthday = %q", *p.Birthday)
			}
			y, m, d, ok := p.BirthDate()
			if y != tt.y || m != tt.m || d != tt.d || ok != tt.ok {
				t.Errorf("BirthDate = %d %d %d %v, want %d %d %d %v", y, m, d, ok, tt.y, tt.m, tt.d, tt.ok)
			}
		})
	}
}

func TestSex(t *testing.T) {
	tests := []struct {
		answer   string
		kind     SexKind
		str      string
		reencode string // the sex member after a JSON round trip, "" if left out
	}{
		{`{"sex":"female"}`, SexFemale, "female", `"female"`},
		{`{"sex":"male"}`, SexMale, "male", `"male"`},
		{`{"sex":null}`, SexNull, "", `null`},
		{`{}`, SexAbsent, "", ``},
		{`{"sex":"unspecified"}`, SexOther, "unspecified", `"unspecified"`},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			p := decode(t, tt.answer)
			if p.Sex.Kind() != tt.kind || p.Sex.String() != tt.str {
				t.Fatalf("Sex = %v %q, want %v %q", p.Sex.Kind(), p.Sex.String(), tt.kind, tt.str)
			}
			raw, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			got, present := m["sex"]
			if tt.reencode == "" && present {
				t.Errorf("absent sex written as %s", got)
			}
			if tt.reencode != "" && string(got) != tt.reencode {
				t.Errorf("sex written as %s, want %s", got, tt.reencode)
			}
			if again := decode(t, string(raw)); again.Sex != p.Sex {
				t.Errorf("round trip: %v, want %v", again.Sex, p.Sex)
			}
		})
	}
	var p Profile
	if err := json.Unmarshal([]byte(`{"sex": 1}`), &p); err == nil {
		t.Error("a number for sex decoded without error")
	}
	if NewSex(SexNull).Kind() != SexNull || NewSex(SexFemale).String() != "female" || NewSex(SexAbsent) != (Sex{}) {
		t.Error("NewSex")
	}
}

func TestAvatar(t *testing.T) {
	want := map[AvatarSize]int{
		"islands-small": 28, "islands-34": 34, "islands-middle": 42, "islands-50": 50,
		"islands-retina-small": 56, "islands-68": 68, "islands-75": 75,
		"islands-retina-middle": 84, "islands-retina-50": 100, "islands-200": 200,
	}
	if len(AvatarSizes) != len(want) {
		t.Fatalf("%d sizes, want %d", len(AvatarSizes), len(want))
	}
	prev := 0
	for _, s := range AvatarSizes {
		if s.Pixels() != want[s] || want[s] == 0 {
			t.Errorf("%s.Pixels() = %d, want %d", s, s.Pixels(), want[s])
		}
		if s.Pixels() <= prev {
			t.Errorf("AvatarSizes not in increasing order at %s", s)
		}
		prev = s.Pixels()
	}
	if AvatarSize("islands-1000").Pixels() != 0 {
		t.Error("unknown size has pixels")
	}
	if got := AvatarURL("131652443", IslandsRetinaMiddle); got != "https://avatars.yandex.net/get-yapic/131652443/islands-retina-middle" {
		t.Errorf("AvatarURL = %q", got)
	}
	if AvatarBaseURL != "https://avatars.yandex.net/get-yapic" {
		t.Errorf("AvatarBaseURL = %q", AvatarBaseURL)
	}
}

func TestCustomProfileErrorStops(t *testing.T) {
	boom := errors.New("not allowed")
	c := New(providers.OAuthUserConfig[Profile]{Profile: func(context.Context, Profile, account.TokenSet) (profile.User, error) {
		return profile.User{}, boom
	}})
	if _, err := c.OAuth().MapProfile(context.Background(), Profile{ID: "1"}, account.TokenSet{}); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}
