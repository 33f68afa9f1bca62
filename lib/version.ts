/**
 * The service's version: one constant, shown by `main.ts --version`, `GET /health`, the OpenAPI
 * document's `info.version` and the MCP server info.
 *
 * @module
 */

/** The release of this service (semantic versioning). */
export const VERSION = "1.1.0";
