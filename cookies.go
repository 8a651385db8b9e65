package gatehouse

import "net/http"

// warnDuplicate logs, by name only, a security-relevant cookie the
// request carries twice (and so reads as none: cookieValue).
func (h *Handler) warnDuplicate(r *http.Request, b *base) {
	if name := b.cookies.Duplicate(r); name != "" {
		h.cfg.Logger.Warn("gatehouse: the request carries two cookies named "+name+"; neither is used (a planted cookie?)", "step", "cookies")
	}
}
