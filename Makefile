# Gatehouse: common tasks. `make test` is what CI runs.
GO ?= go

.PHONY: test race interop e2e axe screenshots lint vet staticcheck run bench fuzz authjs generate generate-check

# Every package's tests run once: the packages in RACE_PKGS (and the
# interop module) under the race detector, the rest (the provider
# catalogue's data and mappings, a few packages without goroutines)
# without it, plus the allocation-count tests, which only mean something
# without the detector.
test: lint authjs
	$(GO) test -count=1 -timeout 15m $$($(GO) list ./... | grep -vxF "$$($(GO) list $(RACE_PKGS))")
	$(GO) test -count=1 -timeout 5m -run '^TestAllocs' .
	cd otelgatehouse && $(GO) test -count=1 -timeout 5m ./... # its own module (OpenTelemetry)
	cd examples/mount && $(GO) test -count=1 -timeout 5m ./... # its own module (gin, echo)
	$(MAKE) race
	$(MAKE) e2e

# The race detector over the packages with concurrency (the provider
# packages are data and mappings: make test runs them without it), and
# over the interop module.
RACE_PKGS := . ./account ./mail ./session ./permission ./bearer/... ./organization ./admin ./apikey ./servicetoken ./internal/... ./adapter/... ./limit/... ./authtest ./checks ./example ./pages ./twofactor/... ./password ./providers/passwordaccount \
	./providers ./providers/email ./providers/credentials ./providers/passkey ./providers/builtin
race:
	$(GO) test -race -count=1 -timeout 15m $(RACE_PKGS)
	cd interop && $(GO) test -race -count=1 -timeout 10m ./...

# Tests against independent implementations (their own module in
# interop/, so that zitadel/oidc and virtualwebauthn stay out of the
# library's go.mod): zitadel's OpenID provider, and passkeys made by a
# software authenticator.
interop:
	cd interop && $(GO) test -count=1 -timeout 10m ./...

# Browser tests (their own module in e2e/): the example app in headless
# Chromium. They skip without /usr/bin/chromium (or, for the accessibility
# check, without axe-core), and fail when CI is set.
e2e: axe
	cd e2e && $(GO) test -count=1 -timeout 10m ./...

# axe-core, pinned in e2e/axe/package-lock.json, for the accessibility
# check of the e2e tests (TestAxe): installed when missing or stale.
AXE := e2e/axe
axe:
	@if [ ! -f $(AXE)/node_modules/.package-lock.json ] || [ $(AXE)/package-lock.json -nt $(AXE)/node_modules/.package-lock.json ]; then \
	  if command -v npm >/dev/null; then npm ci --prefix $(AXE) --no-audit --no-fund; \
	  else echo "npm not found: the accessibility check will skip (or fail with CI set)"; fi; \
	fi

# Refresh the screenshots in docs/screenshots from the browser tests.
screenshots: axe
	cd e2e && UPDATE_SCREENSHOTS=1 $(GO) test -count=1 -timeout 10m ./...

# The Auth.js interop tests (in interop_test.go) run @auth/core, pinned
# in interop/authjs/package-lock.json; the oidc-provider interop test (in
# bearer/interop_test.go) runs node oidc-provider, pinned in
# interop/oidcprovider/package-lock.json: install each when missing or stale.
AUTHJS := interop/authjs
OIDCPROVIDER := interop/oidcprovider
authjs:
	@if [ ! -f $(AUTHJS)/node_modules/.package-lock.json ] || [ $(AUTHJS)/package-lock.json -nt $(AUTHJS)/node_modules/.package-lock.json ]; then \
	  if command -v npm >/dev/null; then npm ci --prefix $(AUTHJS) --no-audit --no-fund; \
	  else echo "npm not found: the Auth.js interop test will skip (or fail with CI set)"; fi; \
	fi
	@if [ ! -f $(OIDCPROVIDER)/node_modules/.package-lock.json ] || [ $(OIDCPROVIDER)/package-lock.json -nt $(OIDCPROVIDER)/node_modules/.package-lock.json ]; then \
	  if command -v npm >/dev/null; then npm ci --prefix $(OIDCPROVIDER) --no-audit --no-fund; \
	  else echo "npm not found: the oidc-provider interop test will skip (or fail with CI set)"; fi; \
	fi

# The built-in provider catalogue (providers/internal/gen/catalog.go) and
# the built-in pages' templ markup (pages/*.templ, with the templ command
# pinned in internal/tools) are turned into Go code by go generate;
# generate-check fails when the generated files in the tree are not what
# their sources say.
generate:
	$(GO) generate ./...

generate-check: generate
	@git diff --exit-code -- . || { echo "generated files are stale: run make generate and commit the result"; exit 1; }
	@untracked=$$(git ls-files --others --exclude-standard -- '*_gen.go' '*_templ.go'); \
	if [ -n "$$untracked" ]; then echo "generated files not committed:"; echo "$$untracked"; exit 1; fi

lint: vet staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# staticcheck, pinned; `go run` builds it on first use (module proxy).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(GO) run $(STATICCHECK) ./...
	cd interop && $(GO) run $(STATICCHECK) ./...

vet:
	$(GO) vet ./...
	cd bench && $(GO) vet -mod=mod ./... # -mod=mod: bench/ uses ../ and follows its requirements
	cd e2e && $(GO) vet ./...
	cd interop && $(GO) vet ./...
	cd otelgatehouse && $(GO) vet ./...
	cd examples/mount && $(GO) vet ./...

run:
	$(GO) run ./example

# The in-process benchmarks (library cost, allocations, the PostgreSQL
# round trips), then bench/: Gatehouse, goth and @auth/core side by side on
# loopback (needs Node.js; `npm ci` in bench/authjs is run when missing).
# BENCHFLAGS go to bench/, e.g. BENCHFLAGS='-d 10s -rounds 3'.
BENCHFLAGS ?= -d 5s -rounds 3
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 . ./checks
	cd interop && $(GO) test -run '^$$' -bench . -benchmem -count=1 .
	@if command -v npm >/dev/null && [ ! -d bench/authjs/node_modules ]; then cd bench/authjs && npm ci --no-audit --no-fund; fi
	cd bench && $(GO) run -mod=mod . $(BENCHFLAGS)

# Each fuzzer briefly; FUZZTIME=10m for a longer local run.
FUZZTIME ?= 10s
fuzz:
	@for file in $$(grep -rl --include='*_test.go' '^func Fuzz' .); do \
	  dir=$$(dirname $$file); \
	  for f in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' $$file | sed 's/^func //'); do \
	    echo "fuzz $$dir $$f ($(FUZZTIME))"; \
	    (cd $$dir && $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) .) || exit 1; \
	  done; \
	done
