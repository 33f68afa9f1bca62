/**
 * Tests of the msgcat string-wrapping engine (`lib/po/layout/string_layout.ts` and its tables).
 *
 * Everything below the golden table runs against GNU msgcat 0.21 itself (`msgcat` on PATH) and/or the
 * shared corpus (`../shared`) when they are present, and says plainly when they are not.
 */
import assert from "node:assert/strict";
import { lacks } from "./_prerequisites.ts";
import { escapeString, type WrapOptions, wrapString } from "../lib/po/layout/string_layout.ts";
import { directiveInteriors } from "../lib/po/layout/_format_directives.ts";
import {
  BREAK_MANDATORY,
  BREAK_POSSIBLE,
  BREAK_PROHIBITED,
  CLASS_COUNT,
  LINE_BREAK_DFA,
  LINE_BREAK_DFA_START,
  lineBreakClass,
  nextLineBreak,
  possibleLineBreaks,
  startLineBreakScan,
} from "../lib/po/layout/_linebreak.ts";
import { columnWidth } from "../lib/po/layout/_width.ts";
import { LINE_BREAK_CLASS_NAMES } from "../lib/po/layout/_unicode_data.ts";

const SHARED = new URL("../../shared/", import.meta.url);
const FIXTURES = new URL("./fixtures/po_wrap/", import.meta.url);

/** msgcat's output for `path` (null when msgcat rejects the file). */
function msgcat(path: string): string | null {
  const out = new Deno.Command("msgcat", { args: [path], stdout: "piped", stderr: "null" }).outputSync();
  return out.success ? new TextDecoder().decode(out.stdout) : null;
}

type Case = [
  label: string,
  value: string,
  options: Omit<WrapOptions, "prefix"> & { prefix?: string },
  expected: string,
];

/**
 * Golden cases, each msgcat 0.21's exact output: every string block of the vectors that illustrate
 * sections 4–5 of shared/docs/msgcat-format.md (trivial one-line blocks left out), the section's
 * other worked examples, and every string that ever failed during development ("regression: …").
 */
const GOLDEN: Case[] = [
  [
    "wrap-boundary-msgstr (s1) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { keyword: "msgstr" },
    'msgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "wrap-boundary-msgstr (s2) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "wrap-boundary-msgstr (s3) msgstr",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA B",
    { keyword: "msgstr" },
    'msgstr ""\n"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA "\n"B"\n',
  ],
  [
    "wrap-boundary-msgstr (s4) msgstr",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA  B",
    { keyword: "msgstr" },
    'msgstr ""\n"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA  "\n"B"\n',
  ],
  [
    "wrap-boundary-msgstr (s5) msgstr",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA B",
    { keyword: "msgstr" },
    'msgstr ""\n"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA "\n"B"\n',
  ],
  [
    "wrap-boundary-msgstr (s6) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    { keyword: "msgstr" },
    'msgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n',
  ],
  [
    "wrap-boundary-msgstr (s7) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    { keyword: "msgstr" },
    'msgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n',
  ],
  [
    "wrap-boundary-msgid (aaaaaaaaaaaa) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { keyword: "msgid" },
    'msgid "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "wrap-boundary-msgid (aaaaaaaaaaaa) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { keyword: "msgid" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "wrap-boundary-msgid (aaaaaaaaaaaa) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    { keyword: "msgid" },
    'msgid "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n',
  ],
  [
    "wrap-msgctxt (a context st) msgctxt",
    "a context string that is rather long and will need to be wrapped over lines",
    { keyword: "msgctxt" },
    'msgctxt ""\n"a context string that is rather long and will need to be wrapped over lines"\n',
  ],
  [
    "long-word (w1) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    { keyword: "msgstr" },
    'msgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"\n',
  ],
  [
    "long-word (w2) msgstr",
    "aaaa bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb cc",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaa "\n"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb "\n"cc"\n',
  ],
  [
    "long-word (w3) msgstr",
    "https://docs.python.org/3/library/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.html",
    { keyword: "msgstr" },
    'msgstr ""\n"https://docs.python.org/3/library/"\n"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx."\n"html"\n',
  ],
  [
    "words-fill (fill) msgstr",
    "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word",
    { keyword: "msgstr" },
    'msgstr ""\n"word word word word word word word word word word word word word word word "\n"word word word word word word word word word word word word word word word"\n',
  ],
  [
    "words-fill (fill2) msgstr",
    "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.",
    { keyword: "msgstr" },
    'msgstr ""\n"lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "\n"tempor incididunt ut labore et dolore magna aliqua. lorem ipsum dolor sit "\n"amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "\n"labore et dolore magna aliqua."\n',
  ],
  [
    "trailing-spaces (t3) msgstr",
    "two  spaces  between  words two  spaces  between  words two  spaces  between  words two  spaces  between  words ",
    { keyword: "msgstr" },
    'msgstr ""\n"two  spaces  between  words two  spaces  between  words two  spaces  "\n"between  words two  spaces  between  words "\n',
  ],
  [
    "trailing-spaces (t4) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa      bbbbbbbbbb",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa      "\n"bbbbbbbbbb"\n',
  ],
  [
    "newlines (n2) msgstr",
    "line one\nline two",
    { keyword: "msgstr" },
    'msgstr ""\n"line one\\n"\n"line two"\n',
  ],
  ["newlines (n4) msgstr", "\n\n", { keyword: "msgstr" }, 'msgstr ""\n"\\n"\n"\\n"\n'],
  ["newlines (n5) msgstr", "a\n\nb\n", { keyword: "msgstr" }, 'msgstr ""\n"a\\n"\n"\\n"\n"b\\n"\n'],
  ["newlines (n6) msgstr", "\nleading", { keyword: "msgstr" }, 'msgstr ""\n"\\n"\n"leading"\n'],
  [
    "newlines (n7) msgstr",
    "word word word word word word word word word word word word word word word word\n",
    { keyword: "msgstr" },
    'msgstr ""\n"word word word word word word word word word word word word word word word "\n"word\\n"\n',
  ],
  ["newlines (n8) msgstr", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", {
    keyword: "msgstr",
  }, 'msgstr "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\n"\n'],
  ["newlines (n9) msgstr", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bb\n", {
    keyword: "msgstr",
  }, 'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bb\\n"\n'],
  [
    "newline-no-break-before (nb1) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbb\n",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"bbbbb\\n"\n',
  ],
  [
    "newline-no-break-before (nb2) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b\n",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"b\\n"\n',
  ],
  [
    "newline-no-break-before (nb3) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b\nmore",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"b\\n"\n"more"\n',
  ],
  ["escapes (e1) msgstr", 'tab\there quote" back\\ bell\u0007 bs\b ff\f cr\r vt\u000b nl\n', {
    keyword: "msgstr",
  }, 'msgstr "tab\\there quote\\" back\\\\ bell\\a bs\\b ff\\f cr\\r vt\\v nl\\n"\n'],
  [
    "escapes (e2) msgstr",
    "octAB hexAB raw-del raw-soh\u0001 end",
    { keyword: "msgstr" },
    'msgstr "octAB hexAB raw-del raw-soh\u0001 end"\n',
  ],
  [
    "escapes (e3) msgstr",
    '"""""""""""""""""""""""""""""""""""""""""',
    { keyword: "msgstr" },
    'msgstr "\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\"\\""\n',
  ],
  [
    "escapes-wrap (q1) msgstr",
    'Say "hello" to the world, then say "goodbye" to the world, and "again" and again',
    { keyword: "msgstr" },
    'msgstr ""\n"Say \\"hello\\" to the world, then say \\"goodbye\\" to the world, and \\"again\\" "\n"and again"\n',
  ],
  [
    "escapes-wrap (q2) msgstr",
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" b',
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\" "\n"b"\n',
  ],
  [
    "escapes-wrap (q3) msgstr",
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "b"',
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"\\"b\\""\n',
  ],
  [
    "escapes-wrap (q4) msgstr",
    "C:\\Program Files\\Python\\python.exe C:\\Users\\Name\\AppData\\Local\\Programs\\Python",
    { keyword: "msgstr" },
    'msgstr ""\n"C:\\\\Program Files\\\\Python\\\\python.exe C:"\n"\\\\Users\\\\Name\\\\AppData\\\\Local\\\\Programs\\\\Python"\n',
  ],
  [
    "escapes-wrap (q5) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x\\y\\z\\w",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"x\\\\y\\\\z\\\\w"\n',
  ],
  [
    "tabs (tab1) msgstr",
    "col1\tcol2\tcol3\tcol1\tcol2\tcol3\tcol1\tcol2\tcol3\tcol1\tcol2\tcol3\tcol1\tcol2\tcol3\tcol1\tcol2\tcol3\t",
    { keyword: "msgstr" },
    'msgstr "col1\\tcol2\\tcol3\\tcol1\\tcol2\\tcol3\\tcol1\\tcol2\\tcol3\\tcol1\\tcol2\\tcol3\\tcol1\\tcol2\\tcol3\\tcol1\\tcol2\\tcol3\\t"\n',
  ],
  ["tabs (tab2) msgstr", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \tb", {
    keyword: "msgstr",
  }, 'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \\tb"\n'],
  [
    "tabs (tab3) msgstr",
    "word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t word\t ",
    { keyword: "msgstr" },
    'msgstr ""\n"word\\t word\\t word\\t word\\t word\\t word\\t word\\t word\\t word\\t word\\t word\\t "\n"word\\t word\\t word\\t word\\t word\\t "\n',
  ],
  [
    "breaks-punctuation (p1) msgstr",
    "See https://docs.python.org/3/library/functions.html#built-in-functions-and-more-stuff-here for details, e.g.this.that",
    { keyword: "msgstr" },
    'msgstr ""\n"See https://docs.python.org/3/library/functions.html#built-in-functions-and-"\n"more-stuff-here for details, e.g.this.that"\n',
  ],
  [
    "breaks-punctuation (p2) msgstr",
    "Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:`collections.OrderedDict` docs",
    { keyword: "msgstr" },
    'msgstr ""\n"Use the :meth:`str.format` method; see :ref:`formatstrings` and :class:"\n"`collections.OrderedDict` docs"\n',
  ],
  [
    "breaks-punctuation (p3) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo-bar",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo-"\n"bar"\n',
  ],
  [
    "breaks-punctuation (p4) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo/bar",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo/"\n"bar"\n',
  ],
  [
    "breaks-punctuation (p5) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo.bar",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo."\n"bar"\n',
  ],
  [
    "breaks-punctuation (p6) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 3-4 5.6",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 3-4 "\n"5.6"\n',
  ],
  [
    "breaks-punctuation (p7) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (paren)",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"(paren)"\n',
  ],
  [
    "breaks-punctuation (p8) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa [br] x",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"[br] x"\n',
  ],
  [
    "breaks-punctuation (p9) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo!bar",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa foo!"\n"bar"\n',
  ],
  [
    "breaks-punctuation (p10) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa a--option",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa a--"\n"option"\n',
  ],
  [
    "breaks-punctuation (p11) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x|y|z|w",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x|y|z|"\n"w"\n',
  ],
  [
    "breaks-quotes (k1) msgstr",
    "they will match the 52 ASCII letters and 4 additional non-ASCII letters: 'İ' (U+0130, Latin capital letter I with dot above), 'ı' (U+0131)",
    { keyword: "msgstr" },
    'msgstr ""\n"they will match the 52 ASCII letters and 4 additional non-ASCII letters: "\n"\'İ\' (U+0130, Latin capital letter I with dot above), \'ı\' (U+0131)"\n',
  ],
  [
    "breaks-quotes (k2) msgstr",
    "Modules built into the interpreter are written like this: ``<module 'sys' (built-in)>``.  If loaded from a file",
    { keyword: "msgstr" },
    'msgstr ""\n"Modules built into the interpreter are written like this: ``<module "\n"\'sys\' (built-in)>``.  If loaded from a file"\n',
  ],
  [
    "breaks-quotes (k3) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 'quoted' word",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"\'quoted\' word"\n',
  ],
  [
    "breaks-quotes (k4) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa « guillemets » text",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa « "\n"guillemets » text"\n',
  ],
  [
    "rst-markup (The :func:`o) msgid",
    "The :func:`os.path.join` function joins one or more path components intelligently, see `the reference <https://docs.python.org/3/library/os.path.html#os.path.join>`_ for more.",
    { keyword: "msgid" },
    'msgid ""\n"The :func:`os.path.join` function joins one or more path components "\n"intelligently, see `the reference <https://docs.python.org/3/library/os.path."\n"html#os.path.join>`_ for more."\n',
  ],
  [
    "rst-markup (The :func:`o) msgstr",
    "La fonction :func:`os.path.join` joint intelligemment un ou plusieurs éléments de chemin, voir `la référence <https://docs.python.org/fr/3/library/os.path.html#os.path.join>`_ pour plus d'informations.",
    { keyword: "msgstr" },
    'msgstr ""\n"La fonction :func:`os.path.join` joint intelligemment un ou plusieurs "\n"éléments de chemin, voir `la référence <https://docs.python.org/fr/3/library/"\n"os.path.html#os.path.join>`_ pour plus d\'informations."\n',
  ],
  [
    "rst-markup (See :pep:`8`) msgid",
    "See :pep:`8` and :rfc:`2822#section-3.3` and ``some_function(arg1, arg2, *args, **kwargs)`` or :const:`~re.ASCII` flag is used.",
    { keyword: "msgid" },
    'msgid ""\n"See :pep:`8` and :rfc:`2822#section-3.3` and ``some_function(arg1, arg2, "\n"*args, **kwargs)`` or :const:`~re.ASCII` flag is used."\n',
  ],
  [
    "rst-markup (See :pep:`8`) msgstr",
    "Voir :pep:`8` et :rfc:`2822#section-3.3` et ``une_fonction(arg1, arg2, *args, **kwargs)`` ou si l'option :const:`~re.ASCII` est utilisée.",
    { keyword: "msgstr" },
    'msgstr ""\n"Voir :pep:`8` et :rfc:`2822#section-3.3` et ``une_fonction(arg1, arg2, "\n"*args, **kwargs)`` ou si l\'option :const:`~re.ASCII` est utilisée."\n',
  ],
  [
    "nbsp-french (fr1) msgstr",
    "Voici une phrase assez longue en français : elle contient des espaces insécables ; et des « guillemets » !",
    { keyword: "msgstr" },
    'msgstr ""\n"Voici une phrase assez longue en français : elle contient des espaces "\n"insécables ; et des « guillemets » !"\n',
  ],
  ["nbsp-french (fr2) msgstr", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : b", {
    keyword: "msgstr",
  }, 'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa : b"\n'],
  [
    "nbsp-french (fr3) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbb c",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbbb "\n"c"\n',
  ],
  [
    "cjk-wrap (c1) msgstr",
    "Python 是一種易於學習、功能強大的程式語言。它具有高效能的高階資料結構，以及簡單但有效的物件導向程式設計方法。Python 優雅的語法和動態型別，結合其直譯特性，使它成為眾多領域和大多數平臺上，撰寫腳本和快速開發應用程式的理想語言。",
    { keyword: "msgstr" },
    'msgstr ""\n"Python 是一種易於學習、功能強大的程式語言。它具有高效能的高階資料結構，以及簡"\n"單但有效的物件導向程式設計方法。Python 優雅的語法和動態型別，結合其直譯特性，"\n"使它成為眾多領域和大多數平臺上，撰寫腳本和快速開發應用程式的理想語言。"\n',
  ],
  [
    "cjk-wrap (c2) msgstr",
    "Pythonは、学びやすく、強力なプログラミング言語です。効率的な高レベルデータ構造と、シンプルで効果的なオブジェクト指向プログラミングを備えています。",
    { keyword: "msgstr" },
    'msgstr ""\n"Pythonは、学びやすく、強力なプログラミング言語です。効率的な高レベルデータ構"\n"造と、シンプルで効果的なオブジェクト指向プログラミングを備えています。"\n',
  ],
  [
    "cjk-wrap (c3) msgstr",
    "파이썬은 배우기 쉽고, 강력한 프로그래밍 언어입니다. 효율적인 자료 구조들과 객체 지향 프로그래밍에 대해 간단하고도 효과적인 접근법을 제공합니다.",
    { keyword: "msgstr" },
    'msgstr ""\n"파이썬은 배우기 쉽고, 강력한 프로그래밍 언어입니다. 효율적인 자료 구조들과 객"\n"체 지향 프로그래밍에 대해 간단하고도 효과적인 접근법을 제공합니다."\n',
  ],
  [
    "cjk-wrap (c4) msgstr",
    "下面的例子以是否显示提示符（:term:`>>>` 与 :term:`...`）区分输入与输出：输入例子中的代码时，要键入以提示符开头的行中提示符后的所有内容；未以提示符开头的行是解释器的输出。",
    { keyword: "msgstr" },
    'msgstr ""\n"下面的例子以是否显示提示符（:term:`>>>` 与 :term:`...`）区分输入与输出：输入"\n"例子中的代码时，要键入以提示符开头的行中提示符后的所有内容；未以提示符开头的"\n"行是解释器的输出。"\n',
  ],
  ["cjk-boundary (cb1) msgstr", "中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中", {
    keyword: "msgstr",
  }, 'msgstr "中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中"\n'],
  ["cjk-boundary (cb2) msgstr", "中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中", {
    keyword: "msgstr",
  }, 'msgstr ""\n"中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中"\n'],
  ["cjk-boundary (cb3) msgstr", "a中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中", {
    keyword: "msgstr",
  }, 'msgstr ""\n"a中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中"\n'],
  [
    "cjk-boundary (cb4) msgstr",
    "中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中",
    { keyword: "msgstr" },
    'msgstr ""\n"中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中"\n"中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中中"\n"中中中中"\n',
  ],
  [
    "cjk-boundary (cb5) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa中中中",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa中中中"\n',
  ],
  [
    "zero-width (z1) msgstr",
    "éééééééééééééééééééééééééééééééééééééééé éééééééééééééééééééééééééééééééééééééééé",
    { keyword: "msgstr" },
    'msgstr ""\n"éééééééééééééééééééééééééééééééééééééééé "\n"éééééééééééééééééééééééééééééééééééééééé"\n',
  ],
  [
    "zero-width (z2) msgstr",
    "word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​",
    { keyword: "msgstr" },
    'msgstr ""\n"word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​word​"\n"word​"\n',
  ],
  [
    "zero-width (z3) msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaá́ b",
    { keyword: "msgstr" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaá́ "\n"b"\n',
  ],
  [
    "zero-width (z4) msgstr",
    "soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen ",
    { keyword: "msgstr" },
    'msgstr ""\n"soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen soft­hyphen "\n"soft­hyphen "\n',
  ],
  [
    "ambiguous-width (aw1) msgstr",
    "“Quoted…” ±5° — αβγδεζηθ “Quoted…” ±5° — αβγδεζηθ “Quoted…” ±5° — αβγδεζηθ “Quoted…” ±5° — αβγδεζηθ ",
    { keyword: "msgstr" },
    'msgstr ""\n"“Quoted…” ±5° — αβγδεζηθ “Quoted…” ±5° — αβγδεζηθ “Quoted…” ±5° — αβγδεζηθ "\n"“Quoted…” ±5° — αβγδεζηθ "\n',
  ],
  [
    "ambiguous-width (aw2) msgstr",
    "Привет мир, это длинная строка на русском языке для проверки переноса строк в файле.",
    { keyword: "msgstr" },
    'msgstr ""\n"Привет мир, это длинная строка на русском языке для проверки переноса строк "\n"в файле."\n',
  ],
  [
    "emoji (em1) msgstr",
    "Party 🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags Party 🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags Party 🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags ",
    { keyword: "msgstr" },
    'msgstr ""\n"Party 🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags Party 🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags Party "\n"🎉🎉 time 👍🏽 ok 🇫🇷🇩🇪 flags "\n',
  ],
  ["plural (There is one) msgid", "There is one long message here that needs to be wrapped across lines", {
    keyword: "msgid",
  }, 'msgid "There is one long message here that needs to be wrapped across lines"\n'],
  [
    "plural (There is one) msgid_plural",
    "There are %d long messages here that need to be wrapped across lines",
    { keyword: "msgid_plural" },
    'msgid_plural ""\n"There are %d long messages here that need to be wrapped across lines"\n',
  ],
  ["plural (There is one) msgstr[0]", "Il y a un long message ici qui doit être coupé sur plusieurs lignes", {
    keyword: "msgstr[0]",
  }, 'msgstr[0] "Il y a un long message ici qui doit être coupé sur plusieurs lignes"\n'],
  [
    "plural (There is one) msgstr[1]",
    "Il y a %d longs messages ici qui doivent être coupés sur plusieurs lignes",
    { keyword: "msgstr[1]" },
    'msgstr[1] ""\n"Il y a %d longs messages ici qui doivent être coupés sur plusieurs lignes"\n',
  ],
  ["plural (one) msgstr[0]", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b", {
    keyword: "msgstr[0]",
  }, 'msgstr[0] ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n'],
  ["plural (one) msgstr[1]", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b", {
    keyword: "msgstr[1]",
  }, 'msgstr[1] ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n'],
  [
    "no-wrap-flag (A long messa) msgid",
    "A long message with no-wrap flag that is longer than seventy-nine columns for sure, yes.\nSecond line",
    { keyword: "msgid", noWrap: true },
    'msgid ""\n"A long message with no-wrap flag that is longer than seventy-nine columns for sure, yes.\\n"\n"Second line"\n',
  ],
  [
    "no-wrap-flag (A long messa) msgstr",
    "Un long message avec le drapeau no-wrap qui dépasse soixante-dix-neuf colonnes, oui.\nDeuxième",
    { keyword: "msgstr", noWrap: true },
    'msgstr ""\n"Un long message avec le drapeau no-wrap qui dépasse soixante-dix-neuf colonnes, oui.\\n"\n"Deuxième"\n',
  ],
  [
    "no-wrap-flag (aaaaaaaaaaaa) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaa",
    { keyword: "msgid", noWrap: true },
    'msgid "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaa"\n',
  ],
  [
    "format-directives (c1) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "format-directives (c2) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d "\n"b"\n',
  ],
  [
    "format-directives (p1) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-name)s b",
    { keyword: "msgid" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-"\n"name)s b"\n',
  ],
  [
    "format-directives (p2) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-name)s b",
    { keyword: "msgid", formatLanguage: "python" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"%(key-name)s b"\n',
  ],
  [
    "format-directives (p3) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {key-name} b",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {key-"\n"name} b"\n',
  ],
  [
    "format-directives (p4) msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-name)s b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-"\n"name)s b"\n',
  ],
  [
    "obsolete-long (header) #~| msgid",
    "previous long msgid for the obsolete message that will certainly need wrapping here",
    { prefix: "#~| ", keyword: "msgid", formatLanguage: "python" },
    '#~| msgid ""\n#~| "previous long msgid for the obsolete message that will certainly need "\n#~| "wrapping here"\n',
  ],
  [
    "obsolete-long (header) #~ msgid",
    "An obsolete message with a long msgid that certainly needs to be wrapped across lines",
    { prefix: "#~ ", keyword: "msgid", formatLanguage: "python" },
    '#~ msgid ""\n#~ "An obsolete message with a long msgid that certainly needs to be wrapped "\n#~ "across lines"\n',
  ],
  [
    "obsolete-long (header) #~ msgstr",
    "Un message obsolète avec un long msgid qui doit certainement être coupé sur plusieurs lignes",
    { prefix: "#~ ", keyword: "msgstr", formatLanguage: "python" },
    '#~ msgstr ""\n#~ "Un message obsolète avec un long msgid qui doit certainement être coupé "\n#~ "sur plusieurs lignes"\n',
  ],
  [
    "obsolete-long (header) #~ msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { prefix: "#~ ", keyword: "msgid" },
    '#~ msgid ""\n#~ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "obsolete-long (header) #~ msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { prefix: "#~ ", keyword: "msgstr" },
    '#~ msgstr ""\n#~ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n#~ "b"\n',
  ],
  [
    "previous-wrap (new) #| msgid",
    "previous untranslated entry, this is a long string written on multiple lines in the input file",
    { prefix: "#| ", keyword: "msgid" },
    '#| msgid ""\n#| "previous untranslated entry, this is a long string written on multiple "\n#| "lines in the input file"\n',
  ],
  [
    "previous-wrap (new) #| msgid_plural",
    "previous plural, also quite long, long enough to need wrapping here",
    { prefix: "#| ", keyword: "msgid_plural" },
    '#| msgid_plural ""\n#| "previous plural, also quite long, long enough to need wrapping here"\n',
  ],
  [
    "previous-wrap (n3) #| msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { prefix: "#| ", keyword: "msgid" },
    '#| msgid ""\n#| "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "previous-wrap (n4) #| msgid",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { prefix: "#| ", keyword: "msgid" },
    '#| msgid ""\n#| "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "header-collapse (header) msgstr",
    "Content-Type: text/plain; charset=UTF-8\n",
    { keyword: "msgstr" },
    'msgstr "Content-Type: text/plain; charset=UTF-8\\n"\n',
  ],
  ["4.2 portions a\\n\\nb\\n", "a\n\nb\n", { keyword: "msgstr" }, 'msgstr ""\n"a\\n"\n"\\n"\n"b\\n"\n'],
  ["4.6 only newlines", "\n\n", { keyword: "msgstr" }, 'msgstr ""\n"\\n"\n"\\n"\n'],
  ["4.6 empty string", "", { keyword: "msgstr" }, 'msgstr ""\n'],
  ["4.6 empty string, obsolete", "", { prefix: "#~ ", keyword: "msgid" }, '#~ msgid ""\n'],
  [
    "4.3 #~| prefix leaves 73 columns",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
    { prefix: "#~| ", keyword: "msgid" },
    '#~| msgid ""\n#~| "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b"\n',
  ],
  [
    "4.5 U+2028 restarts the columns without a line break",
    "word word word word word word word word word word  word word word word word word word word word word word word word word ",
    { keyword: "msgstr" },
    'msgstr "word word word word word word word word word word  word word word word word word word word word word word word word word "\n',
  ],
  [
    "4.5 U+2028 just after the keyword line's room",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b ",
    { keyword: "msgid" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa  b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b b "\n"b b "\n',
  ],
  [
    "4.9 python-format protects %(key-name)s (msgstr)",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %(key-name)s b",
    { keyword: "msgstr", formatLanguage: "python" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"%(key-name)s b"\n',
  ],
  [
    "4.9 c-format: the I flag only in msgstr",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %I d b",
    { keyword: "msgstr", formatLanguage: "c" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"%I d b"\n',
  ],
  [
    "4.9 c-format: the I flag only in msgstr (msgid)",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %I d b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %I "\n"d b"\n',
  ],
  [
    "4.9 c-format: after an invalid directive nothing is protected",
    "%y aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"%y aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "4.9 c-format: mixing numbered and unnumbered stops",
    "%1$d %d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"%1$d %d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "4.9 c-format: <PRId64> (no opportunity inside it)",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %<PRId64> b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "\n"%<PRId64> b"\n',
  ],
  [
    "4.9 objc-format: %@ is valid",
    "%@ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "objc" },
    'msgid ""\n"%@ "\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b"\n',
  ],
  [
    "4.9 objc %@ under c-format is invalid",
    "%@ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n"%@ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "4.9 python: named and unnamed do not mix",
    "%(a)s %d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%(b-c)s b",
    { keyword: "msgid", formatLanguage: "python" },
    'msgid ""\n"%(a)s %d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%(b-"\n"c)s b"\n',
  ],
  [
    "4.9 php-format protects % 5d",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "php" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d "\n"b"\n',
  ],
  [
    "4.9 php-format: a non-ASCII padding character (one byte in gettext) invalidates the directive",
    "%'é5d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "php" },
    'msgid ""\n"%\'é5d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "4.9 php-format: an ASCII padding character",
    "%'*5d aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgid", formatLanguage: "php" },
    'msgid ""\n"%\'*5d "\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b"\n',
  ],
  [
    "4.9 javascript-format protects % 5d",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgstr", formatLanguage: "javascript" },
    'msgstr ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d "\n"b"\n',
  ],
  [
    "4.9 javascript-format: %y is invalid and stops the parser",
    "%y aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% 5d b",
    { keyword: "msgstr", formatLanguage: "javascript" },
    'msgstr ""\n"%y aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa% "\n"5d b"\n',
  ],
  [
    "regression: python-brace marks are relative to the directive ({a.b} unprotected)",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {a.b} b",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {a."\n"b} b"\n',
  ],
  [
    "regression: python-brace {a} protects the string's 2nd and 3rd characters, not {a.b}",
    "{a}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {a.b} b",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"{a}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa {a."\n"b} b"\n',
  ],
  [
    "regression: python-brace protection at the start of the string",
    "x yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy {a: >5}",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"x yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy "\n"{a: >5}"\n',
  ],
  [
    "regression: python-brace nested {a:{b}}",
    '%@?﻿%d|{a:{b}}\b±שלום`x`word"longerwordhere±、%(name)s:class::\u0007:class:{a:{b}}{a:{b}}\n:]🇫🇷% d\u001b',
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"%@?﻿%d|{a:{b}}\\b±שלום`x`word\\"longerwordhere±、%(name)s:class::\\a:class:{a:"\n"{b}}{a:{b}}\\n"\n":]🇫🇷% d\u001b"\n',
  ],
  [
    "regression: python-brace marks are byte offsets",
    '\\測試字串{{"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy…]」\n]\r; \r]% d（longerwordhere;–\f%m\f\n%*dไทย﻿xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx%﻿    \u0001`x`\\🇫🇷%<PRId64>🇫🇷{a: >5}',
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"\\\\測試字串"\n"{{\\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy…]」\\n"\n"]\\r; \\r]% d（longerwordhere;–\\f%m\\f\\n"\n"%*dไทย﻿xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx%﻿    \u0001`x`\\\\🇫🇷%<PRId64>🇫🇷{a: >5}"\n',
  ],
  [
    "regression: python-brace getitem error is marked one byte late",
    ",­yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy%a、https://docs.python.org/3/…%(key-name)s {a.b}%a…{a:.2f}%(a b)d{a[x-y]}!Ελληνικά😀%zu%(a b)d…́3.14{0}`x`%m​",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n",­yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy%a、"\n"https://docs.python.org/3/…%(key-name)s {a.b}%a…{a:.2f}%(a b)d{a[x-y]}!"\n"Ελληνικά😀%zu%(a b)d…́3.14{0}`x`%m​"\n',
  ],
  [
    "regression: python-brace {a.b} then {a[x-y]}",
    "x yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy {a.b} {a[x-y]}",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n"x yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy "\n"{a.b} {a[x-y]}"\n',
  ],
  [
    "regression: python-brace fill lookahead is one byte",
    '{0:#010x}%jdyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy%(a)d%C%%{a:名<5}"%5$ d{0[1].x}%%%S',
    { keyword: "msgctxt", formatLanguage: "python-brace" },
    'msgctxt ""\n"{0:"\n"#010x}%jdyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy%(a)d%C%"\n"%{a:名<5}\\"%5$ d{0[1].x}%%%S"\n',
  ],
  [
    "regression: python-brace precision digits are optional in 0.21 ({0:.f} is valid)",
    "{0:.f}%(a)dyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy}}%hhd",
    { keyword: "msgctxt", formatLanguage: "python-brace" },
    'msgctxt "{0:.f}%(a)dyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy}}%hhd"\n',
  ],
  [
    "regression: seed divergence 1",
    ":class:)https://docs.python.org/3/ไทย한국어(中文«測試字串[\\.%(name)sa\n. https://docs.python.org/3/e.g.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)é:class:  {a.b}​—]-% 5d xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    { keyword: "msgid", formatLanguage: "python-brace" },
    'msgid ""\n":class:)https://docs.python.org/3/ไทย한국어(中文«測試字串[\\\\.%(name)sa\\n"\n". https://docs.python.org/3/e.g.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)é:class:  {a."\n"b}​—]-% 5d xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"\n',
  ],
  [
    "regression: seed divergence 2",
    ",»שלום中文'中文 } longerwordhereé—(?'é wordשלום測試字串—。  :class: ,測試字串 {a.b}—​word% 5dhttps://docs.python.org/3/(  [% 5d",
    { keyword: "msgid", formatLanguage: "c" },
    'msgid ""\n",»שלום中文\'中文 } longerwordhereé—(?\'é wordשלום測試字串—。  :class: ,測試字"\n"串 {a.b}—​word% 5dhttps://docs.python.org/3/(  [% 5d"\n',
  ],
  [
    "regression: seed divergence 3",
    "`x`é%(name)s   \\;😀word」%(name)s  é」​(3.14😀{% 5d、（‍😀{👍🏽`x`3.14\\'…» ",
    { prefix: "#~ ", keyword: "msgid", formatLanguage: "python" },
    '#~ msgid ""\n#~ "`x`é%(name)s   \\\\;😀word」%(name)s  é」​(3.14😀{% 5d、（‍😀{👍🏽"\n#~ "`x`3.14\\\\\'…» "\n',
  ],
];

Deno.test("wrapString prints msgcat 0.21's exact lines for the golden cases", async (t) => {
  for (const [label, value, options, expected] of GOLDEN) {
    await t.step(label, () => {
      assert.equal(wrapString(value, { prefix: "", ...options }), expected);
    });
  }
});

Deno.test('escapeString escapes \\n \\t \\r \\a \\b \\f \\v \\\\ \\" and nothing else', async (t) => {
  const cases: [string, string, string][] = [
    ["the nine escapes", '\n\t\r\x07\b\f\v"\\', '\\n\\t\\r\\a\\b\\f\\v\\"\\\\'],
    [
      "other controls, DEL, NBSP and non-ASCII stay raw",
      "\x00\x01\x1b\x7f\x85\u00a0é中😀",
      "\x00\x01\x1b\x7f\x85\u00a0é中😀",
    ],
    ["text around escapes is kept", 'a "b"\nc', 'a \\"b\\"\\nc'],
    ["the empty string", "", ""],
  ];
  for (const [label, value, expected] of cases) {
    await t.step(label, () => assert.equal(escapeString(value), expected));
  }
});

Deno.test("wrapString breaks only for width when no-wrap is off, and always after \\n", () => {
  const long = "word ".repeat(40).trim();
  assert.equal(wrapString(long, { prefix: "", keyword: "msgid", noWrap: true }), `msgid "${long}"\n`);
  assert.equal(
    wrapString(`${long}\nnext`, { prefix: "#~ ", keyword: "msgstr", noWrap: true }),
    `#~ msgstr ""\n#~ "${long}\\n"\n#~ "next"\n`,
  );
  // The same text wraps when no-wrap is off.
  assert.ok(wrapString(long, { prefix: "", keyword: "msgid" }).split("\n").length > 3);
});

Deno.test("directiveInteriors marks what gettext 0.21's format parsers protect", async (t) => {
  const marked = (value: string, language: string, translated = false) => {
    const mask = directiveInteriors(value, language, translated);
    return mask === null ? "" : [...value].map((_, i) => (mask[i] ? "^" : ".")).join("");
  };
  const cases: [string, string, string, boolean, string][] = [
    ["c: all but the first character of a directive", "x % 5d", "c", false, "...^^^"],
    ["c: numbered arguments", "%1$s %2$d", "c", false, ".^^^..^^^"],
    ["c: an invalid directive stops the parser", "%d %y %d", "c", false, ".^......"],
    ["c: numbered and unnumbered do not mix", "%1$d %d", "c", false, ".^^^..."],
    ["c: ISO C99 macros", "%<PRId64>", "c", false, ".^^^^^^^^"],
    ["c: the I flag is valid only in msgstr", "%Id", "c", true, ".^^"],
    ["c: the I flag in msgid", "%Id", "c", false, ""],
    ["c: %@ is not C", "%@", "c", false, ""],
    ["objc: %@", "%@", "objc", false, ".^"],
    ["python: named with balanced parentheses", "%(a(b)c)s", "python", false, ".^^^^^^^^"],
    ["python: named and unnamed do not mix", "%(a)s %d %(b)s", "python", false, ".^^^^........."],
    ["python: %a is not a Python 2 conversion", "%a", "python", false, ""],
    ["python-brace: marks land at the string's start", "ab {x}", "python-brace", false, ".^^..."],
    ["python-brace: UTF-8 byte offsets", "é中 {xy}", "python-brace", false, ".^....."],
    ["python-brace: {} is an error in 0.21", "{ab} {}", "python-brace", false, ""],
    ["python-brace: {{ is an escape", "{{ {ab}", "python-brace", false, ".^^^..."],
    ["python-brace: a precision without digits", "{0:.f}", "python-brace", false, ".^^^^^"],
    [
      "python-brace: two dots are an error, marked at the second",
      "{abcde} {0:..}",
      "python-brace",
      false,
      "",
    ],
    ["javascript: flags, width and precision", "%-5.2f", "javascript", false, ".^^^^^"],
    ["javascript: numbered and unnumbered do not mix", "%1$s %s", "javascript", false, ".^^^..."],
    ["php: %% and a padding character", "%% %'*5d", "php", false, ".^..^^^^"],
    ["php: numbered and unnumbered may mix", "%1$s %s", "php", false, ".^^^..^"],
    ["php: a non-ASCII padding character is invalid", "%'é5d", "php", false, ""],
    ["unknown language", "%d", "sh", false, ""],
  ];
  for (const [label, value, language, translated, expected] of cases) {
    await t.step(label, () => assert.equal(marked(value, language, translated), expected));
  }
});

Deno.test("column widths and line-break classes follow libunistring 1.0", async (t) => {
  const name = (cp: number) => LINE_BREAK_CLASS_NAMES[lineBreakClass(cp)];
  await t.step("spot checks", () => {
    assert.deepEqual(
      [0x61, 0x4e2d, 0x301, 0x1f600, 0x1f1eb, 0x2026, 0x1, 0x7f, 0xad, 0x200b, 0xac00].map(columnWidth),
      [1, 2, 0, 2, 1, 1, 0, 0, 0, 0, 2],
    );
    assert.deepEqual(
      [
        0x20,
        0x28,
        0x5c,
        0x22,
        0x2e,
        0x2d,
        0xa0,
        0x202f,
        0x2014,
        0x200b,
        0x200d,
        0x2028,
        0x3001,
        0x1f1e6,
        0x10ffff,
      ]
        .map(name),
      ["SP", "OP1", "PR", "QU", "IS", "HY", "GL", "GL", "B2", "ZW", "ZWJ", "BK", "CL", "RI", "AL"],
    );
  });
  // (the tables were generated from ../shared)
  await t.step({
    name: "every code point against shared/docs/data",
    ignore: lacks(import.meta.url, "shared"),
    fn: () => {
      const expected = (file: string, fallback: string) => {
        const values = new Array<string>(0x110000).fill(fallback);
        for (const line of Deno.readTextFileSync(new URL(`docs/data/${file}`, SHARED)).split("\n")) {
          if (line.startsWith("#") || line.trim() === "") continue;
          const [span = "", value = ""] = line.trim().split(/\s+/);
          const [lo, hi = lo] = span.split("..").map((h) => parseInt(h, 16)) as [number, number?];
          if (value !== "SURROGATE") values.fill(value, lo, hi + 1);
        }
        return values;
      };
      const classes = expected("linebreak-classes.txt", "AL");
      const widths = expected("widths.txt", "1");
      let checked = 0;
      for (let cp = 0; cp < 0x110000; cp++) {
        if (cp >= 0xd800 && cp < 0xe000) continue;
        if (name(cp) !== classes[cp]) {
          assert.fail(`class of U+${cp.toString(16)}: ${name(cp)} != ${classes[cp]}`);
        }
        const w = Math.max(0, Number(widths[cp]));
        if (columnWidth(cp) !== w) assert.fail(`width of U+${cp.toString(16)}: ${columnWidth(cp)} != ${w}`);
        checked++;
      }
      console.log(`${checked} code points checked`);
    },
  });
  await t.step({
    name: "lib/po/layout/_unicode_data.ts is what .ci/gen_unicode_data.ts writes",
    ignore: lacks(import.meta.url, "shared"),
    fn: async () => {
      const { generate } = await import("../.ci/gen_unicode_data.ts");
      assert.equal(
        Deno.readTextFileSync(new URL("../lib/po/layout/_unicode_data.ts", import.meta.url)),
        generate(),
      );
    },
  });
});

Deno.test("lib/po/layout/_scan_tables.ts is what .ci/gen_scan_tables.ts writes: the stored tables are the rules' (else run it)", async () => {
  const { generate } = await import("../.ci/gen_scan_tables.ts");
  assert.equal(
    Deno.readTextFileSync(new URL("../lib/po/layout/_scan_tables.ts", import.meta.url)),
    generate(),
  );
  // And what the modules use is what they would build.
  const { buildLineBreakAutomaton } = await import("../lib/po/layout/_linebreak.ts");
  const { buildScanSteps } = await import("../lib/po/layout/string_layout.ts");
  const built = buildLineBreakAutomaton();
  assert.deepEqual(LINE_BREAK_DFA, built);
  const tables = await import("../lib/po/layout/_scan_tables.ts");
  const steps = buildScanSteps(built);
  assert.deepEqual(tables.DFA_BY_NUMBER, steps.dfaByNumber);
  assert.deepEqual(tables.ASCII_STEP, steps.asciiStep);
  assert.equal(steps.asciiStep.length, (built.length / CLASS_COUNT) * 128);
});

Deno.test("the BMP tables filled at start-up are the whole tables' BMP part", async () => {
  const { bmpTable, codePointTable } = await import("../lib/po/layout/_code_point_runs.ts");
  const { LINE_BREAK_RUNS, WIDTH_RUNS } = await import("../lib/po/layout/_unicode_data.ts");
  const { BMP_CLASSES } = await import("../lib/po/layout/_linebreak.ts");
  const { BMP_WIDTHS } = await import("../lib/po/layout/_width.ts");
  assert.deepEqual(BMP_CLASSES, codePointTable(LINE_BREAK_RUNS, (cls) => cls).bmp);
  assert.deepEqual(BMP_WIDTHS, codePointTable(WIDTH_RUNS, (w) => Math.max(0, w)).bmp);
  // Runs that end inside the BMP, at U+FFFF, and one that crosses it.
  for (
    const runs of [[0, 1], [0, 2, 0x300, -1, 0x370, 1], [0, 1, 0xffff, 2], [0, 1, 0xfff0, 2, 0x10400, 0]]
  ) {
    assert.deepEqual(bmpTable(runs), codePointTable(runs, (v) => Math.max(0, v)).bmp, JSON.stringify(runs));
  }
});

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("the line-break automaton gives the rules' breaks on random text", () => {
  const rnd = random(7);
  const names = [
    "SP",
    "AL",
    "CM",
    "ZWJ",
    "ZW",
    "RI",
    "HL",
    "HY",
    "BA",
    "OP1",
    "QU",
    "IS",
    "NU",
    "ID1",
    "BK",
    "CL",
  ];
  const favoured = names.map((n) => LINE_BREAK_CLASS_NAMES.indexOf(n));
  const classes = new Uint8Array(40);
  const byRules = new Uint8Array(40);
  for (let run = 0; run < 20000; run++) {
    for (let i = 0; i < classes.length; i++) {
      classes[i] = rnd() < 0.6
        ? favoured[Math.floor(rnd() * favoured.length)]!
        : Math.floor(rnd() * CLASS_COUNT);
    }
    possibleLineBreaks(classes, 0, classes.length, byRules);
    let state = LINE_BREAK_DFA_START;
    for (let i = 0; i < classes.length; i++) {
      const t = LINE_BREAK_DFA[state + classes[i]!]!;
      if ((t & 3) !== byRules[i]) assert.fail(`run ${run}, position ${i}: ${t & 3} != ${byRules[i]}`);
      state = t >> 2;
    }
  }
  const scan = startLineBreakScan();
  const text = "a (b) c\u2028d";
  assert.deepEqual(
    [...text].map((c) => nextLineBreak(scan, lineBreakClass(c.codePointAt(0)!))),
    [0, 0, 1, 0, 0, 0, 1, BREAK_MANDATORY, 0].map((b) =>
      b === 1 ? BREAK_POSSIBLE : b === 0 ? BREAK_PROHIBITED : b
    ),
  );
});

const UNESCAPE: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  '"': '"',
  "\\": "\\",
};

/** gettext 0.21's format languages in its order: the first one flagged decides (section 3.5). */
const FORMAT_ORDER =
  "c objc python python-brace java java-printf csharp javascript scheme lisp elisp librep ruby sh awk lua object-pascal smalltalk qt qt-plural kde kde-kuit boost tcl perl perl-brace php gcc-internal gfc-internal ycp"
    .split(" ");

/**
 * Re-prints every string block of a msgcat output with wrapString (options from the block's
 * prefix and keyword and the entry's `#,` line) and returns the blocks that come out different.
 */
function compareBlocks(output: string): { total: number; mismatches: string[] } {
  const lines = output.split("\n");
  let formatLanguage: string | null = null;
  let noWrap = false;
  let total = 0;
  const mismatches: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!; // i < lines.length
    if (line === "") {
      formatLanguage = null;
      noWrap = false;
      continue;
    }
    const flags = /^#, (.*)$/.exec(line);
    if (flags) {
      const list = (flags[1] ?? "").split(", ");
      noWrap = list.includes("no-wrap");
      formatLanguage = FORMAT_ORDER.find((l) => list.includes(`${l}-format`)) ?? null;
      continue;
    }
    const m = /^((?:#~\| |#~ |#\| )?)(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$/.exec(line);
    if (!m) continue;
    // The three groups take part in every match.
    const [, prefix = "", keyword = "", first = ""] = m;
    const block = [line];
    let raw = first;
    while (lines[i + 1]?.startsWith(`${prefix}"`)) {
      const next = lines[++i]!;
      block.push(next);
      raw += next.slice(prefix.length + 1, -1);
    }
    const value = raw.replace(/\\(.)/g, (_, c: string) => UNESCAPE[c] ?? c);
    const expected = block.join("\n") + "\n";
    total++;
    const got = wrapString(value, { prefix, keyword, noWrap, formatLanguage });
    if (got !== expected) {
      mismatches.push(
        `${JSON.stringify({ prefix, keyword, noWrap, formatLanguage })}\n${expected}--- got\n${got}`,
      );
    }
  }
  return { total, mismatches };
}

/** The text of a PO file decoded with its header's charset (UTF-8 when it names none). */
function decodePo(bytes: Uint8Array): string {
  const ascii = new TextDecoder("latin1").decode(bytes.subarray(0, 4000));
  const charset = /charset=([A-Za-z0-9_-]+)/.exec(ascii)?.[1] ?? "UTF-8";
  return new TextDecoder(charset).decode(bytes);
}

Deno.test("committed msgcat outputs in tests/fixtures/po_wrap are reproduced block by block", () => {
  let total = 0;
  for (const entry of Deno.readDirSync(FIXTURES)) {
    if (!entry.name.endsWith(".out.po")) continue;
    const r = compareBlocks(Deno.readTextFileSync(new URL(entry.name, FIXTURES)));
    assert.deepEqual(r.mismatches.slice(0, 3), [], entry.name);
    total += r.total;
  }
  console.log(`${total} committed msgcat string blocks compared, 0 mismatched`);
  assert.ok(total > 1000);
});

Deno.test("every string block of the msgcat vectors' outputs is reproduced", {
  ignore: lacks(import.meta.url, "shared"),
}, () => {
  const dir = new URL("corpus/msgcat-vectors/", SHARED);
  let total = 0;
  const bad: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".out.po")) continue;
    const r = compareBlocks(decodePo(Deno.readFileSync(new URL(entry.name, dir))));
    total += r.total;
    bad.push(...r.mismatches.map((m) => `${entry.name}: ${m}`));
  }
  console.log(`${total} string blocks of msgcat-vectors/*.out.po compared, ${bad.length} mismatched`);
  assert.deepEqual(bad.slice(0, 3), []);
  assert.ok(total > 300);
});

Deno.test("every string block msgcat prints for the shared corpus is reproduced", {
  ignore: lacks(import.meta.url, "shared", "msgcat"),
}, () => {
  let total = 0;
  let files = 0;
  const bad: string[] = [];
  for (const dir of ["corpus/po/", "corpus/msgcat-vectors/"]) {
    for (const entry of Deno.readDirSync(new URL(dir, SHARED))) {
      if (!entry.name.endsWith(".po") || entry.name.endsWith(".out.po")) continue;
      const out = new Deno.Command("msgcat", {
        args: [new URL(dir + entry.name, SHARED).pathname],
        stdout: "piped",
        stderr: "null",
      }).outputSync();
      if (!out.success) continue; // files msgcat rejects (there are a few on purpose)
      files++;
      const r = compareBlocks(decodePo(out.stdout));
      total += r.total;
      bad.push(...r.mismatches.map((m) => `${entry.name}: ${m}`));
    }
  }
  console.log(
    `${total} string blocks of msgcat's output for ${files} corpus files compared, ${bad.length} mismatched`,
  );
  assert.deepEqual(bad.slice(0, 3), []);
  assert.ok(total > 60000);
});

/** Pieces the random strings are made of: text of many line-break classes, escapes, directives. */
const ATOMS = [
  "word",
  "a",
  "the",
  "longerwordhere",
  "x".repeat(30),
  "y".repeat(85),
  " ",
  "  ",
  "    ",
  ".",
  ",",
  ":",
  ";",
  "!",
  "?",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "'",
  '"',
  "/",
  "\\",
  "-",
  "|",
  "\n",
  "\t",
  "\r",
  "\x07",
  "\b",
  "\f",
  "\v",
  "\x01",
  "\x1b",
  "\x7f",
  "\x85",
  "中文",
  "測試字串",
  "、",
  "。",
  "（",
  "」",
  "ー",
  "한국어",
  "가",
  "ᄀ",
  "😀",
  "👍🏽",
  "🇫🇷",
  "🇩🇪",
  "🎉",
  "e\u0301",
  "\u0301",
  "\u200d",
  "\u200b",
  "\u00a0",
  "\u202f",
  "\u2028",
  "\u2029",
  "\u00ad",
  "\ufeff",
  "\u2060",
  "%d",
  "%s",
  "% d",
  "%5d",
  "%-5s",
  "%1$s",
  "%2$ d",
  "%<PRId64>",
  "%<PRIu32>",
  "%I d",
  "%'d",
  "%.*f",
  "%*d",
  "%lld",
  "%zu",
  "%m",
  "%@",
  "%a",
  "%F",
  "%r",
  "%%",
  "% %",
  "%5%",
  "%",
  "%(name)s",
  "%(key-name)s",
  "%(a b)d",
  "%(x)",
  "%(",
  "{a.b}",
  "{a.b-c}",
  "{a[x-y]}",
  "{0:-^10}",
  "{a:{b}}",
  "{}",
  "{{",
  "}}",
  "{0}",
  "{name}",
  "{a: >5}",
  "{a:.2f}",
  "{key-name}",
  ":class:",
  "`x`",
  "e.g.",
  "3.14",
  "https://docs.python.org/3/",
  "-x",
  "«",
  "»",
  "…",
  "—",
  "–",
  "שלום",
  "־",
  "ไทย",
  "Ελληνικά",
  "±",
  "°",
];

/** Directive-heavy pieces for the format-flagged entries. */
const DIRECTIVE_ATOMS = [
  " ",
  " ",
  "  ",
  "a",
  "word",
  "-",
  ".",
  "x".repeat(20),
  "中文",
  "é",
  "\n",
  '"',
  "y".repeat(60),
  "{a[0]}",
  "{0[1].x}",
  "{a!r}",
  "{a:{b}x}",
  "{:d}",
  "{a:{{}",
  "}}",
  "{{",
  "{a.b}",
  "{a.b-c}",
  "{a[x-y]}",
  "{a[xy-]}",
  "{a[x}",
  "{ab.cd-ef}",
  "{a:5",
  "{0:-^10}",
  "{a: >5}",
  "{a:>5x}",
  "{a[b]:}",
  "{0:{a.b}}",
  "{0:{a[b-c]}}",
  "{}",
  "{-}",
  "{a.}",
  "{a[]}",
  "{a:{b:c}}",
  "{a:{}}",
  "{名}",
  "{a.名}",
  "{a:名<5}",
  "{é}",
  "{0:.2f}",
  "{0:.f}",
  "{0:#010x}",
  "{abc}",
  "{a1_b2}",
  "{_}",
  "%1$d",
  "%2$s",
  "%0$d",
  "%*1$d",
  "%.*2$d",
  "%<PRIdMAX>",
  "%<PRIuLEAST16>",
  "%<PRIx>",
  "%<PRId64",
  "%hhd",
  "%Id",
  "%I d",
  "%I%",
  "%'.2f",
  "%-+ #0'5.3ld",
  "%n",
  "%p",
  "%C",
  "%S",
  "%q",
  "%Zd",
  "%jd",
  "%td",
  "%Lf",
  "%5$ d",
  "%1$ -d",
  "%(a)d",
  "%(a)s",
  "%(a(b)c)s",
  "%(a)%",
  "%(a- b)5.2f",
  "%.*f",
  "%ld",
  "%-(a)s",
  "%(名前)s",
  "% d",
  "%d",
  "%s",
  "%%",
  "%",
  "% ",
  "%5",
  "%.",
  "%(a",
];

/** printf-like pieces for the php and javascript entries. */
const PRINTF_ATOMS = [
  " ",
  " ",
  "  ",
  "a",
  "word",
  "-",
  ".",
  "x".repeat(20),
  "中文",
  "é",
  "\n",
  '"',
  "y".repeat(60),
  "%d",
  "%s",
  "% d",
  "%'x5d",
  "%'é5d",
  "%' d",
  "%'",
  "%-5s",
  "%05.2f",
  "%1$s",
  "%2$ d",
  "%0$d",
  "%%",
  "%",
  "% ",
  "%5",
  "%.",
  "%.2",
  "%.d",
  "%ld",
  "%l d",
  "%b",
  "%u",
  "%e",
  "%E",
  "%F",
  "%j",
  "%I d",
  "%+d",
  "%+ d",
  "% I5.3x",
  "%1$%",
  "%x",
  "%X",
  "%o",
  "%c",
  "%'%",
  "%- 5s",
  "%-'*10s",
  "%3$-5s",
  "%1$ 5.1f",
  "%4294967296$d",
];

function randomStrings(rnd: () => number, atoms: string[], count: number, maxAtoms: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = "";
    const n = 1 + Math.floor(rnd() * maxAtoms);
    for (let k = 0; k < n; k++) s += atoms[Math.floor(rnd() * atoms.length)];
    out.push(s);
  }
  return out;
}

/**
 * A PO file holding each string in several fields: msgctxt/msgid/msgstr, or msgctxt/msgid_plural/
 * msgstr[N]; every 7th entry obsolete, every 5th with `#|` previous fields; flags from `flags`.
 */
function randomCatalog(strings: string[], flags: string[]): string {
  let po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
  strings.forEach((s, i) => {
    const q = `"${escapeString(s)}"`;
    const obsolete = i % 7 === 3;
    const p = obsolete ? "#~ " : "";
    const previous = obsolete ? "#~| " : "#| ";
    po += flags[i % flags.length];
    if (i % 5 === 1) po += `${previous}msgctxt ${q}\n${previous}msgid ${q}\n`;
    if (i % 4 === 2) {
      po += `${p}msgctxt ${q}\n${p}msgid "${i}"\n${p}msgid_plural ${q}\n`;
      po += `${p}msgstr[0] ${q}\n${p}msgstr[1] "x"\n${p}msgstr[2] ${q}\n\n`;
    } else po += `${p}msgctxt "${i}"\n${p}msgid ${q}\n${p}msgstr ${q}\n\n`;
  });
  return po;
}

/** Every combination of one piece from each list, concatenated. */
function combinations(...lists: string[][]): string[] {
  return lists.reduce<string[]>((acc, list) => acc.flatMap((a) => list.map((b) => a + b)), [""]);
}

/** Directive variants per format language: valid and invalid, built from each grammar's parts. */
const DIRECTIVE_VARIANTS: Record<string, string[]> = {
  c: combinations(
    ["%"],
    ["", "1$", "0$"],
    ["", " ", "-", "'", "I", " -"],
    ["", "5", "*", "*1$"],
    ["", ".", ".3", ".*"],
    ["", "hh", "l", "Z", "I64"],
    ["d", "%", "m", "@", "y", "<PRId64>", "<PRIuFAST8>", "<PRI>", " "],
  ),
  objc: combinations(["%"], ["", "1$"], ["", " ", "#"], ["", "5"], ["", "l"], ["d", "@", "y", " "]),
  python: combinations(
    ["%"],
    ["", "(a)", "(a b)", "(a(b))", "("],
    ["", " ", "-", "- "],
    ["", "5", "*"],
    ["", ".", ".3", ".*"],
    ["", "h", "L"],
    ["d", "s", "r", "a", "%", "F", " "],
  ),
  "python-brace": combinations(
    ["{"],
    ["0", "a", "", "-"],
    ["", ".b", "[0]", "[x-y]", "!r"],
    ["", ":", ":{b}", ":{{", ":x<", ":名<", ": >+#05", ":.", ":.2f", ":..", ":x."],
    ["}", "", " }"],
  ),
  php: combinations(["%"], ["", "1$", "0$"], ["", " ", "-", "'x", "'é", "'"], ["", "5"], ["", ".", ".3"], [
    "d",
    "%",
    "F",
    " ",
  ]),
  javascript: combinations(["%"], ["", "1$", "0$"], ["", " ", "+", "I"], ["", "5"], ["", ".", ".3"], [
    "d",
    "j",
    "%",
    "F",
    " ",
  ]),
};

/**
 * Strings that show whether a directive is protected and whether the parser goes on after it:
 * the directive at several columns around the line end, followed by directives that need
 * protecting. For python-brace (marks relative to the directive) a first directive of each length
 * sets where the marks land.
 */
function directiveProbes(language: string, variant: string): string[] {
  const probes: string[] = [];
  if (language === "python-brace") {
    for (const k of [2, 3, 4, 5, 6, 8]) {
      probes.push(`x ${"y".repeat(80)} {${"a".repeat(k - 1)}} ${variant} {b}`);
    }
  } else {
    for (let n = 58; n <= 76; n += 3) probes.push(`${"a".repeat(n)} ${variant} % 5d %(x-y)s b`);
    probes.push(`${variant} ${"a".repeat(66)}% 5d %(x-y)s b`);
  }
  return probes;
}

Deno.test("directive variants are protected exactly as msgcat protects them", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async (t) => {
  const dir = Deno.makeTempDirSync();
  try {
    for (const [language, variants] of Object.entries(DIRECTIVE_VARIANTS)) {
      await t.step(language, () => {
        const rnd = random(language.length);
        const picked = variants.length <= 250
          ? variants
          : Array.from({ length: 250 }, () => variants[Math.floor(rnd() * variants.length)]!);
        let po = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n';
        let id = 0;
        for (const variant of picked) {
          for (const probe of directiveProbes(language, variant)) {
            const q = `"${escapeString(probe)}"`;
            po += `#, ${language}-format\nmsgctxt "${id++}"\nmsgid ${q}\nmsgstr ${q}\n\n`;
          }
        }
        const path = `${dir}/directives.po`;
        Deno.writeTextFileSync(path, po);
        const out = msgcat(path);
        assert.ok(out !== null, "msgcat accepted the generated file");
        const r = compareBlocks(out);
        console.log(
          `${picked.length} ${language} directive variants, ${r.total} string blocks compared, ${r.mismatches.length} mismatched`,
        );
        assert.deepEqual(r.mismatches.slice(0, 3), []);
        assert.ok(r.total > 2 * picked.length);
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("random strings wrap exactly as msgcat wraps them", {
  ignore: lacks(import.meta.url, "msgcat"),
}, async (t) => {
  const runs: [string, string[], string[]][] = [
    [
      "mixed text, escapes, CJK, emoji, zero-width and break characters",
      randomStrings(random(20261122), ATOMS, 2500, 40),
      [
        "",
        "",
        "#, c-format\n",
        "#, python-format\n",
        "#, python-brace-format\n",
        "#, no-wrap\n",
        "#, objc-format\n",
      ],
    ],
    [
      "short strings near the width",
      randomStrings(random(1122), ATOMS, 1500, 10),
      ["", "#, no-wrap\n", "#, fuzzy, c-format\n", "#, possible-python-format\n"],
    ],
    [
      "directive-heavy strings under format flags",
      randomStrings(random(4242), DIRECTIVE_ATOMS, 2000, 14),
      [
        "#, c-format\n",
        "#, python-format\n",
        "#, python-brace-format\n",
        "#, objc-format\n",
        "#, c-format, python-format\n",
      ],
    ],
    [
      "printf-like strings under php-format and javascript-format",
      randomStrings(random(5151), PRINTF_ATOMS, 1500, 12),
      ["#, php-format\n", "#, javascript-format\n", "#, php-format, no-wrap\n", "#, c-format, php-format\n"],
    ],
  ];
  const dir = Deno.makeTempDirSync();
  try {
    for (const [label, strings, flags] of runs) {
      await t.step(label, () => {
        const path = `${dir}/random.po`;
        Deno.writeTextFileSync(path, randomCatalog(strings, flags));
        const out = msgcat(path);
        assert.ok(out !== null, "msgcat accepted the generated file");
        const r = compareBlocks(out);
        console.log(
          `${strings.length} random strings, ${r.total} string blocks compared, ${r.mismatches.length} mismatched`,
        );
        assert.deepEqual(r.mismatches.slice(0, 3), []);
        assert.ok(r.total > 3 * strings.length);
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
