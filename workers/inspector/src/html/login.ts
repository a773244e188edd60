import { html } from "hono/html";

/** The login form; a correct token sets an HttpOnly session cookie. */
export function loginBody(p: { next: string; failed: boolean }) {
  return {
    body: html`<h2>Log in</h2>
      ${p.failed ? html`<p class="error" id="error">That token is not the inspector's token.</p>` : ""}
      <form method="post" action="/login">
        <input type="hidden" name="next" value="${p.next}" /><input
          type="text"
          name="username"
          value="operator"
          autocomplete="username"
          hidden
        />
        <p>
          <input
            type="password"
            name="token"
            autocomplete="current-password"
            placeholder="inspector token"
            aria-label="inspector token"
            required
            autofocus
          />
          <button type="submit">Log in</button>
        </p>
      </form>
      <p class="muted">
        The token is the app's <code>INSPECTOR_TOKEN</code>. API clients send it as
        <code>Authorization: Bearer …</code>.
      </p>`,
  };
}
