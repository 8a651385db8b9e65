// Verifies Gatehouse service tokens with jose, as a Node service would
// (internal/keyflow/node_test.go): reads one JSON object from stdin,
// {jwks, issuer, audience, tokens: [...]}, and writes one line per token,
// {ok, payload, header} or {ok: false, error}.
import { createLocalJWKSet, jwtVerify } from "jose";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { jwks, issuer, audience, tokens } = JSON.parse(input);
const keys = createLocalJWKSet(jwks);
for (const token of tokens) {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer,
      audience,
      typ: "at+jwt", // RFC 9068 §4: the verifier checks the type
      algorithms: ["EdDSA", "ES256"],
      requiredClaims: ["sub", "exp", "iat", "jti", "client_id"],
    });
    console.log(JSON.stringify({ ok: true, payload, header: protectedHeader }));
  } catch (err) {
    console.log(JSON.stringify({ ok: false, error: String(err.code ?? err) }));
  }
}
