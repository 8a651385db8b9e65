// Package dotenv reads the .env file that `gatehouse secret -write`
// writes, for the gatehouse command and the example application.
//
// The syntax is a strict subset of what dotenv tools accept, one setting
// a line:
//
//	# a comment
//	KEY=value            # spaces around "=" and before "#" are allowed
//	export KEY=value
//	KEY='single quoted: taken as it is'
//	KEY="double quoted: \n \" \\ and \$ are escapes"
//	KEY=                 # empty
//
// A name is a letter or "_" followed by letters, digits and "_". A value
// is not expanded ($OTHER stays as it is) and ends with its line: a
// quoted value that does not close on its line is an error, not the start
// of a multi-line value. A malformed line makes the whole file an error
// naming its line number; errors never show a value.
package dotenv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// maxLine is the longest line accepted, in bytes.
const maxLine = 64 << 10

// Error is a malformed line.
type Error struct {
	File string // the file's name, when known
	Line int    // 1-based
	Why  string // what is wrong, without the line's value
}

func (e *Error) Error() string {
	name := e.File
	if name == "" {
		name = "env file"
	}
	return fmt.Sprintf("%s:%d: %s", name, e.Line, e.Why)
}

// Parse reads settings from r. A name set twice takes its last value.
func Parse(r io.Reader) (map[string]string, error) {
	out := make(map[string]string)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		key, value, err := parseLine(strings.TrimSuffix(line, "\r"))
		if err != nil {
			return nil, &Error{Line: n, Why: err.Error()}
		}
		if key != "" {
			out[key] = value
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &Error{Line: n + 1, Why: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, err
	}
	return out, nil
}

// Read parses the file at path. A missing file is an error that matches
// fs.ErrNotExist.
func Read(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := Parse(bytes.NewReader(b))
	var e *Error
	if errors.As(err, &e) {
		e.File = path
	}
	return m, err
}

// Getenv returns a function like os.Getenv that falls back on the file
// at path: a variable set to a non-empty value in the environment (per
// getenv) wins over the file. When the file is missing and optional is
// true, it returns getenv itself and no error.
func Getenv(getenv func(string) string, path string, optional bool) (func(string) string, error) {
	file, err := Read(path)
	if optional && errors.Is(err, fs.ErrNotExist) {
		return getenv, nil
	}
	if err != nil {
		return nil, err
	}
	return func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return file[k]
	}, nil
}

// parseLine returns the setting on one line, or an empty key for a blank
// line or a comment.
func parseLine(line string) (key, value string, err error) {
	s := strings.TrimLeft(line, " \t")
	if s == "" || s[0] == '#' {
		return "", "", nil
	}
	if rest, ok := strings.CutPrefix(s, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		s = strings.TrimLeft(rest, " \t")
	}
	i := 0
	for i < len(s) && isNameByte(s[i], i == 0) {
		i++
	}
	if i == 0 {
		return "", "", errors.New("expected NAME=value: a name starts with a letter or _")
	}
	key, s = s[:i], strings.TrimLeft(s[i:], " \t")
	if s == "" || s[0] != '=' {
		return "", "", errors.New("expected NAME=value: no = after the name")
	}
	s = strings.TrimLeft(s[1:], " \t")
	switch {
	case s == "":
		return key, "", nil
	case s[0] == '\'':
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", fmt.Errorf("%s: the single quote does not close on this line", key)
		}
		value, s = s[1:1+end], s[2+end:]
	case s[0] == '"':
		var b strings.Builder
		closed := false
		j := 1
		for ; j < len(s); j++ {
			c := s[j]
			if c == '"' {
				closed = true
				break
			}
			if c == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '"', '\\', '$', '\'':
					b.WriteByte(s[j])
				default:
					return "", "", fmt.Errorf("%s: unknown escape in the double-quoted value", key)
				}
				continue
			}
			b.WriteByte(c)
		}
		if !closed {
			return "", "", fmt.Errorf("%s: the double quote does not close on this line", key)
		}
		value, s = b.String(), s[j+1:]
	default:
		value = s
		if c := strings.Index(value, " #"); c >= 0 {
			value = value[:c]
		}
		if c := strings.Index(value, "\t#"); c >= 0 {
			value = value[:c]
		}
		value = strings.TrimRight(value, " \t")
		s = ""
	}
	if rest := strings.TrimLeft(s, " \t"); rest != "" && rest[0] != '#' {
		return "", "", fmt.Errorf("%s: text after the closing quote", key)
	}
	if strings.ContainsRune(value, 0) {
		return "", "", fmt.Errorf("%s: the value holds a NUL byte", key)
	}
	return key, value, nil
}

func isNameByte(c byte, first bool) bool {
	switch {
	case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		return true
	case '0' <= c && c <= '9':
		return !first
	}
	return false
}
