/**
 * Prints the ratio table of bench/po_http_compare.sh from bench-po's JSON files (medians per metric).
 *
 *   deno run --allow-read=bench/out bench/compare_po.ts ENTRIES RUNS [PEAK_RSS_KIB]
 */
interface Row {
  endpoint: string;
  conns: number;
  rps: number;
  lat_us: { p50: number; p99: number };
}

const [entries, runs, rss] = Deno.args;

function load(side: string): Row[][] {
  const out: Row[][] = [];
  for (let run = 1; run <= Number(runs); run++) {
    const doc = JSON.parse(Deno.readTextFileSync(`bench/out/po-${entries}-${side}-${run}.json`));
    // The reference's client expects its own write message ("… and formatted with powrap"); ours
    // names what was done instead (no tool that did not run): that wording is not a problem.
    const problems = (doc.problems as string[]).filter((p) =>
      !/^run \d+: write #\d+: Successfully wrote to /.test(p)
    );
    if (problems.length > 0) throw new Error(`${side} run ${run}: ${problems.join("; ")}`);
    out.push(...doc.runs);
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function medians(rows: Row[][], endpoint: string, conns: number) {
  const mine = rows.flat().filter((r) => r.endpoint === endpoint && r.conns === conns);
  return {
    rps: median(mine.map((r) => r.rps)),
    p50: median(mine.map((r) => r.lat_us.p50)) / 1000,
    p99: median(mine.map((r) => r.lat_us.p99)) / 1000,
  };
}

const ref = load("ref");
const ours = load("ours");
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
console.log(
  `| ${entries} entries | conc | ref req/s | ours req/s | req/s ratio | ref p50 ms | ours p50 ms | p50 ratio | ref p99 ms | ours p99 ms |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const keys = [...new Set(ours.flat().map((r) => `${r.endpoint}\t${r.conns}`))];
for (const key of keys) {
  const [endpoint, c] = key.split("\t");
  const a = medians(ref, endpoint ?? "", Number(c));
  const b = medians(ours, endpoint ?? "", Number(c));
  console.log(
    `| ${endpoint} | ${c} | ${fmt(a.rps)} | ${fmt(b.rps)} | ${fmt(b.rps / a.rps)}× | ${fmt(a.p50)} | ${
      fmt(b.p50)
    } | ` +
      `${fmt(a.p50 / b.p50)}× lower | ${fmt(a.p99)} | ${fmt(b.p99)} |`,
  );
}
if (rss) console.log(`\npeak RSS of our server: ${(Number(rss) / 1024).toFixed(0)} MiB`);
