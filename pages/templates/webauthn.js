// Gatehouse passkeys: runs the WebAuthn ceremonies for every
// <form data-webauthn> on the page. No inline handlers and no eval, so it
// works under a strict Content-Security-Policy (script-src with this
// file's hash, or 'self' when loaded from {base}/webauthn.js, and
// connect-src 'self').
//
// The form carries its settings in data attributes:
//   data-options      GET URL of {base}/webauthn-options/{provider}
//   data-callback     POST URL of {base}/callback/{provider}
//   data-conditional  "true" to offer passkeys in the autofill of the
//                     input with autocomplete="username webauthn"
// Its buttons say what to do with data-action="authenticate" or
// "register"; its hidden csrfToken and callbackUrl fields are sent along.
(function () {
  "use strict";

  function toBytes(s) {
    s = s.replace(/-/g, "+").replace(/_/g, "/");
    while (s.length % 4) s += "=";
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }

  function toB64url(buf) {
    var bytes = new Uint8Array(buf), bin = "";
    for (var i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function decodeList(list) {
    (list || []).forEach(function (c) { c.id = toBytes(c.id); });
  }

  // credentialJSON is the credential in the JSON form the server parses
  // (WebAuthn Level 3 §5.1, RegistrationResponseJSON and
  // AuthenticationResponseJSON).
  function credentialJSON(c) {
    var r = c.response;
    var out = {
      id: c.id, rawId: toB64url(c.rawId), type: c.type,
      authenticatorAttachment: c.authenticatorAttachment || undefined,
      clientExtensionResults: c.getClientExtensionResults ? c.getClientExtensionResults() : {},
      response: { clientDataJSON: toB64url(r.clientDataJSON) }
    };
    if (r.attestationObject) {
      out.response.attestationObject = toB64url(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = toB64url(r.authenticatorData);
      out.response.signature = toB64url(r.signature);
      if (r.userHandle) out.response.userHandle = toB64url(r.userHandle);
    }
    return JSON.stringify(out);
  }

  function field(form, name) {
    var el = form.querySelector('input[name="' + name + '"]');
    return el ? el.value : "";
  }

  function say(form, text) {
    var box = form.querySelector("[data-webauthn-message]");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  function options(form, action, signal) {
    var q = "action=" + encodeURIComponent(action);
    var cb = field(form, "callbackUrl");
    if (cb) q += "&callbackUrl=" + encodeURIComponent(cb);
    var email = field(form, "email");
    if (action === "register" && email) q += "&email=" + encodeURIComponent(email);
    return fetch(form.dataset.options + "?" + q, {
      credentials: "same-origin", headers: { Accept: "application/json" }, signal: signal
    }).then(function (res) {
      return res.json().then(function (j) {
        if (!res.ok) throw new Error(j.reason || j.error || form.dataset.msgRefused || "The server refused.");
        return j.options;
      });
    });
  }

  // post sends the credential to the callback in a form of its own, so
  // that the browser follows the redirect like any sign-in.
  function post(form, action, cred) {
    var f = document.createElement("form");
    f.method = "post";
    f.setAttribute("action", form.dataset.callback);
    f.hidden = true;
    var values = {
      csrfToken: field(form, "csrfToken"), callbackUrl: field(form, "callbackUrl"),
      action: action, data: credentialJSON(cred)
    };
    Object.keys(values).forEach(function (k) {
      var i = document.createElement("input");
      i.type = "hidden"; i.name = k; i.value = values[k];
      f.appendChild(i);
    });
    document.body.appendChild(f);
    f.submit();
  }

  function ceremony(form, action, mediation, signal) {
    return options(form, action, signal).then(function (o) {
      o.challenge = toBytes(o.challenge);
      if (action === "register") {
        o.user.id = toBytes(o.user.id);
        decodeList(o.excludeCredentials);
        return navigator.credentials.create({ publicKey: o });
      }
      decodeList(o.allowCredentials);
      var req = { publicKey: o };
      if (mediation) req.mediation = mediation;
      if (signal) req.signal = signal;
      return navigator.credentials.get(req);
    }).then(function (cred) {
      if (cred) post(form, action, cred);
    });
  }

  function setUp(form) {
    if (!window.PublicKeyCredential || !navigator.credentials) {
      say(form, form.dataset.msgUnsupported || "This browser cannot use passkeys.");
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      return;
    }
    var pending = null; // the conditional request, aborted by a click
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var action = (e.submitter && e.submitter.dataset.action) || "authenticate";
      if (pending) { pending.abort(); pending = null; }
      say(form, "");
      ceremony(form, action).catch(function (err) {
        say(form, err && err.name === "NotAllowedError" ? (form.dataset.msgCancelled || "The passkey request was cancelled or timed out.") : (err && err.message) || form.dataset.msgFailed || "Passkey failed.");
      });
    });
    if (form.dataset.conditional === "true" && PublicKeyCredential.isConditionalMediationAvailable) {
      PublicKeyCredential.isConditionalMediationAvailable().then(function (ok) {
        if (!ok) return;
        pending = new AbortController();
        ceremony(form, "authenticate", "conditional", pending.signal).catch(function () {});
      });
    }
  }

  document.querySelectorAll("form[data-webauthn]").forEach(setUp);
})();
