package autherr

import "testing"

func TestPublicCode(t *testing.T) {
	for s, want := range map[string]bool{
		"credentials": true, "too_many_2": true, "": false, "Upper": false,
		"with space": false, "<script>": false, "a-b": false,
		"x123456789x123456789x123456789x123456789x123456789x123456789abcd":  true,
		"x123456789x123456789x123456789x123456789x123456789x123456789abcde": false,
	} {
		if got := PublicCode(s); got != want {
			t.Errorf("PublicCode(%q) = %v, want %v", s, got, want)
		}
	}
}
