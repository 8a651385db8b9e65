// Runs node oidc-provider on a free loopback port for the bearer package's
// interop test (bearer/interop_test.go): client credentials, resource
// indicators issuing RFC 9068 JWT access tokens for one API, opaque
// tokens otherwise, introspection and DPoP. It prints one JSON line,
// {"issuer": ...}, once listening, and stops when its input ends.
import http from 'node:http';
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';

const API = 'https://api.example';

const jwk = async (alg, kid) => {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), alg, kid, use: 'sig' };
};

const server = http.createServer();
server.listen(0, '127.0.0.1', async () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    scopes: ['openid', 'project:read', 'project:delete'],
    jwks: { keys: [await jwk('ES256', 'es-1'), await jwk('EdDSA', 'ed-1'), await jwk('RS256', 'rs-1')] },
    clients: [
      // The service calling the API.
      {
        client_id: 'service',
        client_secret: 'service-secret-service-secret-0001',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'project:read project:delete',
      },
      // The API itself, which introspects opaque tokens.
      {
        client_id: 'api',
        client_secret: 'api-secret-api-secret-api-secret-0001',
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: async (ctx, client) => client.clientId === 'api' },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (ctx, client, oneOf) => oneOf,
        // JWT access tokens only for our API, signed with the alg asked
        // for in the resource's query (?alg=EdDSA), ES256 by default.
        getResourceServerInfo: async (ctx, resource) => {
          const url = new URL(resource);
          if (url.origin + url.pathname !== API + '/') throw new Error('unknown resource');
          return {
            audience: API,
            scope: 'project:read project:delete',
            accessTokenTTL: 300,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: url.searchParams.get('alg') || 'ES256' } },
          };
        },
      },
    },
  });
  server.on('request', provider.callback());
  process.stdout.write(JSON.stringify({ issuer }) + '\n');
});

process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
