package permission

import (
	"errors"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, ok := range []string{"project:delete", "member:invite", "a:b", "api-key:create", "x_1:y_2"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "project", ":delete", "project:", "project:*", "*:*", "Project:delete",
		"project:delete:all", "project delete", "pro ject:delete", "project:dél", string(make([]byte, 65)) + ":a"} {
		if _, err := Parse(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	st, _ := Parse("project:delete")
	if st.Resource() != "project" || st.Action() != "delete" {
		t.Errorf("parts of %q: %q %q", st, st.Resource(), st.Action())
	}
}

func TestSet(t *testing.T) {
	s := MustSet("project:delete", "member:invite", "project:delete")
	if want := (Set{"member:invite", "project:delete"}); !slices.Equal(s, want) {
		t.Fatalf("MustSet = %v, want %v (sorted, distinct)", s, want)
	}
	if !s.Has("project:delete") || s.Has("project:create") {
		t.Error("Has")
	}
	small := MustSet("project:delete")
	if !s.Covers(small) || small.Covers(s) || !s.Covers(nil) {
		t.Error("Covers")
	}
	if got := small.Missing(s); !slices.Equal(got, Set{"member:invite"}) {
		t.Errorf("Missing = %v", got)
	}
	if got := small.Union(MustSet("a:b")); !slices.Equal(got, Set{"a:b", "project:delete"}) {
		t.Errorf("Union = %v", got)
	}
	if got := s.Intersect(MustSet("project:delete", "x:y")); !slices.Equal(got, Set{"project:delete"}) {
		t.Errorf("Intersect = %v", got)
	}
	if _, err := NewSet("ok:ok", "bad"); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewSet with a bad statement: %v", err)
	}
}

func TestGrant(t *testing.T) {
	admin := MustSet("member:invite", "member:remove")
	if err := Grant(admin, MustSet("member:invite")); err != nil {
		t.Errorf("a subset: %v", err)
	}
	err := Grant(admin, MustSet("member:invite", "org:delete"))
	if !errors.Is(err, ErrExceeds) {
		t.Fatalf("more than held: %v, want ErrExceeds", err)
	}
	if got := err.Error(); got != "permission: grants more than the granter holds: org:delete" {
		t.Errorf("error names the missing statement: %q", got)
	}
}

func TestDeclared(t *testing.T) {
	d := Declared{"project": {"create", "delete"}, "member": {"invite"}}
	if err := d.Check(MustSet("project:delete", "member:invite")); err != nil {
		t.Errorf("declared: %v", err)
	}
	if err := d.Check(MustSet("project:archive")); !errors.Is(err, ErrUndeclared) {
		t.Errorf("undeclared: %v", err)
	}
	if _, err := (Declared{"Bad": {"x"}}).All(); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid declaration: %v", err)
	}
}
