package keyflow_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatehouse-auth/gatehouse/adapter/memory"
	"github.com/gatehouse-auth/gatehouse/internal/nodetest"
	"github.com/gatehouse-auth/gatehouse/servicetoken"
)

// nodeDir holds verify-token.mjs and the pinned jose (make authjs).
var nodeDir = filepath.Join("..", "..", "interop", "authjs")

// TestNodeJoseVerifies: Node's jose verifies the tokens with the key set
// (typ at+jwt, issuer, audience, signature) for both algorithms, and
// refuses one whose payload was changed. Skipped without Node or jose,
// failed then when CI is set.
func TestNodeJoseVerifies(t *testing.T) {
	nodetest.Need(t, "Node jose test", nodeDir, "jose", "make authjs")
	for _, alg := range []string{servicetoken.EdDSA, servicetoken.ES256} {
		t.Run(alg, func(t *testing.T) {
			e := newEnv(t, memory.New(), nil, withTokens(alg))
			ada, b := e.user("ada@example.com", "report:read")
			key, id := b.newKey("ci", "report:read", nil)
			_, out := e.withKey(http.MethodPost, "/auth/token", key, url.Values{"scope": {"report:read"}})
			token := out["access_token"].(string)
			parts := strings.Split(token, ".")
			tampered := parts[0] + "." + strings.TrimRight(parts[1], "A") + "B." + parts[2]
			set, _ := e.jwks()
			input, _ := json.Marshal(map[string]any{"jwks": set, "issuer": e.srv.URL + "/auth", "audience": "reports",
				"tokens": []string{token, tampered}})
			cmd := exec.Command("node", "verify-token.mjs")
			cmd.Dir = nodeDir
			cmd.Stdin = bytes.NewReader(input)
			cmd.Stderr = os.Stderr
			raw, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			if len(lines) != 2 {
				t.Fatalf("node answered %q", raw)
			}
			var good, bad struct {
				OK      bool
				Error   string
				Payload map[string]any
				Header  map[string]any
			}
			json.Unmarshal([]byte(lines[0]), &good)
			json.Unmarshal([]byte(lines[1]), &bad)
			if !good.OK || good.Payload["sub"] != ada || good.Payload["client_id"] != id || good.Payload["scope"] != "report:read" ||
				good.Header["alg"] != alg || good.Header["typ"] != "at+jwt" {
				t.Errorf("jose: %+v", good)
			}
			if bad.OK {
				t.Error("jose accepted a token whose payload was changed")
			}
		})
	}
}
