package providers

// The built-in OAuth and OpenID Connect providers are written from one
// table, internal/gen/catalog.go: each package's <package>_gen.go,
// ids_gen.go here, builtin/registry_gen.go and the table of
// docs/providers.md.
//go:generate go run ./internal/gen
