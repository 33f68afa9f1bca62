/**
 * The door's way to the MO compiler (`compile.ts`): loaded on first use, because it brings
 * gettext-parser and its iconv tables, which every other mode (wrap above all) would pay for at
 * start-up without using.
 *
 * @module
 */
import type { compileMo } from "./compile.ts";

/**
 * The MO compiler, `compileMo` of `compile.ts`, loaded on the first call.
 *
 * @example
 * ```ts
 * const compileMo = await loadMoCompiler();
 * const { bytes } = compileMo(parsePo(await Deno.readFile("fr.po"), "fr.po"));
 * ```
 */
export async function loadMoCompiler(): Promise<typeof compileMo> {
  return (await import("./compile.ts")).compileMo;
}
