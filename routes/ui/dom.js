// @ts-check
// DOM helpers: elements built from text (never HTML from data), numbers, the stacked bar.

import { ApiError } from "./api.js";

/**
 * @typedef {Node | string | number | null | undefined | false} Child
 * @typedef {Child | Child[] | Child[][] | Child[][][]} Children
 */

/**
 * An element with attributes (`on…` are listeners) and children (strings become text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Replaces what the page shows. @param {...(Node | string)} nodes */
export function show(...nodes) {
  byId("main").replaceChildren(...nodes);
}

/** The trail at the top of the page. @param {...(Node | string)} parts */
export function crumbs(...parts) {
  byId("crumbs").replaceChildren(...parts.flatMap((p, i) => i === 0 ? [p] : [" / ", p]));
}

/** A refusal or failure, as one line. @param {unknown} e */
export function errorText(e) {
  if (e instanceof ApiError) {
    const detail = e.body?.detail;
    if (Array.isArray(detail)) {
      return detail.map((/** @type {any} */ d) => d.msg ?? JSON.stringify(d)).join("; ");
    }
    return `${e.message} (HTTP ${e.status})`;
  }
  return String(/** @type {any} */ (e)?.message ?? e);
}

export const percentFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
export const numberFormat = new Intl.NumberFormat();

/** @param {number} done @param {number} total */
export function percent(done, total) {
  return total === 0 ? 100 : (100 * done) / total;
}

/**
 * The stacked bar of one row, with its numbers as text for screen readers and on hover.
 * @param {{ translated: number, fuzzy: number, untranslated: number }} c
 */
export function stackedBar(c) {
  const total = c.translated + c.fuzzy + c.untranslated;
  const label = `${numberFormat.format(c.translated)} translated, ${numberFormat.format(c.fuzzy)} fuzzy, ` +
    `${numberFormat.format(c.untranslated)} untranslated`;
  const bar = h("div", { class: "bar", role: "img", "aria-label": label, title: label });
  for (
    const [cls, n]
      of /** @type {[string, number][]} */ ([["t", c.translated], ["f", c.fuzzy], ["u", c.untranslated]])
  ) {
    if (n === 0) continue;
    const part = h("span", { class: cls });
    // CSSOM, not a style attribute: allowed by the page's Content-Security-Policy.
    part.style.flexGrow = String(n / Math.max(total, 1));
    bar.append(part);
  }
  return bar;
}
