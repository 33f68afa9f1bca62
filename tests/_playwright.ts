/**
 * playwright-core for the browser tests. It asks whether it runs under WSL
 * (`existsSync("/proc/sys/fs/binfmt_misc/WSLInterop")`), a path Deno guards behind --allow-all: under
 * the test task's narrower permissions the question throws instead of answering false. Asked before
 * it is loaded, that one question answers false.
 *
 * @module
 */
import fs from "node:fs";

const existsSync = fs.existsSync;
fs.existsSync = (path: fs.PathLike) => {
  try {
    return existsSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return false;
    throw error;
  }
};

/** playwright-core's Chromium launcher, loaded once the question above answers. */
export const { chromium } = await import("playwright-core");
