// The operations the Go interop test asks of @auth/core (interop_test.go).
// Each takes and returns a plain JSON object. serve.mjs runs them in one
// process; encode.mjs, decode.mjs, session.mjs and env.mjs run one each.
import { Auth, setEnvDefaults } from "@auth/core"
import { encode, decode } from "@auth/core/jwt"
import { hkdf } from "@panva/hkdf"
import { EncryptJWT, base64url, calculateJwkThumbprint } from "jose"

// encode seals a session token with @auth/core's own encode.
// in:  {token: {...claims}, secret: "s" | ["new", "old"], salt: "<cookie name>", maxAge?: seconds, enc?: "A256GCM"}
// out: {jwe: "<compact JWE>"}
//
// With enc "A256GCM" it seals instead the other content encryption that
// @auth/core's decode accepts (Auth.js itself never writes it): the 32-byte
// key from the same HKDF, kid = its SHA-256 JWK thumbprint.
export async function encodeOp({ token, secret, salt, maxAge, enc }) {
  if (enc !== "A256GCM") return { jwe: await encode({ token, secret, salt, maxAge }) }
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
  return { jwe }
}

// decode opens a session token with @auth/core's own decode.
// in:  {token: "<compact JWE>", secret: "s" | ["a", "b"], salt: "<cookie name>"}
// out: {payload: {...claims}, header: {...}} or {error: "<message>", header}
export async function decodeOp({ token, secret, salt }) {
  let header = null
  try {
    header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString())
  } catch {}
  try {
    return { payload: await decode({ token, secret, salt }), header }
  } catch (e) {
    return { error: String(e?.message ?? e), header }
  }
}

// session answers one GET <basePath>/session with @auth/core's Auth(), as
// a Next.js front end does: the session cookies come in, the session JSON
// and the rewritten (possibly chunked) cookies go out.
// in:  {url: "https://app.example/auth/session", cookie: "<Cookie header>", secret: "s" | [...]}
// out: {status, body: <session or null>, setCookie: ["<Set-Cookie>", ...], errors: ["..."]}
export async function sessionOp({ url, cookie, secret }) {
  const errors = []
  const res = await Auth(new Request(url, { headers: cookie ? { cookie } : {} }), {
    secret,
    trustHost: true,
    basePath: new URL(url).pathname.replace(/\/session$/, ""),
    providers: [],
    session: { strategy: "jwt" },
    logger: { error: (e) => errors.push(String(e?.cause?.err?.message ?? e?.message ?? e)), warn() {}, debug() {} },
  })
  return { status: res.status, body: await res.json(), setCookie: res.headers.getSetCookie(), errors }
}

// env is the secret list @auth/core builds from environment variables.
// in:  {AUTH_SECRET: "…", AUTH_SECRET_1: "…", …}
// out: {secret: ["…", …]}
export async function envOp(env) {
  const config = { providers: [] }
  setEnvDefaults(env, config)
  return { secret: config.secret }
}

export const ops = { encode: encodeOp, decode: decodeOp, session: sessionOp, env: envOp }

// main runs one operation on the JSON of standard input.
export async function main(op) {
  let text = ""
  for await (const chunk of process.stdin) text += chunk
  process.stdout.write(JSON.stringify(await op(JSON.parse(text))))
}
