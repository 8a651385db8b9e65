// Package tools pins the commands go generate runs that are not part of
// Gatehouse: the templ compiler of the built-in pages' markup, at the
// version of the templ runtime in the root go.mod. It is a module of its
// own, so that the command's dependencies stay out of Gatehouse's.
package tools
