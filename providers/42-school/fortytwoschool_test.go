package fortytwoschool

import (
	"context"
	"reflect"
	"testing"

	"github.com/gatehouse-auth/gatehouse/account"
	"github.com/gatehouse-auth/gatehouse/profile"
	"github.com/gatehouse-auth/gatehouse/providers"
)

func TestMapProfile(t *testing.T) {
	tests := []struct {
		name string
		json string
		want profile.User
	}{
		{
			name: "student",
			json: `{"id": 74319, "email": "mlevy@student.42.fr", "login": "mlevy",
				"first_name": "Marie", "last_name": "Levy", "usual_full_name": "Marie Levy",
				"usual_first_name": null, "url": "https://api.intra.42.fr/v2/users/mlevy",
				"phone": "hidden", "displayname": "Marie Levy", "kind": "student",
				"image": {"link": "https://cdn.intra.42.fr/users/1f2e/mlevy.jpg",
					"versions": {"large": "https://cdn.intra.42.fr/users/1f2e/large_mlevy.jpg",
						"medium": "https://cdn.intra.42.fr/users/1f2e/medium_mlevy.jpg",
						"small": "https://cdn.intra.42.fr/users/1f2e/small_mlevy.jpg",
						"micro": "https://cdn.intra.42.fr/users/1f2e/micro_mlevy.jpg"}},
				"staff?": false, "correction_point": 4, "pool_month": "september",
				"pool_year": "2021", "location": null, "wallet": 120}`,
			want: profile.User{ID: "74319", Name: "Marie Levy", Email: "mlevy@student.42.fr",
				Image: "https://cdn.intra.42.fr/users/1f2e/mlevy.jpg"},
		},
		{
			name: "no picture",
			json: `{"id": 5, "email": "a@student.42.fr", "login": "a", "usual_full_name": "A B", "image": {"link": null}}`,
			want: profile.User{ID: "5", Name: "A B", Email: "a@student.42.fr"},
		},
	}
	c := New(providers.OAuthUserConfig[Profile]{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mapJSON(t, c, tt.json); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("user = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMapProfileNoID(t *testing.T) {
	o := New(providers.OAuthUserConfig[Profile]{}).OAuth()
	p, err := o.DecodeProfile([]byte(`{"login": "ghost", "email": "g@student.42.fr"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.MapProfile(context.Background(), p, account.TokenSet{}); err == nil {
		t.Error("MapProfile of a profile without id succeeded, want an error")
	}
}

// mapJSON decodes raw as the flow does and maps it with the provider's
// profile callback.
func mapJSON(t *testing.T, c providers.OAuthConfig[Profile], raw string) profile.User {
	t.Helper()
	o := c.OAuth()
	p, err := o.DecodeProfile([]byte(raw))
	if err != nil {
		t.Fatalf("DecodeProfile: %v", err)
	}
	u, err := o.MapProfile(context.Background(), p, account.TokenSet{AccessToken: "at"})
	if err != nil {
		t.Fatalf("MapProfile: %v", err)
	}
	return u
}
