// encode.mjs seals a session token with @auth/core's own encode.
// stdin:  {"token": {...claims}, "secret": "s" | ["new", "old"], "salt": "<cookie name>", "maxAge": seconds?}
// stdout: {"jwe": "<compact JWE>"}
//
// With "enc": "A256GCM" it seals instead the other content encryption that
// @auth/core's decode accepts (Auth.js itself never writes it): the 32-byte
// key from the same HKDF, kid = its SHA-256 JWK thumbprint.
import { encode } from "@auth/core/jwt"
import { hkdf } from "@panva/hkdf"
import { EncryptJWT, base64url, calculateJwkThumbprint } from "jose"
import { readJSON, writeJSON } from "./stdin.mjs"

const { token, secret, salt, maxAge, enc } = await readJSON()
if (enc === "A256GCM") {
  const first = Array.isArray(secret) ? secret[0] : secret
  const key = await hkdf("sha256", first, salt, `Auth.js Generated Encryption Key (${salt})`, 32)
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256")
  const now = (Date.now() / 1000) | 0
  const jwe = await new EncryptJWT(token)
    .setProtectedHeader({ alg: "dir", enc, kid })
    .setIssuedAt()
    .setExpirationTime(now + (maxAge ?? 2592000))
    .setJti(crypto.randomUUID())
    .encrypt(key)
  writeJSON({ jwe })
} else {
  writeJSON({ jwe: await encode({ token, secret, salt, maxAge }) })
}
