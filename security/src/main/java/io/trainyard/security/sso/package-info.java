/**
 * Single sign-on for the dashboard: OIDC's Authorization Code flow with PKCE against the configured issuer, ending
 * in the same cookie session as a sign-in with an API token.
 */
package io.trainyard.security.sso;
