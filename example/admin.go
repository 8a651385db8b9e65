package main

import (
	"strings"

	"github.com/gatehouse-auth/gatehouse"
	"github.com/gatehouse-auth/gatehouse/admin"
)

// administration turns the administrators' routes and pages on
// (docs/admin.md; {base}/admin/users in a browser). The administrators
// are the verified addresses in ADMIN_EMAILS (comma-separated) and, in
// development, Alice of the development provider.
func administration(cfg *gatehouse.Config, getenv func(string) string, dev bool) {
	var emails []string
	for _, e := range strings.Split(getenv("ADMIN_EMAILS"), ",") {
		if e = strings.TrimSpace(e); e != "" {
			emails = append(emails, e)
		}
	}
	if dev {
		emails = append(emails, "alice@example.com")
	}
	cfg.Admin = admin.Enable(admin.Config{Emails: emails})
}
