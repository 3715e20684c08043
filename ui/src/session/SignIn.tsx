import { useState } from "react";
import { useSignIn, useSingleSignOn } from "./session";

/**
 * Signing in trades an API token for the session cookie; the token lives only in this form's state and is
 * gone once the server has answered. Where the server has an OIDC provider, a person may sign in through it
 * instead; a sign-in that failed there comes back here with the reason (`?ssoError=`).
 */
export function SignIn() {
  const [token, setToken] = useState("");
  const signIn = useSignIn();
  const singleSignOn = useSingleSignOn();
  const ssoError = new URLSearchParams(window.location.search).get("ssoError");
  return (
    <form
      className="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        signIn.mutate(token, { onSuccess: () => setToken("") });
      }}
    >
      <h1>Trainyard</h1>
      {singleSignOn.data && (
        <>
          <a className="button" href={singleSignOn.data}>
            Sign in with single sign-on
          </a>
          {ssoError && <p className="error">Single sign-on failed: {ssoError}</p>}
          <p className="muted">or with an API token:</p>
        </>
      )}
      <label>
        API token
        <input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder="ty_…"
          required
        />
      </label>
      <p className="muted">
        The first admin's token is in <code>.trainyard/admin-token</code> on the server's host.
      </p>
      {signIn.error && <p className="error">{signIn.error.message}</p>}
      <button type="submit" disabled={signIn.isPending}>
        Sign in
      </button>
    </form>
  );
}
