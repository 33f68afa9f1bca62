/**
 * The greeting tool: the smallest complete tool, kept as the template for adding new ones
 * (a pure function here, a zod schema and a thin handler in `routes/greeting.ts`, an MCP tool in
 * `routes/mcp.ts`, tests in `tests/greeting_test.ts`).
 *
 * @module
 */

/**
 * Builds the greeting for a name.
 *
 * @example
 * ```ts
 * greet("Ada"); // "Hello, Ada!"
 * ```
 */
export function greet(name: string): string {
  return `Hello, ${name}!`;
}
