// Package permission is the vocabulary of what a signed-in person, an API
// key or a token may do: statements of the form "resource:action"
// ("project:delete", "member:invite"), sets of them, and the rule that
// nobody grants more than they hold.
//
// An application declares its statements once (Declared); roles, API keys
// and issued tokens carry Sets checked against that declaration, so a typo
// in a role is an error when the role is made, not a permission that
// silently never matches.
package permission

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gatehouse-auth/gatehouse/internal/ident"
)

// Errors returned by this package; test with errors.Is.
var (
	// ErrInvalid: a statement is not "resource:action" with both parts
	// made of lower-case letters, digits, '-' and '_' (1 to 64 each).
	ErrInvalid = errors.New("permission: invalid statement")
	// ErrUndeclared: a statement the application did not declare.
	ErrUndeclared = errors.New("permission: statement not declared")
	// ErrExceeds: a grant of statements the granter does not hold.
	ErrExceeds = errors.New("permission: grants more than the granter holds")
)

// A Statement is one permission, "resource:action".
type Statement string

// Parse checks s and returns it as a Statement.
func Parse(s string) (Statement, error) {
	resource, action, ok := strings.Cut(s, ":")
	if !ok || !validPart(resource) || !validPart(action) {
		return "", fmt.Errorf("%w: %q (want resource:action)", ErrInvalid, s)
	}
	return Statement(s), nil
}

// Resource returns the part before the colon.
func (s Statement) Resource() string { r, _, _ := strings.Cut(string(s), ":"); return r }

// Action returns the part after the colon.
func (s Statement) Action() string { _, a, _ := strings.Cut(string(s), ":"); return a }

// validPart reports whether p is 1 to 64 of [a-z0-9_-]: no wildcards, no
// separators, nothing a template or a log could read differently.
func validPart(p string) bool { return ident.Valid(p, 64, "-_") }

// A Set is a sorted list of distinct statements. The zero Set is empty and
// ready to use; a Set is never changed in place by this package.
type Set []Statement

// NewSet parses each of list and returns them as a Set.
func NewSet(list ...string) (Set, error) {
	out := make(Set, 0, len(list))
	for _, s := range list {
		st, err := Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// MustSet is NewSet for statements written in the program; it panics on an
// invalid one.
func MustSet(list ...string) Set {
	s, err := NewSet(list...)
	if err != nil {
		panic(err)
	}
	return s
}

// Has reports whether s holds st.
func (s Set) Has(st Statement) bool {
	_, ok := slices.BinarySearch(s, st)
	return ok
}

// Missing returns the statements of want that s does not hold, nil when s
// covers want.
func (s Set) Missing(want Set) Set {
	var out Set
	for _, st := range want {
		if !s.Has(st) {
			out = append(out, st)
		}
	}
	return out
}

// Covers reports whether s holds every statement of want.
func (s Set) Covers(want Set) bool { return len(s.Missing(want)) == 0 }

// Union returns the statements in s or t.
func (s Set) Union(t Set) Set {
	out := append(slices.Clone(s), t...)
	slices.Sort(out)
	return slices.Compact(out)
}

// Intersect returns the statements in both s and t: what a key or a token
// may do on behalf of someone who may do s.
func (s Set) Intersect(t Set) Set {
	var out Set
	for _, st := range t {
		if s.Has(st) {
			out = append(out, st)
		}
	}
	return out
}

// Strings returns s as strings, for JSON and storage.
func (s Set) Strings() []string {
	out := make([]string, len(s))
	for i, st := range s {
		out[i] = string(st)
	}
	return out
}

// Grant checks that granter may hand out want: every statement of want
// must be held by granter. The error wraps ErrExceeds and names what is
// missing.
func Grant(granter, want Set) error {
	if missing := granter.Missing(want); len(missing) > 0 {
		return fmt.Errorf("%w: %s", ErrExceeds, strings.Join(missing.Strings(), ", "))
	}
	return nil
}

// Declared is the application's list of statements: each resource with the
// actions it has, as in {"project": {"create", "delete"}}.
type Declared map[string][]string

// All returns every declared statement as a Set; an error when a resource
// or an action is not a valid part.
func (d Declared) All() (Set, error) {
	var list []string
	for resource, actions := range d {
		for _, a := range actions {
			list = append(list, resource+":"+a)
		}
	}
	return NewSet(list...)
}

// Check returns an error wrapping ErrUndeclared naming the statements of s
// that d does not declare.
func (d Declared) Check(s Set) error {
	all, err := d.All()
	if err != nil {
		return err
	}
	if missing := all.Missing(s); len(missing) > 0 {
		return fmt.Errorf("%w: %s", ErrUndeclared, strings.Join(missing.Strings(), ", "))
	}
	return nil
}
