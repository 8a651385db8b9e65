// session.mjs answers one GET <basePath>/session with @auth/core's Auth(),
// as a Next.js front end does: the session cookies come in, the session
// JSON and the rewritten (possibly chunked) cookies go out.
// stdin:  {"url": "https://app.example/auth/session", "cookie": "<Cookie header>", "secret": "s" | [...]}
// stdout: {"status": 200, "body": <session or null>, "setCookie": ["<Set-Cookie>", ...], "errors": ["..."]}
import { Auth } from "@auth/core"
import { readJSON, writeJSON } from "./stdin.mjs"

const { url, cookie, secret } = await readJSON()
const errors = []
const res = await Auth(new Request(url, { headers: cookie ? { cookie } : {} }), {
  secret,
  trustHost: true,
  basePath: new URL(url).pathname.replace(/\/session$/, ""),
  providers: [],
  session: { strategy: "jwt" },
  logger: { error: (e) => errors.push(String(e?.cause?.err?.message ?? e?.message ?? e)), warn() {}, debug() {} },
})
writeJSON({ status: res.status, body: await res.json(), setCookie: res.headers.getSetCookie(), errors })
