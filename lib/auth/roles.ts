/**
 * The four roles, each allowed what the ones before it are: `reader` (read tools), `translator`
 * (writes, drafts), `reviewer` (also review, merge, compile, header, the audit log), `admin` (all).
 *
 * @module
 */

/** The roles, weakest first. */
export const ROLES = ["reader", "translator", "reviewer", "admin"] as const;

/** A role. */
export type Role = typeof ROLES[number];

/** Who made a call: a name (from the tokens file, `api-token`, or `anonymous` without a token) and a role. */
export interface Identity {
  name: string;
  role: Role;
}

/** The caller of a service with no token configured: anyone who reaches it, as today (admin). */
export const ANONYMOUS: Identity = Object.freeze({ name: "anonymous", role: "admin" });

/** The caller holding the single `API_TOKEN`. */
export const API_TOKEN_IDENTITY: Identity = Object.freeze({ name: "api-token", role: "admin" });

/** MCP over stdio: the local user who started the process. */
export const LOCAL_IDENTITY: Identity = Object.freeze({ name: "local", role: "admin" });

/** True when `role` is a role's name. */
export function isRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/** True when a caller of role `have` may use a tool that needs `need`. */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}
