// Package configkey names a configuration value by all of its contents,
// for caches keyed by configuration (gatehouse.Auth's Handlers). The
// caller must keep the configuration alive while its key is in use:
// pointers and closures are identified by address.
package configkey

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"unsafe"
)

// Of identifies a configuration by all of it: a walk over every field of
// cfg, nested structs, slices, maps and the
// providers' own configurations included, so that two Configs that
// differ anywhere get two Handlers (a field added later is covered without touching this function;
// gatehouse's TestConfigKeyCoversEveryField checks).
// Values are compared by content; pointers to structs, channels and
// interfaces holding them (an Adapter, an HTTPClient, a Logger) by
// identity; functions (callbacks, events, profile mappings) by the
// identity of the function value, so two closures of one function literal
// over different variables are told apart. The walk is hashed, so the
// key holds no secret.
func Of(cfg any) string {
	h := sha256.New()
	w := keyWriter{w: h, seen: map[uintptr]bool{}}
	w.value(reflect.ValueOf(cfg), 0)
	return hex.EncodeToString(h.Sum(nil))
}

type keyWriter struct {
	w    io.Writer
	seen map[uintptr]bool // pointers to basic values already written
}

func (k keyWriter) str(s string) { fmt.Fprintf(k.w, "%d:%s;", len(s), s) }

// maxKeyDepth bounds the walk: configurations are shallow; anything deeper
// is identified by its address.
const maxKeyDepth = 24

func (k keyWriter) value(v reflect.Value, depth int) {
	if !v.IsValid() {
		k.str("invalid")
		return
	}
	k.str(v.Type().String())
	if depth > maxKeyDepth {
		k.identity(v)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		k.str(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.str(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		k.str(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		k.str(strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case reflect.Complex64, reflect.Complex128:
		k.str(strconv.FormatComplex(v.Complex(), 'g', -1, 128))
	case reflect.String:
		k.str(v.String())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			k.str("nil")
			return
		}
		k.str(strconv.Itoa(v.Len()))
		for i := range v.Len() {
			k.value(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			k.str("nil")
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		k.str(strconv.Itoa(len(keys)))
		for _, key := range keys {
			k.value(key, depth+1)
			k.value(v.MapIndex(key), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			k.str(v.Type().Field(i).Name)
			k.value(v.Field(i), depth+1)
		}
	case reflect.Interface:
		if v.IsNil() {
			k.str("nil")
			return
		}
		k.value(v.Elem(), depth+1)
	case reflect.Pointer:
		if v.IsNil() {
			k.str("nil")
			return
		}
		// A pointer to a plain value (UseSecureCookies *bool) by content;
		// to anything else (an adapter, a client, a logger) by identity.
		if e := v.Elem(); e.Kind() != reflect.Struct && e.Kind() != reflect.Interface && !k.seen[v.Pointer()] {
			k.seen[v.Pointer()] = true
			k.value(e, depth+1)
			return
		}
		k.identity(v)
	case reflect.Func:
		if v.IsNil() {
			k.str("nil")
			return
		}
		k.str(strconv.FormatUint(uint64(funcIdentity(v)), 16))
	default: // channels, unsafe pointers
		k.identity(v)
	}
}

func (k keyWriter) identity(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Slice, reflect.UnsafePointer, reflect.Func:
		k.str("@" + strconv.FormatUint(uint64(v.Pointer()), 16))
	default:
		k.str("deep")
	}
}

// funcIdentity returns the address of the function value v holds: for a
// closure, its own allocation (the code and the variables it captured),
// which reflect's Pointer does not give (that is the code, the same for
// every closure of one literal). The cache keeps the Config, and so its
// closures, alive: an address is not reused while its key is in the cache.
func funcIdentity(v reflect.Value) uintptr {
	if !v.CanInterface() {
		return v.Pointer() // an unexported field: its code
	}
	f := reflect.New(v.Type())
	f.Elem().Set(v)
	// A func value is one word, a pointer to its closure (Go's func
	// representation); read it from the copy just made.
	return uintptr(*(*unsafe.Pointer)(f.UnsafePointer()))
}
