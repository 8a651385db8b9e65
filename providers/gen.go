package providers

//go:generate go run ./internal/gen
