package twofactor

import "github.com/gatehouse-auth/gatehouse/internal/twofactorcore"

// MemoryStore is a Store in process memory, for tests and single-process
// development: its secrets are lost when the process ends. The zero value
// is ready to use.
type MemoryStore = twofactorcore.MemoryStore
