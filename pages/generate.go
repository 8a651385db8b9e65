package pages

// The pages' markup is written in templ (*.templ beside this file) and
// compiled to Go by the templ command; the generated *_templ.go files are
// committed, so building needs only the small templ runtime, and make
// generate-check verifies them. The command is a tool of the module in
// internal/tools, which pins it to the runtime's version (v0.3.1100) and
// lets go generate run offline from the module cache.
//go:generate go -C ../internal/tools tool templ generate -path ../../pages -log-level warn
