// @auth/core behind a plain node:http server, for bench/: the same routes
// under /auth as Gatehouse, JWT sessions, one OpenID Connect provider "dev"
// (the bench's in-process OP). Prints "cookie <Cookie header>" (a session
// for alice, minted with @auth/core/jwt's encode) and "ready <origin>".
import http from "node:http";
import { Auth } from "@auth/core";
import { encode } from "@auth/core/jwt";

const issuer = process.env.ISSUER;
const secret = process.env.AUTH_SECRET;
const maxAge = 30 * 24 * 60 * 60;

const config = {
  secret,
  trustHost: true,
  basePath: "/auth",
  session: { strategy: "jwt", maxAge },
  logger: { error() {}, warn() {}, debug() {} },
  providers: [
    {
      id: "dev",
      name: "Development",
      type: "oidc",
      issuer,
      clientId: process.env.CLIENT_ID,
      clientSecret: process.env.CLIENT_SECRET,
      // Given, so that a sign-in does not fetch discovery first.
      authorization: { url: issuer + "/authorize", params: { scope: "openid profile email" } },
      checks: ["pkce", "state", "nonce"],
    },
  ],
};

async function toRequest(req) {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  let body;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    body = Buffer.concat(chunks);
  }
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
}

// BARE=1: the same session JSON with no auth, node:http's own ceiling.
const bare = process.env.BARE === "1";

const server = http.createServer(async (req, res) => {
  if (bare) {
    const body = JSON.stringify({
      user: { name: "Alice", email: "alice@example.com" },
      expires: new Date(Date.now() + maxAge * 1000).toISOString(),
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
    return;
  }
  try {
    const response = await Auth(await toRequest(req), config);
    const headers = {};
    response.headers.forEach((v, k) => {
      if (k !== "set-cookie") headers[k] = v;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    res.writeHead(response.status, headers);
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (e) {
    res.writeHead(500);
    res.end(String(e));
  }
});

const token = await encode({
  token: { name: "Alice", email: "alice@example.com", sub: "alice", picture: null },
  secret,
  salt: "authjs.session-token",
  maxAge,
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`cookie authjs.session-token=${token}`);
  console.log(`ready http://127.0.0.1:${port}`);
});
