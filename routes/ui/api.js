// @ts-check
// Talking to the service: JSON POSTs with the tab's token, asked once on a 401 (again, saying so, when
// the service refused the one given).

export const TOKEN_KEY = "po-tools-token";

/** A refusal of the service: its status and its JSON body. */
export class ApiError extends Error {
  /** @param {number} status @param {any} body */
  constructor(status, body) {
    super(typeof body?.detail === "string" ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** @type {Promise<void> | null} */
let tokenAsked = null;

/**
 * Asks for the token once (a 401 from any call), and keeps it for this tab only.
 * @param {string} [why] said in the dialog (e.g. that the token given was refused)
 * @returns {Promise<void>}
 */
export function askToken(why) {
  tokenAsked ??= new Promise((resolve) => {
    const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("token-dialog"));
    const input = /** @type {HTMLInputElement} */ (document.getElementById("token-input"));
    const message = /** @type {HTMLElement} */ (document.getElementById("token-error"));
    message.textContent = why ?? "";
    message.hidden = !why;
    dialog.addEventListener("close", function done() {
      dialog.removeEventListener("close", done);
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      input.value = "";
      tokenAsked = null;
      /** @type {HTMLElement} */ (document.getElementById("token-button")).hidden = false;
      resolve();
    });
    dialog.showModal();
    input.focus();
  });
  return tokenAsked;
}

/**
 * POSTs `body` as JSON to `path`; asks for the token on a 401 and tries again.
 * @param {string} path
 * @param {unknown} body
 * @returns {Promise<any>}
 */
export async function api(path, body) {
  for (let attempt = 0;; attempt++) {
    /** @type {Record<string, string>} */
    const headers = { "content-type": "application/json" };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await res.text();
    let json = null;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      json = { detail: text.slice(0, 200) };
    }
    if (res.status === 401 && attempt < 3) {
      await askToken(token ? "The service refused that token: check it and try again." : undefined);
      continue;
    }
    if (!res.ok) throw new ApiError(res.status, json);
    return json;
  }
}

/**
 * Every page of a paged list: `fetchPage(cursor)` answers `{items, next_cursor}`.
 * @template T
 * @param {(cursor: string | null) => Promise<any>} fetchPage
 * @param {(page: any) => T[]} items
 * @returns {Promise<T[]>}
 */
export async function allPages(fetchPage, items) {
  /** @type {T[]} */
  const all = [];
  let cursor = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchPage(cursor);
    all.push(...items(page));
    cursor = page.next_cursor ?? null;
    if (cursor === null) break;
  }
  return all;
}
