// Talking to the service: JSON POSTs with the tab's token, asked once on a 401.

export const TOKEN_KEY = "po-tools-token";

/** A refusal of the service: its status and its JSON body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(typeof body?.detail === "string" ? body.detail : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

let tokenAsked = null;

/** Asks for the token once (a 401 from any call), and keeps it for this tab only. */
export function askToken() {
  tokenAsked ??= new Promise((resolve) => {
    const dialog = document.getElementById("token-dialog");
    const input = document.getElementById("token-input");
    dialog.addEventListener("close", function done() {
      dialog.removeEventListener("close", done);
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      input.value = "";
      tokenAsked = null;
      document.getElementById("token-button").hidden = false;
      resolve();
    });
    dialog.showModal();
    input.focus();
  });
  return tokenAsked;
}

/** POSTs `body` as JSON to `path`; asks for the token on a 401 and tries again. */
export async function api(path, body) {
  for (let attempt = 0;; attempt++) {
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
      await askToken();
      continue;
    }
    if (!res.ok) throw new ApiError(res.status, json);
    return json;
  }
}

/** Every page of a paged list: `fetchPage(cursor)` answers `{items, next_cursor}`. */
export async function allPages(fetchPage, items) {
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
