// Records docs/demo.png, the README's animated picture (an APNG): the built
// demo on the simulated engine, a translation running while a person types,
// the suggestions cutting in front of the translation's items in the lanes.
// Run from the repository root after building the demo:
//   pnpm --filter @inkling/demo build && npx tsx e2e/recordDemoAnimation.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, chromiumFlags } from './support/chromiumFlags.js';
import { serveStatic } from './support/serveStatic.js';

const OUT = fileURLToPath(new URL('../docs/demo.png', import.meta.url));
const DEMO = fileURLToPath(new URL('../apps/demo/dist', import.meta.url));
/** The part of the page shown: the editor, the translation beside it and the inspector's lanes. */
const CLIP = { x: 0, y: 0, width: 1000, height: 640 };
const SCALE = 0.6;

interface Png {
  header: Buffer;
  pixels: Buffer;
}

/** The chunks of a PNG file, by type. */
function chunks(file: Buffer): Array<{ type: string; data: Buffer }> {
  const found: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    found.push({ type: file.toString('latin1', at + 4, at + 8), data: file.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

function readPng(file: Buffer): Png {
  const all = chunks(file);
  return {
    header: all.find((c) => c.type === 'IHDR')!.data,
    pixels: inflateSync(Buffer.concat(all.filter((c) => c.type === 'IDAT').map((c) => c.data))),
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, tail]);
}

/** An animated PNG of same-sized frames, each shown `delayMs`, looping. */
function apng(frames: readonly Png[], delayMs: number): Buffer {
  const { header } = frames[0]!;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const control = Buffer.alloc(8);
  control.writeUInt32BE(frames.length, 0);
  const parts = [Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('acTL', control)];
  let sequence = 0;
  frames.forEach((frame, index) => {
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(sequence++, 0);
    fctl.writeUInt32BE(width, 4);
    fctl.writeUInt32BE(height, 8);
    fctl.writeUInt16BE(delayMs, 20);
    fctl.writeUInt16BE(1000, 22);
    parts.push(chunk('fcTL', fctl));
    const data = deflateSync(frame.pixels, { level: 9 });
    if (index === 0) parts.push(chunk('IDAT', data));
    else {
      const seq = Buffer.alloc(4);
      seq.writeUInt32BE(sequence++, 0);
      parts.push(chunk('fdAT', Buffer.concat([seq, data])));
    }
  });
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

const server = await serveStatic(DEMO);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: chromiumFlags() });
const page = await browser.newPage({ viewport: { width: CLIP.width, height: CLIP.height }, deviceScaleFactor: SCALE });
await page.goto(`${server.url}/?engine=simulated`);
await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
// The inspector's lanes under the editor and the translation, in the picture.
await page.addStyleTag({
  content:
    '.assistant, .note-hint, .inkling-inspector-counts, .inkling-jobs, .inkling-inspector h3 { display: none } .translate-list { max-height: 210px; overflow: hidden }',
});
const frames: Png[] = [];
const shoot = async () => frames.push(readPng(await page.screenshot({ clip: CLIP })));
await shoot();
await page.getByRole('button', { name: 'Translate this page' }).click();
await page.locator('.translate-list tbody tr[data-status="streaming"]').first().waitFor();
await page.locator('#note-body').click({ position: { x: 4, y: 4 } });
await page.keyboard.press('Control+End');
for (const word of [' Next', ' we', ' plan']) {
  await page.keyboard.type(word, { delay: 70 });
  await shoot();
  await page.waitForTimeout(450);
  await shoot();
}
await page.waitForTimeout(800);
await shoot();
await browser.close();
await server.close();
writeFileSync(OUT, apng(frames, 600));
// oxlint-disable-next-line no-console -- a script that says what it wrote
console.log(`Wrote ${OUT}: ${frames.length} frames, ${Math.round(apng(frames, 600).length / 1000)} kB`);
