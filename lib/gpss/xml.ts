/**
 * A small, safe XML parser for GPSS's XML answers: no DTD, no entity expansion beyond the five
 * predefined entities and numeric references, bounded depth and node count; and the conversion
 * of its tree into the shape GPSS's JSON has (attributes as `@name` keys, repeated elements as
 * arrays, single ones as a bare value).
 *
 * @module
 */
import { MAX_NESTING_DEPTH } from "./_shape.ts";
import { clip, GpssResponseError, MAX_XML_NODES } from "./response_error.ts";

/** An XML element: name, attributes, and children (elements and text, in document order). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const XML_NAME_RE = /[A-Za-z_:\u00C0-\uFFEF][-A-Za-z0-9_.:\u00B7\u00C0-\uFFEF]*/y;
const PREDEFINED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric references; anything else stays as written. */
function decodeXmlText(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const cp = ref[1] === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return whole;
      return String.fromCodePoint(cp);
    }
    return (Object.hasOwn(PREDEFINED_ENTITIES, ref) ? PREDEFINED_ENTITIES[ref] : undefined) ?? whole;
  });
}

/**
 * Parses an XML document into its root {@link XmlElement}. Refuses DTDs (`<!DOCTYPE`), so no
 * entity can be declared or expanded; decodes only `&lt; &gt; &amp; &quot; &apos;` and numeric
 * references; nesting is limited to {@link MAX_NESTING_DEPTH}.
 *
 * @throws {GpssResponseError} `truncated` when the document ends before the root element closes,
 * `malformed` for any other error (mismatched tags, a DTD, text outside the root, …).
 * @example
 * ```ts
 * parseXml("<a x='1'>b &amp; c</a>"); // { name: "a", attributes: { x: "1" }, children: ["b & c"] }
 * ```
 */
export function parseXml(text: string): XmlElement {
  const s = text;
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let nodes = 0;
  const counted = (): void => {
    if (++nodes > MAX_XML_NODES) {
      throw new GpssResponseError("malformed", `XML has more than ${MAX_XML_NODES} elements and texts`, i);
    }
  };

  const fail = (what: string): never => {
    if (i >= s.length) throw new GpssResponseError("truncated", "XML body ends early", i);
    throw new GpssResponseError("malformed", `invalid XML: ${what}`, i);
  };
  const name = (): string => {
    XML_NAME_RE.lastIndex = i;
    const m = XML_NAME_RE.exec(s);
    if (!m) return fail("expected a name");
    i += m[0].length;
    return m[0];
  };
  const ws = (): void => {
    for (
      let c = s.charCodeAt(i);
      c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
      c = s.charCodeAt(++i)
    );
  };
  const skipPast = (end: string, what: string): void => {
    const j = s.indexOf(end, i);
    if (j < 0) {
      i = s.length;
      fail(`unterminated ${what}`);
    }
    i = j + end.length;
  };

  while (i < s.length) {
    const lt = s.indexOf("<", i);
    const textEnd = lt < 0 ? s.length : lt;
    if (textEnd > i) {
      const chunk = s.slice(i, textEnd);
      if (stack.length > 0) {
        counted();
        stack[stack.length - 1]!.children.push(decodeXmlText(chunk));
      } else if (chunk.trim() !== "") fail("text outside the root element");
      i = textEnd;
      if (lt < 0) break;
    }
    if (s.startsWith("<!--", i)) {
      skipPast("-->", "comment");
    } else if (s.startsWith("<![CDATA[", i)) {
      if (stack.length === 0) fail("CDATA outside the root element");
      const j = s.indexOf("]]>", i + 9);
      if (j < 0) {
        i = s.length;
        fail("unterminated CDATA section");
      }
      counted();
      stack[stack.length - 1]!.children.push(s.slice(i + 9, j));
      i = j + 3;
    } else if (s.startsWith("<?", i)) {
      skipPast("?>", "processing instruction");
    } else if (s.startsWith("<!", i)) {
      fail("DTD declarations are not accepted");
    } else if (s[i + 1] === "/") {
      i += 2;
      const closing = name();
      ws();
      if (s[i] !== ">") fail("expected '>'");
      i++;
      const open = stack.pop();
      if (open === undefined) fail(`closing tag </${clip(closing)}> without an open element`);
      if (open!.name !== closing) fail(`</${clip(closing)}> closes <${clip(open!.name)}>`);
    } else {
      const tagStart = i++;
      counted();
      const el: XmlElement = { name: name(), attributes: {}, children: [] };
      for (;;) {
        const before = i;
        ws();
        if (s[i] === ">" || s[i] === "/") break;
        if (i >= s.length) fail("unterminated start tag");
        if (i === before) fail("expected whitespace before an attribute");
        const attr = name();
        counted();
        ws();
        if (s[i] !== "=") fail("expected '=' after an attribute name");
        i++;
        ws();
        const q = s.charAt(i);
        if (q !== '"' && q !== "'") fail("expected a quoted attribute value");
        const end = s.indexOf(q, i + 1);
        if (end < 0) {
          i = s.length;
          fail("unterminated attribute value");
        }
        const raw = s.slice(i + 1, end);
        if (raw.includes("<")) fail("'<' in an attribute value");
        Object.defineProperty(el.attributes, attr, {
          value: decodeXmlText(raw),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        i = end + 1;
      }
      const selfClosing = s[i] === "/";
      if (selfClosing) {
        i++;
        if (s[i] !== ">") fail("expected '>'");
      }
      i++;
      if (stack.length > 0) stack[stack.length - 1]!.children.push(el);
      else if (root !== null) {
        i = tagStart;
        fail("a second root element");
      } else root = el;
      if (!selfClosing) {
        if (stack.length >= MAX_NESTING_DEPTH) {
          throw new GpssResponseError("malformed", `XML nested deeper than ${MAX_NESTING_DEPTH} levels`, i);
        }
        stack.push(el);
      }
    }
  }
  if (stack.length > 0 || root === null) {
    i = s.length;
    fail(root === null ? "no root element" : `<${clip(stack[stack.length - 1]!.name)}> is not closed`);
  }
  return root!;
}

/**
 * The text of an element and its descendants, each element's computed once (`texts` memoises):
 * nested mixed content would otherwise be re-read at every level. Built with `+`, so V8 shares the
 * pieces instead of copying each level's text.
 */
function textContent(el: XmlElement, texts: Map<XmlElement, string>): string {
  const known = texts.get(el);
  if (known !== undefined) return known;
  let out = "";
  for (const c of el.children) out += typeof c === "string" ? c : textContent(c, texts);
  texts.set(el, out);
  return out;
}

/**
 * An {@link XmlElement} in GPSS's JSON shape: attributes become `@name` keys, child elements become
 * keys (an array when repeated, a bare value when single), a text-only element becomes its
 * string, and an element with both children and text keeps its full text in `#text`.
 *
 * @example
 * ```ts
 * xmlToJsonShape(parseXml("<p><q a='1'>x</q><q>y</q></p>")); // { q: [{ "@a": "1", "#text": "x" }, "y"] }
 * ```
 */
export function xmlToJsonShape(el: XmlElement): unknown {
  return jsonShape(el, new Map());
}

function jsonShape(el: XmlElement, texts: Map<XmlElement, string>): unknown {
  const elements = el.children.filter((c): c is XmlElement => typeof c !== "string");
  const attrs = Object.entries(el.attributes);
  if (elements.length === 0 && attrs.length === 0) return textContent(el, texts);
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of attrs) put(`@${k}`, v);
  const groups = new Map<string, unknown[]>();
  for (const child of elements) {
    const values = groups.get(child.name);
    if (values) values.push(jsonShape(child, texts));
    else groups.set(child.name, [jsonShape(child, texts)]);
  }
  for (const [key, values] of groups) put(key, values.length === 1 ? values[0] : values);
  // Mixed content (`<p>H<sub>2</sub>O</p>`): keep the element's whole text.
  if (el.children.some((c) => typeof c === "string" && c.trim() !== "")) put("#text", textContent(el, texts));
  return out;
}
