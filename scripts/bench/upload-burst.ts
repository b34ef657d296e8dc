/**
 * The sender of the bodies benchmark's upload burst, run as a process of its
 * own so that its work (a hundred parallel 9.4 MB writes) does not delay the
 * benchmark's reader: the reads' latency is then the server's alone.
 *
 * `node --import tsx scripts/bench/upload-burst.ts <base URL> <channel> <uploads> <side px>`, with the
 * key in `PRESSROOM_BENCH_KEY` (never in the arguments, which other users can see). Prints one line of JSON:
 * `{ "image_bytes": n, "ms": n, "statuses": [201, 429, …] }`.
 * @module
 */
import { noisePng, uploadImage } from '../../test/support/burst-inputs.ts';

const [base, channel, count, side] = process.argv.slice(2);
const key = process.env.PRESSROOM_BENCH_KEY;
if (!base || !channel || !count || !side || !key) {
  process.stderr.write('usage: PRESSROOM_BENCH_KEY=… upload-burst.ts <base URL> <channel> <uploads> <side px>\n');
  process.exit(2);
}
const image = await noisePng(Number(side));
// Ready: the benchmark starts its reader and its clock now, then tells this process to send.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const started = performance.now();
const answers = await Promise.all(Array.from({ length: Number(count) }, () => uploadImage(base, key, channel, image)));
process.stdout.write(`${JSON.stringify({ image_bytes: image.length, ms: Math.round(performance.now() - started), statuses: answers.map((a) => a.status) })}\n`);
process.exit(0);
