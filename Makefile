# Gatehouse: common tasks. `make test` is what CI runs.
GO ?= go

.PHONY: test lint vet run bench fuzz

test: lint
	$(GO) test -count=1 -timeout 15m ./...

lint: vet
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

run:
	$(GO) run ./example

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 .

# Each fuzzer briefly; FUZZTIME=10m for a longer local run.
FUZZTIME ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done
