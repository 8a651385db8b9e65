package builtin

// nzEntries are the built-in providers with ids from n to z that are not
// in registry_core.go. Filled by the engineer writing those providers
// (issue 3, part 3): add one line per provider, e.g.
//
//	{providers.Notion, of(notion.New)},
var nzEntries = []Entry{}
