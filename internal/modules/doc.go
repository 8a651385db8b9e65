// Package modules holds a test, no code: that the repository's other
// modules (otelgatehouse, examples/mount) resolve for a user outside the
// repository, where their replace directives do not apply.
package modules
