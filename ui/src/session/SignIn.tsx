import { useState } from "react";
import { useSignIn } from "./session";

/**
 * Signing in trades an API token for the session cookie; the token lives only in this form's state and is
 * gone once the server has answered.
 */
export function SignIn() {
  const [token, setToken] = useState("");
  const signIn = useSignIn();
  return (
    <form
      className="sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        signIn.mutate(token, { onSuccess: () => setToken("") });
      }}
    >
      <h1>Trainyard</h1>
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
