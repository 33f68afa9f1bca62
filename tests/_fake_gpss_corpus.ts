/**
 * The fake GPSS upstream's corpus (see `_fake_gpss.ts`): made-up patents whose shapes follow
 * `docs/gpss-upstream.md` §3, including the claim-text quirks of §3.4 (a string, a list, nested
 * lists, a preamble block, a record with only the preamble).
 *
 * @module
 */

/** A person or organisation on a fake patent. */
export interface FakeParty {
  name: string;
  englishName?: string;
  country: string;
}

/** One patent of the fake corpus. */
export interface FakePatent {
  database: string;
  /** patAG: A published application, B granted. */
  ag: "A" | "B";
  /** patTY: I invention, M utility model, D design. */
  ty: "I" | "M" | "D";
  pn: string;
  pubDate: string;
  an: string;
  appDate: string;
  title: string;
  englishTitle?: string | string[];
  abstract?: string[];
  applicants: FakeParty[];
  inventors: FakeParty[];
  agents?: string[];
  ipc?: string[];
  cpc?: string[];
  fterm?: string[];
  claims?: string[];
  /** Served as `claims.claim` verbatim (before one-item lists collapse): GPSS's claim-text quirks (§3.4). */
  claimsRaw?: unknown[];
  citations?: string[];
  priority?: { country: string; date: string; number: string }[];
  examiners?: string[];
  loc?: string[];
  uspc?: string[];
  fi?: string[];
  dterm?: string[];
}

/** The default corpus: 13 patents across TW/US/JP/CN/EP/KP/WO, A/B, I/M/D, 2012–2024. */
export const FAKE_CORPUS: readonly FakePatent[] = [
  {
    database: "TWA",
    ag: "A",
    ty: "I",
    pn: "TW202300001A",
    pubDate: "20230101",
    an: "TW111100001",
    appDate: "20220103",
    title: "快速充電方法",
    englishTitle: "FAST CHARGING METHOD",
    abstract: [
      "一種鋰電池快速充電方法，包含定電流與定電壓階段。",
      "A fast charging method for a lithium battery comprising ...",
    ],
    applicants: [
      { name: "範例電池股份有限公司", englishName: "EXAMPLE BATTERY CO., LTD.", country: "TW" },
      { name: "範例大學", englishName: "EXAMPLE UNIVERSITY", country: "TW" },
    ],
    inventors: [
      { name: "王小明", englishName: "WANG, HSIAO-MING", country: "TW" },
      { name: "林大成", englishName: "LIN, TA-CHENG", country: "TW" },
    ],
    agents: ["陳代理"],
    ipc: ["H01M 10/44", "H02J 7/00"],
    cpc: ["H01M 10/441"],
    // Claims as plain strings without numbers (numbered in order); claim 2 depends on claim 1.
    claims: ["一種快速充電方法，包含：……", "如請求項1所述之快速充電方法，其中……"],
    priority: [{ country: "US", date: "20210105", number: "63134001" }],
    examiners: ["黃審查"],
  },
  {
    database: "TWB",
    ag: "B",
    ty: "I",
    pn: "TWI800001B",
    pubDate: "20230611",
    an: "TW110140001",
    appDate: "20211027",
    title: "毫米波雷達跌倒偵測系統",
    englishTitle: "MILLIMETER WAVE RADAR FALL DETECTION SYSTEM",
    abstract: [
      "一種以毫米波雷達偵測長者跌倒與呼吸之系統。",
      "A system detecting falls and breathing with millimeter wave radar.",
    ],
    applicants: [{ name: "範例科技股份有限公司", englishName: "EXAMPLE TECH CORP.", country: "TW" }],
    inventors: [{ name: "張雅婷", englishName: "CHANG, YA-TING", country: "TW" }],
    ipc: ["G01S 13/88"],
  },
  {
    database: "TWB",
    ag: "B",
    ty: "M",
    pn: "TWM640001U",
    pubDate: "20230421",
    an: "TW112200001",
    appDate: "20230105",
    title: "無線充電座",
    englishTitle: "WIRELESS CHARGING STAND",
    abstract: ["一種無線充電座，包含線圈與散熱風扇。"],
    applicants: [{ name: "範例電子有限公司", country: "TW" }],
    inventors: [{ name: "李志明", country: "TW" }],
    ipc: ["H02J 50/10"],
  },
  {
    database: "TWD",
    ag: "B",
    ty: "D",
    pn: "TWD220001S",
    pubDate: "20220901",
    an: "TW111300001",
    appDate: "20220110",
    title: "行動電源",
    englishTitle: "POWER BANK",
    loc: ["13-02"],
    applicants: [{ name: "範例設計股份有限公司", country: "TW" }],
    inventors: [{ name: "陳美玲", country: "TW" }],
  },
  {
    database: "USA",
    ag: "A",
    ty: "I",
    pn: "US20230012345A1",
    pubDate: "20230112",
    an: "US17800001",
    appDate: "20210712",
    title: "Fast charging of lithium batteries",
    englishTitle: "Fast charging of lithium batteries",
    abstract: ["A method for fast charging a lithium battery using pulsed current."],
    applicants: [{ name: "EXAMPLE ENERGY INC.", englishName: "EXAMPLE ENERGY INC.", country: "US" }],
    inventors: [
      { name: "DOE, JANE", englishName: "DOE, JANE", country: "US" },
      { name: "ROE, JOHN", englishName: "ROE, JOHN", country: "CA" },
    ],
    ipc: ["H01M 10/44", "H02J 7/00"],
    cpc: ["H01M 10/441", "H02J 7/0071"],
    claims: ["What is claimed is:", "1. A method of fast charging a lithium battery ..."],
  },
  {
    database: "USB",
    ag: "B",
    ty: "I",
    pn: "US09415051B1",
    pubDate: "20160816",
    an: "US14000001",
    appDate: "20140101",
    title: "Use of pemirolast",
    englishTitle: "Use of pemirolast",
    abstract: ["A method of treating idiopathic pulmonary fibrosis and airway hyperresponsiveness ..."],
    applicants: [{ name: "EXAMPLE PHARMA INC.", englishName: "EXAMPLE PHARMA INC.", country: "US" }],
    inventors: [{ name: "DOE, JANE", englishName: "DOE, JANE", country: "US" }],
    ipc: ["A61K 31/519"],
    uspc: ["514/258.1"],
    examiners: ["SMITH, PAT"],
    citations: ["US20100012345A1", "US08000001B2"],
    priority: [{ country: "US", date: "20130101", number: "61748001" }],
    // A US preamble block takes @num 1; claim 1's text is a list; claim 3 was canceled (§3.4).
    claimsRaw: [
      { "@num": "1", "claim-text": "What is claimed is:" },
      {
        "@num": "2",
        "claim-text": [
          "1. A method of treating idiopathic pulmonary fibrosis comprising",
          "administering pemirolast to a patient in need thereof.",
        ],
      },
      {
        "@num": "3",
        "claim-text": "2. The method of claim 1, wherein the pemirolast is administered orally.",
      },
      { "@num": "4", "claim-text": "3. (canceled)" },
    ],
  },
  {
    database: "USD",
    ag: "B",
    ty: "D",
    pn: "USD0987654S",
    pubDate: "20230530",
    an: "US29800001",
    appDate: "20210801",
    title: "Charging stand",
    englishTitle: "Charging stand",
    loc: ["13-02"],
    uspc: ["D13/107"],
    applicants: [{ name: "EXAMPLE DESIGN LLC", country: "US" }],
    inventors: [{ name: "SMITH, ANN", country: "US" }],
  },
  {
    database: "JPA",
    ag: "A",
    ty: "I",
    pn: "JP2012224629A",
    pubDate: "20121115",
    an: "JP2011091234",
    appDate: "20110415",
    title: "無線給電装置",
    englishTitle: "WIRELESS POWER FEEDING DEVICE",
    abstract: ["無線で電力を供給する装置を提供する。", "To provide a device supplying power wirelessly."],
    applicants: [{ name: "株式会社見本", englishName: "MIHON KK", country: "JP" }],
    inventors: [{ name: "山田太郎", englishName: "YAMADA TARO", country: "JP" }],
    ipc: ["H02J 50/10", "H02J 7/00"],
    fi: ["H02J50/10", "H02J7/00,301"],
    fterm: ["5G503AA01", "5G503BA01"],
    claims: ["無線で電力を供給する装置。", "請求項1に記載の装置であって、コイルを備える装置。"],
  },
  {
    database: "CNA",
    ag: "A",
    ty: "I",
    pn: "CN115000001A",
    pubDate: "20220902",
    an: "CN202210000001",
    appDate: "20220104",
    // A backslash in the data: with the "backslash" fault GPSS's unescaped form is sent (§3.4).
    title: "毫米波\\太赫兹雷达",
    englishTitle: "MILLIMETER WAVE TERAHERTZ RADAR",
    // A newline in the data: with the "control-char" fault it is sent raw.
    abstract: ["一种毫米波\n太赫兹雷达。", "A millimeter wave terahertz radar."],
    applicants: [{ name: "示例大学", englishName: "EXAMPLE UNIV", country: "CN" }],
    inventors: [{ name: "刘伟", englishName: "LIU WEI", country: "CN" }],
    ipc: ["G01S 13/89"],
  },
  {
    database: "EPB",
    ag: "B",
    ty: "I",
    pn: "EP3900001B1",
    pubDate: "20240103",
    an: "EP20100001",
    appDate: "20200115",
    title: "Quantum computing device with error correction",
    englishTitle: "Quantum computing device with error correction",
    abstract: ["A quantum computing device with surface-code error correction."],
    applicants: [{ name: "EXAMPLE QUANTUM AG", englishName: "EXAMPLE QUANTUM AG", country: "DE" }],
    inventors: [{ name: "MUELLER, KARL", englishName: "MUELLER, KARL", country: "DE" }],
    ipc: ["G06N 10/70"],
    cpc: ["G06N 10/70"],
    citations: ["US20190012345A1"],
    // Nested claim-text: a claim whose parts hold their own claim-text lists (§3.4).
    claimsRaw: [
      {
        "@num": "1",
        "claim-text": [
          "1. A quantum computing device comprising:",
          { "claim-text": ["a qubit array;", { "claim-text": "a surface-code decoder." }] },
        ],
      },
      {
        "@num": "2",
        "claim-text": "2. The device according to claim 1, wherein the decoder runs in real time.",
      },
      {
        "@num": "3",
        "claim-text": "3. The device of any one of claims 1 to 2, further comprising a cryostat.",
      },
    ],
  },
  {
    database: "WO",
    ag: "A",
    ty: "I",
    pn: "WO2021190001A1",
    pubDate: "20210930",
    an: "PCT/US2021/020001",
    appDate: "20210301",
    title: "Neural network image processing",
    englishTitle: "Neural network image processing",
    abstract: ["Image processing with a convolutional neural network."],
    applicants: [{ name: "EXAMPLE AI CORP.", englishName: "EXAMPLE AI CORP.", country: "US" }],
    inventors: [{ name: "LEE, MIN", englishName: "LEE, MIN", country: "KR" }],
    ipc: ["G06N 3/08", "G06T 7/00"],
    cpc: ["G06N 3/08"],
  },
  {
    database: "KPA",
    ag: "A",
    ty: "I",
    pn: "KR20230001234A",
    pubDate: "20230105",
    an: "KR1020210090001",
    appDate: "20210709",
    title: "무선 충전 장치",
    englishTitle: "WIRELESS CHARGING DEVICE",
    abstract: ["무선 충전 장치가 제공된다.", "A wireless charging device is provided."],
    applicants: [{ name: "예시전자 주식회사", englishName: "EXAMPLE ELECTRONICS CO., LTD.", country: "KR" }],
    inventors: [{ name: "김철수", englishName: "KIM, CHUL-SOO", country: "KR" }],
    ipc: ["H02J 50/10"],
  },
  {
    database: "USA",
    ag: "A",
    ty: "I",
    pn: "US20230081319A1",
    pubDate: "20230316",
    an: "US17900001",
    appDate: "20220901",
    title: "Display panel with micro light emitting diodes",
    englishTitle: "Display panel with micro light emitting diodes",
    abstract: ["A display panel in which micro light emitting diodes are transferred in bulk."],
    applicants: [{ name: "EXAMPLE DISPLAY INC.", englishName: "EXAMPLE DISPLAY INC.", country: "US" }],
    inventors: [{ name: "KIM, SOO", englishName: "KIM, SOO", country: "KR" }],
    ipc: ["H01L 27/15"],
    // Only the preamble: GPSS holds no claim text for it (US20230081319A1, §3.4).
    claimsRaw: [{ "@num": "1", "claim-text": "What is claimed is:" }],
  },
];
