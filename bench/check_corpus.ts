/**
 * Agreement of the checks with `msgfmt -c` (GNU gettext 0.21), file by file:
 *
 *   deno run --allow-read --allow-write --allow-run --allow-env bench/check_corpus.ts [DIR…]
 *
 * Over ../shared/corpus/po and ../shared/corpus/msgcat-vectors (their `*.po`) and every `*.po`
 * under each DIR given (e.g. a clone of a python-docs translation). Per set: files where both
 * reject, both accept, msgfmt rejects and we do not (missed), we reject and msgfmt does not
 * (wrongly), and files msgfmt rejects where an entry it names is not flagged by us. The figures are
 * in docs/checks.md. `-v` prints msgfmt's and our errors for each disagreement.
 *
 * @module
 */
import { poFilesUnder, verdicts } from "../tests/_msgfmt_verdicts.ts";

const verbose = Deno.args.includes("-v");
const shared = new URL("../../shared/corpus/", import.meta.url).pathname;
const sets: [string, string[]][] = [
  ["corpus/po", poFilesUnder(`${shared}po`)],
  ["corpus/msgcat-vectors", poFilesUnder(`${shared}msgcat-vectors`)],
  ...Deno.args.filter((a) => a !== "-v").map((d): [string, string[]] => [d, poFilesUnder(d)]),
];

for (const [label, files] of sets) {
  let both = 0;
  let neither = 0;
  let missed = 0;
  let wrongly = 0;
  let wrongEntry = 0;
  let beyond = 0;
  for (const path of files) {
    const v = await verdicts(path);
    beyond += v.beyond;
    const tell = (what: string) => {
      console.log(`${what}: ${path}`);
      if (!verbose) return;
      for (const e of v.msgfmtErrors.slice(0, 4)) console.log(`    msgfmt ${e}`);
      for (const e of v.ourErrors.slice(0, 4)) console.log(`    ours   ${e}`);
    };
    if (v.msgfmtRejects && v.oursRejects) {
      both++;
      if (v.missedEntries.length > 0) {
        wrongEntry++;
        tell(`entry missed (lines ${v.missedEntries.slice(0, 5).join(", ")})`);
      }
    } else if (!v.msgfmtRejects && !v.oursRejects) neither++;
    else if (v.msgfmtRejects) {
      missed++;
      tell("MISSED");
    } else {
      wrongly++;
      tell("WRONGLY");
    }
  }
  console.log(
    `${label}: ${
      both + neither
    } of ${files.length} agreeing (${both} both reject, ${neither} both accept); ` +
      `${missed} missed, ${wrongly} flagged wrongly; ${wrongEntry} rejected by both with an entry msgfmt ` +
      `names not flagged; ${beyond} errors of checks beyond msgfmt`,
  );
}
