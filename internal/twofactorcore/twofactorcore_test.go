package twofactorcore

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

// TestQRDataURL: the data: URL is the PNG, base64, as an <img src> takes
// it.
func TestQRDataURL(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nnot really")
	u := Enrollment{QR: png}.QRDataURL()
	data, ok := strings.CutPrefix(u, "data:image/png;base64,")
	if !ok {
		t.Fatalf("QRDataURL = %q", u)
	}
	got, err := base64.StdEncoding.DecodeString(data)
	if err != nil || !bytes.Equal(got, png) {
		t.Errorf("decoded %q, %v", got, err)
	}
}
