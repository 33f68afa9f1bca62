import assert from "node:assert/strict";
import { PoSyntaxError } from "../lib/errors.ts";
import { formatPo, parsePo } from "../lib/po/mod.ts";
import { canonicalCharset } from "../lib/po/charsets/_charset.ts";
import { EMPTY_MESSAGE } from "../lib/po/types.ts";
import { messageLine } from "../lib/po/read/parse.ts";
import { forEachDuplicate, sampleKey } from "../lib/po/read/_duplicates.ts";
import { readAsBytes, readAsText, type Reading } from "../lib/po/read/parse.ts";
import { REPO_ROOT, SHARED_DIR, sharedAvailable } from "./_helpers.ts";
import type { PoMessage } from "../lib/po/mod.ts";

const HEADER = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function bytes(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "string") out.push(...utf8(p));
    else out.push(...p);
  }
  return new Uint8Array(out);
}

/** The messages after the header of a UTF-8 file with `body` after a standard header. */
function entries(body: string): PoMessage[] {
  return parsePo(utf8(HEADER + body)).messages.slice(1);
}

function message(partial: Partial<PoMessage>): PoMessage {
  return { ...EMPTY_MESSAGE, ...partial };
}

function assertSyntaxError(fn: () => unknown, reason: string | RegExp, line: number, column?: number): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof PoSyntaxError, `expected PoSyntaxError, got ${e}`);
    if (typeof reason === "string") assert.equal(e.reason, reason);
    else assert.match(e.reason, reason);
    assert.equal(e.line, line, `line of "${e.message}"`);
    if (column !== undefined) assert.equal(e.column, column, `column of "${e.message}"`);
    assert.equal(e.message, `${e.reason} at line ${e.line}, column ${e.column}`);
    return true;
  });
}

Deno.test("parsePo keeps every message in file order, header included", () => {
  const cat = parsePo(
    utf8(HEADER + 'msgid "10"\nmsgstr "x"\n\nmsgid "2"\nmsgstr "y"\n\nmsgid "1"\nmsgstr "z"\n'),
  );
  assert.deepEqual(cat.messages.map((m) => m.msgid), ["", "10", "2", "1"]);
  assert.equal(cat.charset, "UTF-8");
  assert.equal(cat.messages[0]?.msgstr, "Content-Type: text/plain; charset=UTF-8\n");
  assert.equal(messageLine(cat.messages[1]!), undefined, "lines are only kept for duplicates");
});

Deno.test("parsePo reads each comment kind as msgcat does", async (t) => {
  const cases: [string, string, Partial<PoMessage>][] = [
    ["translator comment, one space stripped", "# text \n#  two\n#\n# \n##x\n#\ttab\n", {
      translatorComments: ["text ", " two", "", "", "#x", "\ttab"],
    }],
    ["extracted comment", "#. dot\n#.x\n#.  two\n#.\n", { extractedComments: ["dot", "x", " two", ""] }],
    ["references from several lines, exact duplicates removed", "#: a.c:1 ./a.c:1\n#: a.c:01 b.c\n#:\n", {
      references: [{ file: "a.c", line: 1 }, { file: "./a.c", line: 1 }, { file: "b.c", line: null }],
    }],
    [
      "reference spellings",
      "#: file:with:colons.c:3 name.c: 12 spaced.c : 13 num.c:0012 noline C:\\foo\\bar.py:7 d.c:9: e.c::3\n",
      {
        references: [
          { file: "file:with:colons.c", line: 3 },
          { file: "name.c", line: 12 },
          { file: "spaced.c", line: 13 },
          { file: "num.c", line: 12 },
          { file: "noline", line: null },
          { file: "C:\\foo\\bar.py", line: 7 },
          { file: "d.c:9:", line: null },
          { file: "e.c:", line: 3 },
        ],
      },
    ],
    [
      "Solaris file position, and one that stays a comment",
      "# File: foo.c, line:12\n# File: bar.c, line: 3\n",
      {
        translatorComments: ["File: bar.c, line: 3"],
        references: [{ file: "foo.c", line: 12 }],
      },
    ],
    ["only the last flag line counts", "#, c-format\n#,fuzzy,,range: 1..5 no-wrap\n", {
      flags: ["fuzzy", "range: 1..5", "no-wrap"],
    }],
    ["an empty last flag line erases the flags", "#, fuzzy\n#,\n", { flags: [] }],
    ["#! is a flag line too", "#!fuzzy\n", { flags: ["fuzzy"] }],
    ["flags split at every separator gettext knows", "#, fuzzy\t\vc-format\f,possible-c-format\r,x\n", {
      flags: ["fuzzy", "c-format", "possible-c-format", "x"],
    }],
    [
      "long comments and names are their own strings, equal to the text",
      "#. an extracted comment of some length\n" +
      "# a translator comment of some length\n#: a/rather/long/path/to/some/file.py:7\n",
      {
        extractedComments: ["an extracted comment of some length"],
        translatorComments: ["a translator comment of some length"],
        references: [{ file: "a/rather/long/path/to/some/file.py", line: 7 }],
      },
    ],
    ["previous fields", '#| msgctxt "pc"\n#| msgid "p" "q"\n#|msgid_plural "pp"\n', {
      previousMsgctxt: "pc",
      previousMsgid: "pq",
      previousMsgidPlural: "pp",
    }],
  ];
  for (const [name, comments, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(entries(comments + 'msgid "a"\nmsgstr "b"\n'), [
        message({ msgid: "a", msgstr: "b", ...expected }),
      ]);
    });
  }
});

Deno.test("parsePo reads obsolete entries with their inner comments", () => {
  const got = entries(
    '# plain\n#~ # inner\n#~ #. dot\n#~ #: f.c:1\n#~ #, fuzzy\n#~| msgid "prev"\n#~ msgctxt "c"\n#~ msgid "a"\n#~ msgstr "b"\n',
  );
  assert.deepEqual(got, [message({
    obsolete: true,
    msgctxt: "c",
    msgid: "a",
    msgstr: "b",
    translatorComments: ["plain", "inner"],
    extractedComments: ["dot"],
    references: [{ file: "f.c", line: 1 }],
    flags: ["fuzzy"],
    previousMsgid: "prev",
  })]);
});

Deno.test("parsePo reads plural entries, msgctxt and string concatenation", () => {
  const got = entries(
    'msgctxt ""\nmsgid "a" "b"\nmsgid_plural "as"\nmsgstr [ 0 ] "x"\n"y"\nmsgstr[1]"z"\n\nmsgctxt "c"\nmsgid ""\nmsgstr "e"\n',
  );
  assert.deepEqual(got, [
    message({ msgctxt: "", msgid: "ab", msgidPlural: "as", msgstrPlural: ["xy", "z"] }),
    message({ msgctxt: "c", msgid: "", msgstr: "e" }),
  ]);
});

Deno.test("parsePo decodes escapes at byte level", async (t) => {
  const cases: [string, string, string][] = [
    ["C escapes", String.raw`"\t\"\\\a\b\f\v\r\n"`, '\t"\\\x07\b\f\v\r\n'],
    ["octal and hex give raw bytes", String.raw`"\101\102 \x41\x42 \1x"`, "AB AB \x01x"],
    ["bytes of a UTF-8 sequence", String.raw`"\303\251t\xc3\xa9"`, "été"],
    ["octal takes three digits at most, hex keeps the low byte", String.raw`"\1011 \x141"`, "A1 A"],
    ["NUL ends a piece, the next piece is kept", String.raw`"ab\0cd" "ef"`, "abef"],
    ["raw bytes are taken as they are", '"tab\tand\u00a0nbsp"', "tab\tand\u00a0nbsp"],
  ];
  for (const [name, literal, expected] of cases) {
    await t.step(name, () => {
      assert.equal(entries(`msgid "a"\nmsgstr ${literal}\n`)[0]?.msgstr, expected);
    });
  }
  await t.step("a backslash-newline is removed everywhere, even after a backslash", () => {
    const got = entries('# foo\\\nbar\nmsg\\\nid "a\\\nb"\nmsgstr "x\\\\\nb"\n');
    assert.deepEqual(got, [message({ msgid: "ab", msgstr: "x\b", translatorComments: ["foobar"] })]);
  });
});

Deno.test("parsePo keeps the CR of CRLF comments but not of strings", () => {
  const cat = parsePo(
    utf8(HEADER.replaceAll("\n", "\r\n") + '# c\r\n#: a.c:1\r\n#, fuzzy\r\nmsgid "a"\r\nmsgstr "b"\r\n'),
  );
  assert.deepEqual(
    cat.messages[1],
    message({
      msgid: "a",
      msgstr: "b",
      translatorComments: ["c\r"],
      references: [{ file: "a.c:1\r", line: null }],
      flags: ["fuzzy"],
    }),
  );
});

Deno.test("parsePo reads domain directives and drops the comments before them", () => {
  const got = entries(
    'msgid "a"\nmsgstr "b"\n# gone\ndomain "x"\nmsgid "a"\nmsgstr "c"\ndomain "messages"\nmsgid "d"\nmsgstr ""\n',
  );
  assert.deepEqual(got, [
    message({ msgid: "a", msgstr: "b" }),
    message({ msgid: "a", msgstr: "c", domain: "x" }),
    message({ msgid: "d" }),
  ]);
});

Deno.test("parsePo decodes a domain name in the file's charset (UTF-8, ISO-8859-2), and a file with no domain line reads as before", () => {
  const header = (charset: string) =>
    `msgid ""\nmsgstr "Content-Type: text/plain; charset=${charset}\\n"\n\n`;
  const utf8 = parsePo(bytes(`${header("UTF-8")}domain "d\u00f4m"\nmsgid "a"\nmsgstr "\u00e9"\n`));
  assert.equal(utf8.messages[1]!.domain, "d\u00f4m");
  assert.equal(utf8.messages[1]!.msgstr, "\u00e9");
  // ISO-8859-2: 0xF4 is ô, 0xB1 is ą (not ±, as ISO-8859-1 would read it).
  const latin2 = bytes(`${header("ISO-8859-2")}domain "d`, [0xf4, 0xb1], '"\nmsgid "a"\nmsgstr "b"\n');
  assert.equal(parsePo(latin2).messages[1]!.domain, "d\u00f4\u0105");
  const plain = parsePo(bytes(`${header("UTF-8")}msgid "a"\nmsgstr "\u00e9"\n`));
  assert.equal(plain.messages[1]!.domain, undefined);
  assert.equal(plain.messages[1]!.msgstr, "\u00e9");
});

Deno.test("parsePo joins a string's pieces, text and escaped bytes in any order", async (t) => {
  const body = 'msgid "k"\nmsgstr "" "caf" "\\303\\251" "" " au" " lait"\n\n' +
    'msgid "l"\nmsgstr "\\303\\251" "t\\303\\251"\n\nmsgid "m"\nmsgstr "" "one"\n\n' +
    'msgid "n"\nmsgstr "" "" ""\n';
  const expected = ["café au lait", "été", "one", ""];
  await t.step("the byte reading", () => {
    const cat = parsePo(utf8(HEADER + body));
    assert.deepEqual(cat.messages.slice(1).map((m) => m.msgstr), expected);
  });
  await t.step("the careful reading (a backslash-newline sends the file there)", () => {
    const cat = parsePo(utf8(HEADER + 'msgid "j\\\n"\nmsgstr "x"\n\n' + body));
    assert.deepEqual(cat.messages.slice(2).map((m) => m.msgstr), expected);
  });
});

Deno.test("parsePo gives each message its own reference list, and repeated file names read alike", () => {
  const cat = parsePo(
    utf8('#: a.c:1 a.c:2\nmsgid "x"\nmsgstr ""\n\n#: a.c:3\r\n#: b.c\nmsgid "y"\nmsgstr ""\n'),
  );
  const [x, y] = cat.messages;
  assert.ok(x && y);
  assert.deepEqual(x.references, [{ file: "a.c", line: 1 }, { file: "a.c", line: 2 }]);
  // (A CR before the newline belongs to the last name, as in msgcat: see the CRLF test above.)
  assert.deepEqual(y.references, [{ file: "a.c:3\r", line: null }, { file: "b.c", line: null }]);
  // Not the reader's scratch list, shared from one message to the next.
  assert.notEqual(x.references, y.references);
});

Deno.test("parsePo drops comments after the last message", () => {
  assert.equal(entries('msgid "a"\nmsgstr "b"\n# trailing\n').length, 1);
});

Deno.test("parsePo decodes the header's charset", async (t) => {
  await t.step("ISO-8859-1, with escapes and comments", () => {
    const cat = parsePo(bytes(
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\n# caf',
      [0xe9],
      '\nmsgid "a"\nmsgstr "',
      [0xe9, 0x80],
      ' \\351"\n',
    ));
    assert.equal(cat.charset, "ISO-8859-1");
    assert.deepEqual(cat.messages[1]?.translatorComments, ["café"]);
    assert.equal(cat.messages[1]?.msgstr, "é\u0080 é");
  });
  await t.step("KOI8-R", () => {
    const cat = parsePo(
      bytes('msgid ""\nmsgstr "Content-Type: text/plain; charset=KOI8-R\\n"\n\nmsgid "a"\nmsgstr "', [
        0xc1,
        0xc2,
      ], '"\n'),
    );
    assert.equal(cat.messages[1]?.msgstr, "аб");
  });
  await t.step("Shift_JIS, whose second bytes may be a backslash", () => {
    const cat = parsePo(
      bytes('msgid ""\nmsgstr "Content-Type: text/plain; charset=SHIFT_JIS\\n"\n\nmsgid "a"\nmsgstr "', [
        0x83,
        0x5c,
        0x95,
        0x5c,
      ], '"\n'),
    );
    assert.equal(cat.messages[1]?.msgstr, "ソ表");
  });
  await t.step("charset=CHARSET is ASCII in a .pot", () => {
    const pot = utf8(
      'msgid ""\nmsgstr "Content-Type: text/plain; charset=CHARSET\\n"\n\nmsgid "a"\nmsgstr ""\n',
    );
    assert.equal(parsePo(pot, "x.pot").charset, "CHARSET");
    assertSyntaxError(
      () => parsePo(pot, "x.po"),
      'present charset "CHARSET" is not a portable encoding name',
      1,
    );
  });
  await t.step("no header: ASCII only, non-ASCII references allowed", () => {
    const cat = parsePo(utf8('#: fé.c:1\nmsgid "a"\nmsgstr "b"\n'));
    assert.equal(cat.charset, null);
    assert.deepEqual(cat.messages[0]?.references, [{ file: "fé.c", line: 1 }]);
  });
  await t.step("canonical names", () => {
    assert.equal(canonicalCharset("utf-8"), "UTF-8");
    assert.equal(canonicalCharset("iso_8859-1"), "ISO-8859-1");
    assert.equal(canonicalCharset("US-ASCII"), "ASCII");
    assert.equal(canonicalCharset("utf8"), null);
    assert.equal(canonicalCharset("latin1"), null);
  });
});

Deno.test("parsePo with a byte order mark", async (t) => {
  const withBom = bytes([0xef, 0xbb, 0xbf], HEADER, 'msgid "a"\nmsgstr "b"\n');
  await t.step("rejects it by default, as msgcat 0.21 does", () => {
    assertSyntaxError(() => parsePo(withBom), /byte order mark/, 1, 1);
  });
  await t.step("reads it with allowBom, and the writer still refuses it", () => {
    const cat = parsePo(withBom, { allowBom: true });
    assert.equal(cat.bom, true);
    assert.equal(cat.messages[1]?.msgstr, "b");
    assert.throws(
      () => formatPo(cat),
      (e) => e instanceof PoSyntaxError && /byte order mark/.test(e.message),
    );
  });
});

Deno.test("parsePo with duplicate messages", async (t) => {
  const dup = utf8(
    HEADER + 'msgid "a"\nmsgstr "1"\n\nmsgctxt "c"\nmsgid "a"\nmsgstr "2"\n\n#~ msgid "a"\n#~ msgstr "3"\n',
  );
  await t.step("rejects them by default (obsolete ones included)", () => {
    assertSyntaxError(() => parsePo(dup), "duplicate message definition (first defined at line 4)", 11, 1);
  });
  await t.step("keeps all of them with strict: false; formatting refuses", () => {
    const cat = parsePo(dup, { strict: false });
    assert.deepEqual(cat.messages.map((m) => m.msgstr).slice(1), ["1", "2", "3"]);
    assert.throws(
      () => formatPo(cat),
      (e) =>
        e instanceof PoSyntaxError && e.line === 11 &&
        e.reason === 'duplicate message definition: msgid "a" (first defined at line 4)',
    );
  });
  await t.step("the same msgid in another domain is no duplicate", () => {
    assert.equal(entries('msgid "a"\nmsgstr "1"\ndomain "x"\nmsgid "a"\nmsgstr "2"\n').length, 2);
  });
});

Deno.test("parsePo rejects what msgcat rejects, with line and column", async (t) => {
  const cases: [string, string | Uint8Array, string | RegExp, number, number?][] = [
    ["unterminated string", 'msgid "a\nmsgstr "b"\n', "end-of-line within string", 4, 9],
    ["end of file in a string", 'msgid "a"\nmsgstr "b', "end-of-file within string", 5, 10],
    ["unknown keyword", 'msgid "a"\nmsgstr * (asterisco)"\n', "syntax error", 5, 8],
    ["unknown keyword name", 'msgid "a"\nmsgfoo "b"\n', 'keyword "msgfoo" unknown', 5, 1],
    [
      "invalid escape \\'",
      String.raw`msgid "a"` + "\n" + String.raw`msgstr "it\'s"` + "\n",
      "invalid control sequence",
      5,
      12,
    ],
    ["invalid escape \\?", 'msgid "a"\nmsgstr "\\?"\n', "invalid control sequence", 5, 10],
    ["\\x without digits", 'msgid "a"\nmsgstr "\\xg"\n', "invalid control sequence", 5, 10],
    [
      "a comment between #| and msgid",
      '#| msgid "p"\n# c\nmsgid "a"\nmsgstr "b"\n',
      /#\| lines must come/,
      6, // msgcat 0.21: "6:1: syntax error", the line after the comment
      1,
    ],
    ["#| msgctxt without #| msgid", '#| msgctxt "p"\nmsgid "a"\nmsgstr "b"\n', /expected #\| msgid/, 5],
    [
      "a comment inside a message",
      'msgid "a" # c\nmsgstr "b"\n',
      /expected msgstr|missing 'msgstr' section/,
      4,
    ],
    ["inconsistent #~", '#~ msgid "a"\nmsgstr "b"\n', "inconsistent use of #~", 5, 1],
    ["msgstr[0] without msgid_plural", 'msgid "a"\nmsgstr[0] "b"\n', "missing 'msgid_plural' section", 4, 1],
    [
      "plural index not starting at 0",
      'msgid "a"\nmsgid_plural "b"\nmsgstr[1] "c"\n',
      "first plural form has nonzero index",
      6,
    ],
    [
      "plural index gap",
      'msgid "a"\nmsgid_plural "b"\nmsgstr[0] "c"\nmsgstr[2] "d"\n',
      "plural form has wrong index",
      7,
    ],
    ["msgid without msgstr", 'msgid "a"\n\nmsgid "b"\nmsgstr ""\n', "missing 'msgstr' section", 4, 1],
    ["EOT in a string", 'msgid "a\\004"\nmsgstr ""\n', "context separator <EOT> within string", 4],
    ["stray character", 'msgid "a"\nmsgstr "b"\n@\n', "syntax error", 6, 1],
    [
      "domain with two strings",
      'domain "x" "y"\nmsgid "a"\nmsgstr "b"\n',
      /a string without a keyword/,
      4,
      12,
    ],
    ["invalid UTF-8 from escapes", 'msgid "a"\nmsgstr "\\377"\n', "invalid multibyte sequence", 4],
  ];
  for (const [name, body, reason, line, column] of cases) {
    await t.step(name, () => {
      assertSyntaxError(
        () => parsePo(typeof body === "string" ? utf8(HEADER + body) : body),
        reason,
        line,
        column,
      );
    });
  }
  await t.step("invalid UTF-8 in a string", () => {
    assertSyntaxError(
      () => parsePo(bytes(HEADER, 'msgid "a"\nmsgstr "', [0xff], '"\n')),
      "invalid multibyte sequence",
      4,
    );
  });
  await t.step("a U+FFFD written in the file is text, an invalid byte beside it is not", () => {
    // The reader decodes loosely first: a replacement character must send it to the strict check.
    const ok = parsePo(bytes(HEADER, 'msgid "a"\nmsgstr "', [0xef, 0xbf, 0xbd], '"\n'));
    assert.equal(ok.messages[1]?.msgstr, "\uFFFD");
    assertSyntaxError(
      () => parsePo(bytes(HEADER, 'msgid "\uFFFD"\nmsgstr "', [0xc3], '"\n')),
      "invalid multibyte sequence",
      4,
    );
  });
  await t.step("a truncated character is invalid even when the next string goes on with it", () => {
    // The reader decodes the non-ASCII strings of a file together: they must not run into each other.
    assertSyntaxError(
      () => parsePo(READING_CASES["a lead byte ending one string, continuation bytes starting the next"]!),
      "invalid multibyte sequence",
      4,
    );
  });
  await t.step("non-ASCII text without a header charset", () => {
    assertSyntaxError(
      () => parsePo(utf8('msgid "a"\nmsgstr "é"\n')),
      "non-ASCII text but no header entry with a charset specification",
      1,
    );
    assertSyntaxError(
      () => parsePo(utf8('# é\nmsgid "a"\nmsgstr ""\n')),
      "non-ASCII text but no header entry with a charset specification",
      2,
    );
  });
  await t.step("an unknown charset name", () => {
    assertSyntaxError(
      () => parsePo(utf8('msgid ""\nmsgstr "Content-Type: text/plain; charset=latin1\\n"\n')),
      'present charset "latin1" is not a portable encoding name',
      1,
    );
  });
  await t.step("a backslash-newline does not shift later line numbers", () => {
    assertSyntaxError(
      () => parsePo(utf8(HEADER + 'msgid "a\\\nb"\nmsgstr "b\n')),
      "end-of-line within string",
      6,
    );
  });
});

Deno.test("parsePo accepts an empty file and keeps its name", () => {
  assert.deepEqual(parsePo(new Uint8Array(), "empty.po"), {
    messages: [],
    charset: null,
    fileName: "empty.po",
  });
});

Deno.test("forEachDuplicate finds exactly the repeated identities, also among msgids alike at every sampled place", () => {
  // Equal length, differing only at offsets sampleKey does not read: one bucket, past its chain limit.
  const alike = (k: number) => "a".repeat(37) + String.fromCharCode(0x4e00 + k) + "a".repeat(62);
  assert.equal(new Set(Array.from({ length: 40 }, (_, k) => sampleKey(alike(k)))).size, 1);
  const entry = (msgid: string, msgctxt: string | null, domain?: string): PoMessage =>
    message({ msgid, msgctxt, ...(domain === undefined ? {} : { domain }) });
  const messages: PoMessage[] = [];
  for (let k = 0; k < 40; k++) messages.push(entry(alike(k), null));
  messages.push(entry(alike(3), null)); // a duplicate after the bucket was re-indexed
  messages.push(entry(alike(3), "")); // "" is not null
  messages.push(entry(alike(3), "", "other")); // another domain
  messages.push(entry(alike(39), ""), entry(alike(39), "")); // a duplicate with a context
  messages.push(entry("short", null), entry("short", null), entry("", null), entry("", null));
  const naive: [number, number][] = [];
  for (let i = 0; i < messages.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [messages[j]!, messages[i]!]; // j < i < messages.length
      if (a.msgid === b.msgid && a.msgctxt === b.msgctxt && a.domain === b.domain) {
        naive.push([j, i]);
        break;
      }
    }
  }
  const found: [number, number][] = [];
  forEachDuplicate(messages, (first, second) => {
    found.push([first, second]);
    return true;
  });
  assert.deepEqual(found, naive);
  assert.deepEqual(found, [[3, 40], [43, 44], [45, 46], [47, 48]]);
  // A list without duplicates is remembered as such: a second call finds nothing to report.
  const unique = messages.slice(0, 40);
  let calls = 0;
  forEachDuplicate(unique, () => (calls++, true));
  forEachDuplicate(unique, () => (calls++, true));
  assert.equal(calls, 0);
});

Deno.test("forEachDuplicate agrees with a naive search past the probe limit, and stops when told", () => {
  // 150 msgids alike at every sampled place: the probing table gives up, the buckets take over.
  const alike = (k: number) => "b".repeat(37) + String.fromCharCode(0x4e00 + k) + "b".repeat(62);
  const messages: PoMessage[] = [];
  for (let k = 0; k < 150; k++) {
    messages.push(message({ msgid: alike(k), msgctxt: k % 3 === 0 ? "c" : null }));
  }
  for (const k of [5, 99, 6, 5, 149]) {
    messages.push(message({ msgid: alike(k), msgctxt: k % 3 === 0 ? "c" : null }));
  }
  const naive: [number, number][] = [];
  for (let i = 0; i < messages.length; i++) {
    const j = messages.findIndex((a) => a.msgid === messages[i]!.msgid && a.msgctxt === messages[i]!.msgctxt);
    if (j < i) naive.push([j, i]);
  }
  assert.deepEqual(naive, [[5, 150], [99, 151], [6, 152], [5, 153], [149, 154]]);
  const found: [number, number][] = [];
  forEachDuplicate(messages, (first, second) => (found.push([first, second]), true));
  assert.deepEqual(found, naive);
  const firstTwo: [number, number][] = [];
  forEachDuplicate(messages, (first, second) => (firstTwo.push([first, second]), firstTwo.length < 2));
  assert.deepEqual(firstTwo, naive.slice(0, 2));
  // The same messages, few enough to stay in the probing table.
  const few = [...messages.slice(0, 20), messages[5]!, messages[19]!];
  const fewFound: [number, number][] = [];
  forEachDuplicate(few, (first, second) => (fewFound.push([first, second]), true));
  assert.deepEqual(fewFound, [[5, 20], [19, 21]]);
});

/** The reading of `body` by `read`, or the error it throws. */
function readingOf<R extends Reading | null>(read: () => R): R | PoSyntaxError {
  try {
    return read();
  } catch (e) {
    if (e instanceof PoSyntaxError) return e;
    throw e;
  }
}

/** The .po/.pot files under a directory, recursively. */
function poFilesUnder(dir: URL): URL[] {
  const out: URL[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
    if (e.isDirectory) out.push(...poFilesUnder(url));
    else if (/\.pot?$/.test(e.name)) out.push(url);
  }
  return out;
}

/** Inputs that take the byte reading's special ways: decoding after lexing, chunk edges, falling back. */
const READING_CASES: Record<string, Uint8Array> = {
  "CJK, a 4-byte character, plurals, obsolete": utf8(
    HEADER + '#. 說明\n#: 檔案.py:3\n#, fuzzy, 格式\nmsgctxt "語境"\nmsgid "a"\nmsgid_plural "as"\n' +
      'msgstr[0] "一 😀"\nmsgstr[1] "二"\n\n#| msgid "舊"\nmsgid "b"\nmsgstr "乙"\n\n#~ msgid "c"\n#~ msgstr "丙"\n',
  ),
  "UTF-8 bytes from octal escapes": utf8(HEADER + 'msgid "e"\nmsgstr "caf\\303\\251 \\344\\270\\200"\n'),
  "an invalid byte in a comment, kept as U+FFFD": bytes(HEADER, "# a", [0xff], ' b\nmsgid "x"\nmsgstr "y"\n'),
  "an invalid byte in a string": bytes(HEADER, 'msgid "x"\nmsgstr "', [0xe4, 0xb8], '"\n'),
  "a lead byte ending one string, continuation bytes starting the next": bytes(
    HEADER,
    'msgid "x"\nmsgstr "a',
    [0xe4],
    '"\n\nmsgid "y"\nmsgstr "',
    [0xb8, 0x80],
    'b"\n',
  ),
  "a U+FFFD in the file": utf8(HEADER + 'msgid "x"\nmsgstr "\uFFFD é"\n'),
  "Latin-1": bytes(
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\n# ',
    [0xe9],
    '\nmsgid "x"\nmsgstr "',
    [0xe0],
    '"\n',
  ),
  "ASCII, with a non-ASCII reference": utf8('# c\n#: fé.c:1\nmsgid "x"\nmsgstr "y"\n'),
  "ASCII, with a non-ASCII string": utf8('msgid "x"\nmsgstr "é"\n'),
  "domains with non-ASCII names": utf8(
    HEADER + 'domain "dé"\nmsgid "x"\nmsgstr "é"\ndomain "dé"\nmsgid "y"\nmsgstr "z"\n',
  ),
  "a backslash-newline": utf8(HEADER + 'msgid "x\\\n"\nmsgstr "é"\n'),
  "a NUL in a comment": utf8(HEADER + '# a\0é\nmsgid "x"\nmsgstr "y"\n'),
  "an error after non-ASCII text": utf8(HEADER + 'msgid "é"\nmsgstr "é" x\n'),
  "Shift_JIS": bytes(
    'msgid ""\nmsgstr "Content-Type: text/plain; charset=SHIFT_JIS\\n"\n\nmsgid "x"\nmsgstr "',
    [0x95, 0x5c],
    '"\n',
  ),
};

Deno.test("the byte reading gives what the careful reading gives, at any chunk size", async (t) => {
  const inputs: [string, Uint8Array][] = Object.entries(READING_CASES);
  const dirs = [new URL("tests/fixtures/", REPO_ROOT), new URL("examples/", REPO_ROOT)];
  if (sharedAvailable()) {
    dirs.push(new URL("corpus/po/", SHARED_DIR), new URL("corpus/msgcat-vectors/", SHARED_DIR));
  } else console.log("../shared is absent: the corpus is not read here (the fixtures are)");
  for (const dir of dirs) {
    for (const url of poFilesUnder(dir)) inputs.push([url.pathname, Deno.readFileSync(url)]);
  }
  let compared = 0;
  for (const [name, input] of inputs) {
    const body = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? input.subarray(3) : input;
    const careful = readingOf(() => readAsText(body, name));
    for (const chunkBytes of [1, 64, 1 << 16]) {
      await t.step(`${name.replace(/.*\/shared\//, "shared/")}, chunks of ${chunkBytes} bytes`, () => {
        const fast = readingOf(() => readAsBytes(body, name, chunkBytes));
        if (fast === null) return; // parsePo reads it carefully
        if (fast instanceof PoSyntaxError) {
          // parsePo then reads it carefully, which must find the error too.
          assert.ok(careful instanceof PoSyntaxError, `only the byte reading fails: ${fast.message}`);
          return;
        }
        if (careful instanceof PoSyntaxError) {
          assert.fail(`only the careful reading fails: ${careful.message}`);
        }
        assert.ok(careful !== null);
        assert.deepEqual(fast.info, careful.info);
        assert.deepEqual(fast.raw.lines, careful.raw.lines);
        assert.deepEqual(fast.raw.messages, careful.raw.messages);
        compared++;
      });
    }
  }
  assert.ok(compared > 30, `only ${compared} readings compared`);
});

Deno.test("parsePo reports an error after non-ASCII text at its column in characters", () => {
  // The byte reading counts bytes; parsePo reads the file again to say where msgcat would.
  assertSyntaxError(
    () => parsePo(READING_CASES["an error after non-ASCII text"]!),
    'keyword "x" unknown',
    5,
    12,
  );
});
