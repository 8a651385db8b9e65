package builtin

import (
	"github.com/gatehouse-auth/gatehouse/providers"
	"github.com/gatehouse-auth/gatehouse/providers/apple"
	"github.com/gatehouse-auth/gatehouse/providers/github"
	"github.com/gatehouse-auth/gatehouse/providers/yandex"
)

// coreEntries are the providers with special needs and the issuer-based
// OIDC providers (issue 3, part 1).
var coreEntries = []Entry{
	{providers.Apple, of(apple.New)},
	{providers.GitHub, of(github.New)},
	{providers.Yandex, of(yandex.New)},
}
