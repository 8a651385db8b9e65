// decode.mjs opens a session token with @auth/core's own decode.
// stdin:  {"token": "<compact JWE>", "secret": "s" | ["a", "b"], "salt": "<cookie name>"}
// stdout: {"payload": {...claims}, "header": {...protected header}} or {"error": "<message>"}
import { decode } from "@auth/core/jwt"
import { readJSON, writeJSON } from "./stdin.mjs"

const { token, secret, salt } = await readJSON()
let header = null
try {
  header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString())
} catch {}
try {
  writeJSON({ payload: await decode({ token, secret, salt }), header })
} catch (e) {
  writeJSON({ error: String(e?.message ?? e), header })
}
