package authtest

import "time"

// Faults are misbehaviours of a Provider, switched on with SetFaults. The
// zero value is a well-behaved provider. They cover the ID token and
// callback checks of the OpenID Foundation's relying-party conformance
// tests, and the failures of each endpoint a client must survive.
//
// Where a fault puts a wrong value in place of a right one, the wrong
// value extends the right one, so that a check by prefix does not catch
// it: a wrong issuer is the issuer followed by "/evil", a wrong audience,
// nonce or subject is the right one followed by "-evil".
type Faults struct {
	// ID token signature. Of the key faults (IDTokenAlgNone,
	// IDTokenForeignKey, IDTokenHS256PublicKey) the first set wins, and so
	// of the kid faults (IDTokenOmitKID, IDTokenUnknownKID); a key fault
	// and a kid fault combine. Without a kid fault, the header carries the
	// kid of the signing key in the JWKS.

	// IDTokenAlgNone makes ID tokens unsecured JWTs: header alg "none"
	// and an empty signature.
	IDTokenAlgNone bool
	// IDTokenForeignKey signs ID tokens with a key that is not in the
	// JWKS, under the kid of the key that is.
	IDTokenForeignKey bool
	// IDTokenHS256PublicKey signs ID tokens with HS256, using as the HMAC
	// secret the signing key's public key in PEM ("PUBLIC KEY", PKIX): the
	// algorithm confusion attack.
	IDTokenHS256PublicKey bool
	// IDTokenOmitKID leaves kid out of the ID token header. With
	// JWKSExtraKeys, the JWKS then holds several keys.
	IDTokenOmitKID bool
	// IDTokenUnknownKID gives ID tokens a kid that is in no JWKS.
	IDTokenUnknownKID bool

	// JWKSExtraKeys publishes this many more keys, of the same type and
	// each with its own kid, before the signing key in the JWKS.
	JWKSExtraKeys int
	// JWKSFail makes the JWKS endpoint answer 500.
	JWKSFail bool

	// ID token claims.

	// IDTokenWrongIssuer sets iss to the issuer followed by "/evil".
	IDTokenWrongIssuer bool
	// IDTokenWrongAudience sets aud to the client_id followed by "-evil".
	IDTokenWrongAudience bool
	// IDTokenExtraAudience makes aud a list: the client_id and
	// "other-client", with azp set to the client_id.
	IDTokenExtraAudience bool
	// IDTokenOmitAZP leaves azp out. With IDTokenExtraAudience: several
	// audiences without azp.
	IDTokenOmitAZP bool
	// IDTokenWrongAZP sets azp to "other-client".
	IDTokenWrongAZP bool
	// IDTokenExpired makes the ID token an hour past its exp (iat two
	// hours ago).
	IDTokenExpired bool
	// IDTokenOmitExp leaves exp out.
	IDTokenOmitExp bool
	// IDTokenOmitIat leaves iat out.
	IDTokenOmitIat bool
	// IDTokenIatInFuture sets iat an hour ahead (and exp two hours ahead).
	IDTokenIatInFuture bool
	// IDTokenOmitSub leaves sub out.
	IDTokenOmitSub bool
	// IDTokenWrongNonce sets nonce to the request's nonce followed by
	// "-evil", also when the request had none.
	IDTokenWrongNonce bool
	// IDTokenOmitNonce leaves nonce out although the request had one.
	IDTokenOmitNonce bool
	// IDTokenWrongAtHash sets at_hash to the hash of another access token.
	IDTokenWrongAtHash bool
	// IDTokenWrongSubject sets sub to the user's subject followed by
	// "-evil" (for refreshes: OpenID Connect Core §12.2).
	IDTokenWrongSubject bool
	// IDTokenWrongAuthTime sets auth_time an hour before the sign-in.
	IDTokenWrongAuthTime bool

	// Authorization response.

	// AuthorizeWrongIss sets the response's iss parameter (RFC 9207) to
	// the issuer followed by "/evil".
	AuthorizeWrongIss bool
	// AuthorizeOmitIss leaves the iss parameter out, while the metadata
	// still sets authorization_response_iss_parameter_supported.
	AuthorizeOmitIss bool
	// AuthorizeAccessDenied answers every valid authorization request with
	// error=access_denied.
	AuthorizeAccessDenied bool
	// AuthorizeFormPost sends every authorization response with
	// response_mode form_post, whatever the request asked for.
	AuthorizeFormPost bool

	// Token endpoint. TokenDelay applies first, then the first of the
	// others that is set.

	// TokenDelay holds each token response back this long, or until the
	// request's context ends, when the provider answers nothing.
	TokenDelay time.Duration
	// TokenServerError answers 500 with a plain text body.
	TokenServerError bool
	// TokenHTML answers 200 with an HTML page instead of JSON.
	TokenHTML bool
	// TokenInvalidGrant answers 400 with error invalid_grant.
	TokenInvalidGrant bool
	// TokenHugeBody pads the token response, otherwise valid, to more
	// than 2 MiB, sent without a Content-Length.
	TokenHugeBody bool
	// TokenOmitIDToken leaves id_token out of token responses.
	TokenOmitIDToken bool

	// Other endpoints.

	// DiscoveryWrongIssuer sets the discovery document's issuer to the
	// issuer followed by "/evil".
	DiscoveryWrongIssuer bool
	// UserinfoWrongSub sets the userinfo answer's sub to the user's
	// subject followed by "-evil".
	UserinfoWrongSub bool
	// UserinfoFail makes the userinfo endpoint answer 500.
	UserinfoFail bool
	// PARServerError makes the pushed authorization request endpoint
	// answer 500.
	PARServerError bool
}

// Values the faults put in place of right ones.
const (
	evilSuffix    = "-evil"
	evilPath      = "/evil"
	otherClientID = "other-client"
)
