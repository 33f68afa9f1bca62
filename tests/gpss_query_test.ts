import assert from "node:assert/strict";
import { InvalidInputError } from "../lib/errors.ts";
import {
  APPLICATION_TYPE_CODES,
  DATABASE_CODES,
  getAvailableDatabases,
  PATENT_TYPE_CODES,
  requestParams,
  SEARCH_FIELDS,
  type SearchRequest,
} from "../lib/gpss/mod.ts";
import { buildQuery, encodeGpssValue, normalizeSearchRequest } from "../lib/gpss/query.ts";
import { DATABASES, REGIONS, SEARCH_FIELD_ALIASES } from "../lib/gpss/codes.ts";
import { SEARCH_EXAMPLE_DESCRIPTIONS, SEARCH_EXAMPLES } from "../routes/patent_examples.ts";
import { SearchPatentsRequest, searchRequestFromBody } from "../routes/patents.ts";

const CODE = "9fA3c27BdE41b6C0";
const TAIL = "expFld=PN,ID,AN,AD,TI,AB,PA,IN,IC,CS&expFmt=json&expQty=30&expSkip=0";

Deno.test("buildQuery writes the exact query string for each option", async (t) => {
  const cases: [string, SearchRequest, string][] = [
    ["defaults: title only", { keywords: "battery" }, `userCode=${CODE}&TI=battery&${TAIL}`],
    [
      "a further field is sent as +FIELD with the same keywords",
      { keywords: "雲端", searchFields: ["title", "abstract"] },
      `userCode=${CODE}&TI=%E9%9B%B2%E7%AB%AF&+AB=%E9%9B%B2%E7%AB%AF&${TAIL}`,
    ],
    [
      "three fields, first one carries the keywords",
      { keywords: "radar", searchFields: ["claims", "title", "abstract"] },
      `userCode=${CODE}&CL=radar&+TI=radar&+AB=radar&${TAIL}`,
    ],
    [
      "duplicate fields are sent once",
      { keywords: "x", searchFields: ["abstract", "abstract", "title", "abstract"] },
      `userCode=${CODE}&AB=x&+TI=x&${TAIL}`,
    ],
    [
      "date range both ends (ID=from:to, after the keyword fields)",
      {
        keywords: "lithium battery AND fast charging",
        searchFields: ["title", "abstract"],
        publicationDateFrom: "20200101",
        publicationDateTo: "20231231",
      },
      `userCode=${CODE}&TI=lithium%20battery%20AND%20fast%20charging&+AB=lithium%20battery%20AND%20fast%20charging` +
      `&ID=20200101:20231231&${TAIL}`,
    ],
    [
      "date from only (open end)",
      { keywords: "x", publicationDateFrom: "20230101" },
      `userCode=${CODE}&TI=x&ID=20230101:&${TAIL}`,
    ],
    [
      "date to only (open start)",
      { keywords: "x", publicationDateTo: "20171031" },
      `userCode=${CODE}&TI=x&ID=:20171031&${TAIL}`,
    ],
    [
      "databases, comma literal",
      { keywords: "x", databases: ["TWA", "USA", "EUIPO"] },
      `userCode=${CODE}&TI=x&patDB=TWA,USA,EUIPO&${TAIL}`,
    ],
    [
      "application types",
      { keywords: "x", applicationTypes: ["A", "B"] },
      `userCode=${CODE}&TI=x&patAG=A,B&${TAIL}`,
    ],
    [
      "patent types",
      { keywords: "x", patentTypes: ["I", "M", "D"] },
      `userCode=${CODE}&TI=x&patTY=I,M,D&${TAIL}`,
    ],
    [
      "empty lists are left out (GPSS default: all)",
      { keywords: "x", databases: [], applicationTypes: [], patentTypes: [] },
      `userCode=${CODE}&TI=x&${TAIL}`,
    ],
    [
      "max results",
      { keywords: "x", maxResults: 500 },
      `userCode=${CODE}&TI=x&${TAIL.replace("expQty=30", "expQty=500")}`,
    ],
    [
      "every option, in order",
      {
        keywords: "(雷達 or 毫米波) and 跌倒",
        searchFields: ["title", "abstract", "claims"],
        databases: ["TWB", "TWA"],
        applicationTypes: ["B"],
        patentTypes: ["I", "M"],
        publicationDateFrom: "20200101",
        publicationDateTo: "20231231",
        maxResults: 1,
      },
      `userCode=${CODE}&TI=(%E9%9B%B7%E9%81%94%20or%20%E6%AF%AB%E7%B1%B3%E6%B3%A2)%20and%20%E8%B7%8C%E5%80%92` +
      `&+AB=(%E9%9B%B7%E9%81%94%20or%20%E6%AF%AB%E7%B1%B3%E6%B3%A2)%20and%20%E8%B7%8C%E5%80%92` +
      `&+CL=(%E9%9B%B7%E9%81%94%20or%20%E6%AF%AB%E7%B1%B3%E6%B3%A2)%20and%20%E8%B7%8C%E5%80%92` +
      `&ID=20200101:20231231&patDB=TWB,TWA&patAG=B&patTY=I,M&${TAIL.replace("expQty=30", "expQty=1")}`,
    ],
  ];
  for (const [name, req, expected] of cases) {
    await t.step(name, () => assert.equal(buildQuery(req, CODE), expected));
  }
});

Deno.test("every search field is sent under its GPSS code", async (t) => {
  const expected: Record<string, string> = {
    title: "TI",
    abstract: "AB",
    claims: "CL",
    patent_number: "PN",
    publication_date: "ID",
    application_number: "AN",
    application_date: "AD",
    applicant_name: "AX",
    first_applicant_name: "AF",
    applicant_country: "AY",
    first_applicant_country: "AZ",
    inventor_name: "IV",
    inventor_country: "IY",
    agent_name: "LX",
    examiner: "EX",
    priority: "PR",
    priority_date: "DR",
    ipc: "IC",
    first_ipc: "FC",
    cpc: "CS",
    first_cpc: "TS",
    loc: "IQ",
    fi: "FI",
    f_term: "FT",
    d_term: "IR",
    uspc: "UC",
    cited_patents: "CI",
  };
  assert.deepEqual([...SEARCH_FIELDS], Object.keys(expected));
  for (const field of SEARCH_FIELDS) {
    await t.step(`${field} → ${expected[field]} (first) and +${expected[field]} (further)`, () => {
      assert.equal(SEARCH_FIELD_ALIASES[field], expected[field]);
      assert.equal(
        buildQuery({ keywords: "k", searchFields: [field] }, CODE),
        `userCode=${CODE}&${expected[field]}=k&${TAIL}`,
      );
      if (field !== "title") {
        assert.equal(
          buildQuery({ keywords: "k", searchFields: ["title", field] }, CODE),
          `userCode=${CODE}&TI=k&+${expected[field]}=k&${TAIL}`,
        );
      }
    });
  }
});

Deno.test("values are percent-encoded as UTF-8 with %20; keys, ',' and ':' stay literal", async (t) => {
  const cases: [string, string][] = [
    ["a b", "a%20b"],
    ["a+b", "a%2Bb"],
    ["a/b", "a%2Fb"],
    ["a&b=c#d%e?f", "a%26b%3Dc%23d%25e%3Ff"],
    ['"millimeter wave"', "%22millimeter%20wave%22"],
    ["2020:2021", "2020:2021"],
    ["TWA,TWB", "TWA,TWB"],
    ["G01S 5/02 AND G01S 1/00", "G01S%205%2F02%20AND%20G01S%201%2F00"],
    ["無線", "%E7%84%A1%E7%B7%9A"],
    ["😀", "%F0%9F%98%80"],
    ["lone \ud800 surrogate", "lone%20%EF%BF%BD%20surrogate"],
  ];
  for (const [value, encoded] of cases) {
    await t.step(JSON.stringify(value), () => assert.equal(encodeGpssValue(value), encoded));
  }
  await t.step("the user code is encoded too", () => {
    assert.equal(buildQuery({ keywords: "x" }, "a b&c"), `userCode=a%20b%26c&TI=x&${TAIL}`);
  });
  await t.step("no key is ever percent-encoded", () => {
    const q = buildQuery({ keywords: "x", searchFields: ["title", "abstract", "claims"] }, CODE);
    assert.ok(q.includes("&+AB=") && q.includes("&+CL="));
    assert.ok(!/%2B|%2F/i.test(q.split("&").map((p) => p.split("=")[0]).join("&")));
  });
});

Deno.test("requestParams lists what is sent, in order, without userCode", () => {
  const params = requestParams({
    keywords: "quantum computing",
    searchFields: ["title", "abstract", "cited_patents"],
    databases: ["USA"],
    publicationDateFrom: "20230101",
  });
  assert.deepEqual(Object.entries(params), [
    ["TI", "quantum computing"],
    ["+AB", "quantum computing"],
    ["+CI", "quantum computing"],
    ["ID", "20230101:"],
    ["patDB", "USA"],
    ["expFld", "PN,ID,AN,AD,TI,AB,PA,IN,IC,CS"],
    ["expFmt", "json"],
    ["expQty", 30],
    ["expSkip", 0],
  ]);
  assert.ok(!JSON.stringify(params).includes("userCode"));
});

Deno.test("invalid requests throw InvalidInputError naming the value", async (t) => {
  const cases: [string, SearchRequest, RegExp][] = [
    [
      "unknown search field",
      { keywords: "x", searchFields: ["nope" as "title"] },
      /Invalid search field: "nope"/,
    ],
    [
      "empty search fields",
      { keywords: "x", searchFields: [] },
      /search_field must contain at least one value/,
    ],
    [
      "unknown database",
      { keywords: "x", databases: ["KRA"] },
      /Invalid database: "KRA" is not one of TWA, TWB/,
    ],
    [
      "unknown application type",
      { keywords: "x", applicationTypes: ["C"] },
      /Invalid application type: "C" is not one of A, B/,
    ],
    [
      "unknown patent type",
      { keywords: "x", patentTypes: ["U"] },
      /Invalid patent type: "U" is not one of I, M, D/,
    ],
    [
      "date with dashes",
      { keywords: "x", publicationDateFrom: "2023-01-01" },
      /Invalid publication_date_from: "2023-01-01"/,
    ],
    [
      "date of 7 digits",
      { keywords: "x", publicationDateTo: "2023011" },
      /Invalid publication_date_to: "2023011"/,
    ],
    [
      "max results 0",
      { keywords: "x", maxResults: 0 },
      /Invalid max_results: 0 is not a whole number between 1 and 500/,
    ],
    ["max results 501", { keywords: "x", maxResults: 501 }, /Invalid max_results: 501/],
    ["max results 1.5", { keywords: "x", maxResults: 1.5 }, /Invalid max_results: 1.5/],
    [
      "publication_date as first field and as range",
      { keywords: "2020:2021", searchFields: ["publication_date"], publicationDateFrom: "20200101" },
      /publication_date cannot be both the first search field and a publication date range/,
    ],
    ["keywords not a string", { keywords: 5 as unknown as string }, /keywords must be a string/],
  ];
  for (const [name, req, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => buildQuery(req, CODE), (err) => {
        assert.ok(err instanceof InvalidInputError);
        assert.match(err.message, message);
        return true;
      });
    });
  }
  await t.step("publication_date as a further field with a range is fine (+ID and ID differ)", () => {
    assert.equal(
      buildQuery(
        { keywords: "2020", searchFields: ["title", "publication_date"], publicationDateTo: "20211231" },
        CODE,
      ),
      `userCode=${CODE}&TI=2020&+ID=2020&ID=:20211231&${TAIL}`,
    );
  });
});

Deno.test("a search's dates follow one rule, the library's, whether it comes over HTTP or from a caller of lib/gpss", async (t) => {
  // Before: the route's schema wanted a real YYYYMMDD date with from <= to, while lib/gpss had its
  // own check (YYYY, YYYYMM or YYYYMMDD, no calendar, no order), so "20230230" or a reversed range
  // went upstream from any caller but HTTP.
  const cases: [string, string | undefined, string | undefined, boolean][] = [
    ["a real date", "20240229", undefined, true],
    ["both ends in order", "20200101", "20231231", true],
    ["the same day at both ends", "20230101", "20230101", true],
    ["February 30th", "20230230", undefined, false],
    ["February 29th of a common year", undefined, "20230229", false],
    ["month 13", "20231301", undefined, false],
    ["a year alone", "2023", undefined, false],
    ["a year and month", undefined, "202301", false],
    ["from after to", "20240101", "20230101", false],
  ];
  for (const [name, from, to, valid] of cases) {
    await t.step(`${name}: ${valid ? "accepted" : "refused"} by both`, () => {
      const lib = () =>
        normalizeSearchRequest({ keywords: "x", publicationDateFrom: from, publicationDateTo: to });
      if (valid) assert.doesNotThrow(lib);
      else assert.throws(lib, InvalidInputError);
      const http = SearchPatentsRequest.safeParse({
        keywords: "x",
        publication_date_from: from,
        publication_date_to: to,
      });
      assert.equal(http.success, valid, JSON.stringify(http.error?.issues));
    });
  }
  await t.step("the library names the rule", () => {
    assert.throws(
      () => normalizeSearchRequest({ keywords: "x", publicationDateFrom: "20230230" }),
      { message: 'Invalid publication_date_from: "20230230" is not a real date written YYYYMMDD' },
    );
    assert.throws(
      () =>
        normalizeSearchRequest({
          keywords: "x",
          publicationDateFrom: "20240101",
          publicationDateTo: "20230101",
        }),
      { message: "publication_date_from (20240101) is after publication_date_to (20230101)" },
    );
  });
});

Deno.test("normalizeSearchRequest applies defaults and drops duplicate codes", () => {
  assert.deepEqual(normalizeSearchRequest({ keywords: "k", databases: ["TWA", "TWA", "USB"] }), {
    keywords: "k",
    searchFields: ["title"],
    databases: ["TWA", "USB"],
    applicationTypes: [],
    patentTypes: [],
    publicationDateFrom: undefined,
    publicationDateTo: undefined,
    maxResults: 30,
    offset: 0,
    fields: [],
  });
});

Deno.test("the code tables: 23 databases in 7 regions, patAG A/B, patTY I/M/D", () => {
  assert.equal(DATABASES.length, 23);
  assert.deepEqual(
    DATABASE_CODES.join(" "),
    "TWA TWB TWD USA USB USD JPA JPB JPD EPA EPB EUIPO KPA KPB KPD CNA CNB CND WO SEAA SEAB OTA OTB",
  );
  assert.deepEqual([...APPLICATION_TYPE_CODES], ["A", "B"]);
  assert.deepEqual([...PATENT_TYPE_CODES], ["I", "M", "D"]);
  const grouped = getAvailableDatabases();
  assert.deepEqual(Object.keys(grouped), [...REGIONS]);
  assert.deepEqual(Object.fromEntries(Object.entries(grouped).map(([r, dbs]) => [r, Object.keys(dbs)])), {
    TW: ["TWA", "TWB", "TWD"],
    US: ["USA", "USB", "USD"],
    JP: ["JPA", "JPB", "JPD"],
    EP: ["EPA", "EPB", "EUIPO"],
    KR: ["KPA", "KPB", "KPD"],
    CN: ["CNA", "CNB", "CND"],
    International: ["WO", "SEAA", "SEAB", "OTA", "OTB"],
  });
  assert.equal(
    grouped.TW.TWA,
    "台灣公開（公開之發明專利申請案，只是技術內容公開，並非已取得專利權），2003 ~",
  );
  assert.equal(grouped.International.OTB, "其他國家公告(無全文)，1827 ~");
});

Deno.test("every search example is a valid request body", async (t) => {
  const allowed = new Set([
    "keywords",
    "search_field",
    "databases",
    "application_types",
    "patent_types",
    "publication_date_from",
    "publication_date_to",
    "max_results",
  ]);
  assert.deepEqual(Object.keys(SEARCH_EXAMPLE_DESCRIPTIONS), Object.keys(SEARCH_EXAMPLES));
  for (const [name, body] of Object.entries(SEARCH_EXAMPLES)) {
    await t.step(name, () => {
      for (const key of Object.keys(body)) assert.ok(allowed.has(key), `unexpected key ${key}`);
      const query = buildQuery(searchRequestFromBody(SearchPatentsRequest.parse(body)), CODE);
      assert.ok(query.startsWith(`userCode=${CODE}&`));
    });
  }
  await t.step("the advanced example's query", () => {
    assert.equal(
      buildQuery(
        searchRequestFromBody(SearchPatentsRequest.parse(SEARCH_EXAMPLES.advanced_technical_search)),
        CODE,
      ),
      `userCode=${CODE}&TI=lithium%20battery%20AND%20fast%20charging&+AB=lithium%20battery%20AND%20fast%20charging` +
        `&+CL=lithium%20battery%20AND%20fast%20charging&ID=20200101:20231231&patDB=TWA,USA,EPA,CNA&${TAIL}`,
    );
  });
});
