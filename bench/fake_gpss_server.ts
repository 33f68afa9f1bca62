/**
 * Runs the test suite's fake GPSS upstream on 127.0.0.1 (a free port) for load tests and prints
 * "URL USER_CODE" on one line.
 *
 *   deno run --allow-net=127.0.0.1 bench/fake_gpss_server.ts
 */
import { FAKE_USER_CODE, startFakeGpss } from "../tests/_fake_gpss.ts";

const fake = await startFakeGpss();
console.log(`${fake.url} ${FAKE_USER_CODE}`);
