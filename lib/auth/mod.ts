/**
 * Identities and roles: who calls (a token of the tokens file, the single `API_TOKEN`, or nobody
 * when none is configured) and what each role may do.
 *
 * @module
 */
export {
  ANONYMOUS,
  API_TOKEN_IDENTITY,
  type Identity,
  isRole,
  LOCAL_IDENTITY,
  type Role,
  roleAllows,
  ROLES,
} from "./roles.ts";
export { Identities, loadTokensFile, MAX_TOKENS, parseTokens, tokenHash, TokensFileError } from "./tokens.ts";
