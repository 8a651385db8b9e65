package builtin

// coreEntries are the providers with special needs and the issuer-based
// OIDC providers (issue 3, part 1).
var coreEntries = []Entry{}
