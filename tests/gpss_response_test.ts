import assert from "node:assert/strict";
import { describeGpssMessage } from "../lib/gpss/messages.ts";
import { MAX_NESTING_DEPTH } from "../lib/gpss/_shape.ts";
import {
  GpssResponseError,
  type GpssResponseErrorKind,
  parseGpssJson,
  parseGpssResponse,
  parseXml,
  type PatentRecord,
  xmlToJsonShape,
} from "../lib/gpss/response.ts";

const FIXTURES = new URL("./fixtures/gpss/", import.meta.url);

function fixture(name: string): string {
  // Stored as `.body` so that `deno fmt` never "repairs" a deliberately broken body.
  return Deno.readTextFileSync(new URL(`${name}.body`, FIXTURES));
}

function records(body: string): PatentRecord[] {
  const parsed = parseGpssResponse(body);
  assert.equal(parsed.kind, "records");
  return parsed.kind === "records" ? parsed.records : [];
}

function party(name: string | null, english_name: string | null, country_code: string | null) {
  return { name, english_name, country_code };
}

/** The two records of the doc's reconstructed sample (§3.7/§3.8), as PatentRecords. */
const SAMPLE_RECORDS: PatentRecord[] = [
  {
    patent_number: "TW202300001A",
    publication_date: "20230101",
    application_number: "TW111100001",
    application_date: "20220103",
    title: "快速充電方法",
    english_title: "FAST CHARGING METHOD",
    abstract: ["一種快速充電方法，包含……", "A fast charging method comprising ..."],
    applicants: [
      party("範例電池股份有限公司", "EXAMPLE BATTERY CO., LTD.", "TW"),
      party("範例大學", "EXAMPLE UNIVERSITY", "TW"),
    ],
    inventors: [party("王小明", "WANG, HSIAO-MING", "TW"), party("林大成", "LIN, TA-CHENG", "TW")],
    ipc: ["H01M 10/44", "H02J 7/00"],
    cpc: ["H01M 10/441"],
    database: "TWA",
  },
  {
    patent_number: "US09415051B1",
    publication_date: "20160816",
    application_number: "US14000001",
    application_date: "20140101",
    title: "Use of pemirolast",
    english_title: "Use of pemirolast",
    abstract: ["A method of treating ... airway hyperresponsiveness ..."],
    applicants: [party("EXAMPLE PHARMA INC.", "EXAMPLE PHARMA INC.", "US")],
    inventors: [party("DOE, JANE", "DOE, JANE", "US")],
    ipc: ["A61K 31/519"],
    cpc: [],
    database: "USB",
  },
];

const SINGLE_RECORD: PatentRecord = {
  patent_number: "US09415051B1",
  publication_date: "20160816",
  application_number: "US14000001",
  application_date: "20140101",
  title: "Use of pemirolast",
  english_title: "Use of pemirolast",
  abstract: ["A method of treating idiopathic pulmonary fibrosis."],
  applicants: [party("EXAMPLE PHARMA INC.", "EXAMPLE PHARMA INC.", "US")],
  inventors: [party("DOE, JANE", "DOE, JANE", "US")],
  ipc: ["A61K 31/519"],
  cpc: ["A61K 31/519"],
  database: "USB",
};

Deno.test("parseGpssResponse reads the JSON and XML samples into the same records", async (t) => {
  for (const name of ["success.json", "success.xml"]) {
    await t.step(name, () => {
      const parsed = parseGpssResponse(fixture(name));
      assert.equal(parsed.kind, "records");
      if (parsed.kind !== "records") return;
      assert.equal(parsed.format, name.endsWith(".json") ? "json" : "xml");
      assert.equal(parsed.status, "success");
      assert.equal(parsed.totalCount, 2);
      assert.equal(parsed.qtyRec, 2);
      assert.deepEqual(parsed.records, SAMPLE_RECORDS);
    });
  }
});

Deno.test("a single record, applicant, ipc and paragraph arriving as objects become lists", async (t) => {
  for (const name of ["single_record.json", "single_record.xml"]) {
    await t.step(name, () => {
      const parsed = parseGpssResponse(fixture(name));
      assert.equal(parsed.kind, "records");
      if (parsed.kind !== "records") return;
      // total-rec is a number in the JSON fixture, a string in the XML; qty-rec echoes expQty (30).
      assert.equal(parsed.totalCount, 1);
      assert.equal(parsed.qtyRec, 30);
      assert.deepEqual(parsed.records, [SINGLE_RECORD]);
    });
  }
});

Deno.test("JSON quirks: BOM, root casing, lists for text, strings for sections, empty values", () => {
  const parsed = parseGpssResponse(fixture("quirks.json"));
  assert.equal(parsed.kind, "records");
  if (parsed.kind !== "records") return;
  assert.equal(parsed.status, "SUCCESS");
  assert.equal(parsed.totalCount, 57, "total-rec, not the array length");
  assert.equal(parsed.qtyRec, 30);
  assert.equal(parsed.records.length, 3, "the array, not qty-rec");
  assert.deepEqual(parsed.records[0], {
    patent_number: "TWI800001B",
    publication_date: "20230611",
    application_number: null,
    application_date: null,
    title: "毫米波雷達",
    english_title: "MILLIMETER WAVE RADAR",
    abstract: ["一種雷達。", "A radar.", "Second English paragraph."],
    applicants: [party("範例科技股份有限公司", null, null)],
    inventors: [party("張雅婷", null, "TW")],
    ipc: ["G01S 13/88", "G01S 7/41"],
    cpc: [],
    database: null,
  });
  assert.deepEqual(parsed.records[1], {
    patent_number: "US20230099999A1",
    publication_date: null,
    application_number: null,
    application_date: null,
    title: "Plain title string",
    english_title: null,
    abstract: ["A plain abstract string."],
    applicants: [],
    inventors: [],
    ipc: [],
    cpc: [],
    database: "USA",
  });
  assert.equal(parsed.records[2]?.title, null, "an empty title is null (some TW records: §3.4)");
  assert.equal(parsed.records[2]?.english_title, null);
  assert.deepEqual(parsed.records[2]?.applicants, [], "an applicant without a name is dropped");
});

Deno.test("XML quirks: comments, PIs, CDATA, entities, mixed content, empty and text-only elements", () => {
  const [rec] = records(fixture("quirks.xml"));
  assert.deepEqual(rec, {
    patent_number: "CN115000001A",
    publication_date: "20220902",
    application_number: null,
    application_date: null,
    // &amp; &lt; &gt; and numeric references decoded; the unknown &nbsp; is kept as written.
    title: "毫米波&太赫兹 雷達 <型> &nbsp;",
    english_title: null,
    abstract: ["A <radar> & more", "H2O cooled"],
    applicants: [],
    inventors: [],
    ipc: ["G01S 13/89"],
    cpc: ["G01S 13/89", "G01S 7/03"],
    database: "CNA",
  });
});

Deno.test("the known invalid-JSON cases are repaired", async (t) => {
  await t.step("unescaped backslash is kept as text; a valid escape still decodes", () => {
    const [rec] = records(fixture("invalid_backslash.json"));
    assert.ok(rec);
    assert.equal(rec.title, "毫米波\\太赫兹雷达");
    assert.equal(rec.english_title, "C:\\radar");
  });
  await t.step("missing comma before f-term and between list items", () => {
    const [rec] = records(fixture("missing_comma.json"));
    assert.ok(rec);
    assert.equal(rec.patent_number, "JP2012224629A");
    assert.equal(rec.english_title, "WIRELESS POWER FEEDING DEVICE");
    assert.deepEqual(rec.abstract, ["無線で電力を供給する。", "To supply power wirelessly."]);
  });
  await t.step("raw control characters inside strings", () => {
    const [rec] = records(fixture("control_char.json"));
    assert.ok(rec);
    assert.deepEqual(rec.abstract, ["line one\nline two\tafter tab"]);
  });
});

Deno.test("bodies that cannot be read throw GpssResponseError of the right kind", async (t) => {
  const cases: [string, string, GpssResponseErrorKind, RegExp][] = [
    ["truncated JSON fixture", fixture("truncated.json"), "truncated", /JSON body ends early at offset \d+/],
    ["truncated XML fixture", fixture("truncated.xml"), "truncated", /XML body ends early at offset \d+/],
    ["JSON cut inside a string", '{"gpss-API":{"status":"succ', "truncated", /ends early/],
    ["JSON cut inside a literal", '{"a":tr', "truncated", /ends early/],
    ["JSON cut after a number", '{"a":12', "truncated", /ends early/],
    ["JSON cut inside a \\u escape", '{"a":"\\u00', "truncated", /ends early/],
    ["XML cut inside a start tag", "<gpss-API><status", "truncated", /ends early/],
    ["XML cut inside an attribute", '<gpss-API><p a="1', "truncated", /ends early/],
    ["XML cut inside CDATA", "<gpss-API><p><![CDATA[abc", "truncated", /ends early/],
    ["empty body", "", "empty", /empty body/],
    ["whitespace body", " \r\n ", "empty", /empty body/],
    ["usage stub", fixture("usage.txt"), "unrecognized", /not GPSS JSON or XML: "usage:/],
    ["Cloudflare HTML page", fixture("cloudflare.html"), "unrecognized", /not GPSS JSON or XML/],
    ["plain HTML", "<html><body>error</body></html>", "unrecognized", /not GPSS JSON or XML/],
    [
      "XML without envelope",
      "<foo><bar>1</bar></foo>",
      "unrecognized",
      /no gpss-API envelope in the XML body/,
    ],
    ["JSON without envelope", '{"foo": 1}', "unrecognized", /no gpss-API envelope in the JSON body/],
    ["JSON array", "[1, 2]", "unrecognized", /no gpss-API envelope/],
    ["JSON with a bad token", '{"a": @}', "malformed", /invalid JSON: expected a value at offset 6/],
    ["JSON with text after the value", '{"a": 1} x', "malformed", /unexpected text after the JSON value/],
    ["XML with mismatched tags", "<gpss-API><a></b></gpss-API>", "malformed", /<\/b> closes <a>/],
    ["XML with two roots", "<a/><b/>", "malformed", /a second root element/],
    ["XML with text outside the root", "<a/>junk", "malformed", /text outside the root element/],
    [
      "XML DTD with an entity",
      '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "boom">]><a>&x;</a>',
      "malformed",
      /DTD/,
    ],
  ];
  for (const [name, body, kind, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => parseGpssResponse(body), (err) => {
        assert.ok(err instanceof GpssResponseError, `got ${err}`);
        assert.equal(err.kind, kind);
        assert.match(err.message, message);
        return true;
      });
    });
  }
});

Deno.test("nesting deeper than the limit is refused in both formats", async (t) => {
  const depth = MAX_NESTING_DEPTH + 1;
  await t.step("JSON", () => {
    const body = '{"gpss-API":' + '{"a":'.repeat(depth) + "1" + "}".repeat(depth) + "}";
    // JSON.parse accepts it; the limit applies to the lenient path, which a broken body takes.
    const broken = body.replace('"a":1', '"a":1 "b":2');
    assert.throws(() => parseGpssJson(broken), (err) => {
      assert.ok(err instanceof GpssResponseError);
      assert.equal(err.kind, "malformed");
      assert.match(err.message, /nested deeper than 64 levels/);
      return true;
    });
  });
  await t.step("XML", () => {
    const body = "<a>".repeat(depth) + "</a>".repeat(depth);
    assert.throws(() => parseXml(body), /XML nested deeper than 64 levels/);
    assert.doesNotThrow(() => parseXml("<a>".repeat(MAX_NESTING_DEPTH) + "</a>".repeat(MAX_NESTING_DEPTH)));
  });
});

Deno.test("member names like __proto__ stay plain data", () => {
  const lenient = parseGpssJson('{"__proto__": {"polluted": 1} "x": 1}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(lenient), Object.prototype);
  assert.deepEqual(Object.keys(lenient), ["__proto__", "x"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const xml = xmlToJsonShape(parseXml("<r><__proto__><polluted>1</polluted></__proto__></r>"));
  assert.equal(Object.getPrototypeOf(xml), Object.prototype);
  assert.deepEqual(Object.keys(xml as object), ["__proto__"]);
});

Deno.test("xmlToJsonShape mirrors GPSS JSON: @attributes, repeated elements as lists, text", () => {
  const shape = xmlToJsonShape(parseXml(
    '<r a="1"><p>x</p><p>y</p><q b="2">z</q><e/><m>one<i>two</i>three</m></r>',
  ));
  assert.deepEqual(shape, {
    "@a": "1",
    p: ["x", "y"],
    q: { "@b": "2", "#text": "z" },
    e: "",
    m: { i: "two", "#text": "onetwothree" },
  });
});

Deno.test("in-band messages are recognised whatever their casing", async (t) => {
  const cases: [string, string][] = [
    ["No record found", "no_record"],
    ["no record found", "no_record"],
    ["userCode not exist", "auth"],
    ["USERCODE NOT EXIST", "auth"],
    ["userCode expired", "expired"],
    ["IP blocked", "ip_blocked"],
    ["Over download quantity", "quota"],
    ["over search quantity", "quota"],
    ["No search command", "no_search_command"],
    ["Exceeded search condition length", "too_long"],
    ["Cannot use truncated and kerning", "truncation"],
    ["expSkip too much", "skip"],
    ["Unknow field", "unknown_field"],
    ["Something new", "other"],
  ];
  for (const [message, kind] of cases) {
    await t.step(message, () => {
      const info = describeGpssMessage(message);
      assert.equal(info.kind, kind);
      if (kind === "no_record") assert.equal(info.error, null);
      else assert.ok(info.error !== null && info.error.length > 20);
    });
  }
  await t.step("the errors say what to fix", () => {
    assert.match(describeGpssMessage("userCode not exist").error!, /set USER_CODE/);
    assert.match(describeGpssMessage("userCode expired").error!, /365 days.*apply for a new code/);
    assert.match(describeGpssMessage("IP blocked").error!, /blocked this server's IP address/);
    assert.match(describeGpssMessage("Over download quantity").error!, /quota is used up/);
    assert.match(describeGpssMessage("Cannot use truncated and kerning").error!, /\*, \?\) or proximity/);
    assert.equal(describeGpssMessage("Something new").error, 'GPSS reported: "Something new"');
    assert.equal(describeGpssMessage("", "fail").error, 'GPSS answered with status "fail" and no records');
  });
});

Deno.test("message bodies: the message wins; a failed status without one is a message too", async (t) => {
  const cases: [string, string | null, string][] = [
    ["no_record.json", "success", "No record found"],
    ["no_record_lowercase.xml", "success", "no record found"],
    ["usercode_not_exist.xml", null, "userCode not exist"],
    ["over_download_quantity.json", "success", "Over download quantity"],
    ["status_fail.json", "fail", ""],
  ];
  for (const [name, status, message] of cases) {
    await t.step(name, () => {
      const parsed = parseGpssResponse(fixture(name));
      assert.deepEqual(parsed, { kind: "message", format: name.slice(-4).replace(".", ""), status, message });
    });
  }
});
