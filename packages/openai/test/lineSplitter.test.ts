import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../src/lineSplitter.js';

const encoder = new TextEncoder();

function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe('LineSplitter', () => {
  it('looks at each byte a bounded number of times: a 10 MB line read 16 KiB at a time', () => {
    const body = encoder.encode(`data: ${'é'.repeat(5 * 1024 * 1024)}\n\n`);
    const splitter = new LineSplitter();
    const lines = pieces(body, 16 * 1024).flatMap((p) => splitter.push(p));
    expect(lines.map((l) => l.text.length)).toEqual([6 + 5 * 1024 * 1024, 0]);
    expect(lines.map((l) => l.bytes)).toEqual([body.length - 1, 1]);
    // Two passes at most (one for LF, one for CR), not one per piece over everything before it.
    expect(splitter.scanned).toBeLessThanOrEqual(2 * body.length);
  });

  it('and for many short lines in small pieces', () => {
    const body = encoder.encode('data: {"a":1}\r\n\r\n'.repeat(50_000));
    const splitter = new LineSplitter();
    const lines = pieces(body, 1000).flatMap((p) => splitter.push(p));
    expect(lines).toHaveLength(100_000);
    expect(splitter.scanned).toBeLessThanOrEqual(2 * body.length);
  });

  it('keeps a character split across pieces whole, and a CRLF split across pieces one line end', () => {
    const splitter = new LineSplitter();
    const euro = encoder.encode('€'); // three bytes
    const out = [
      ...splitter.push(Uint8Array.of(0x61, euro[0]!)),
      ...splitter.push(Uint8Array.of(euro[1]!, euro[2]!, 0x0d)),
      ...splitter.push(Uint8Array.of(0x0a, 0x62, 0x0d, 0x63)),
      ...splitter.end(),
    ];
    expect(out).toEqual([
      // The LF of a CRLF cut in two comes with the next piece and is counted nowhere.
      { text: 'a€', bytes: 5 },
      { text: 'b', bytes: 2 },
      { text: 'c', bytes: 1 },
    ]);
  });

  it('drops a byte-order mark at the start of the stream only', () => {
    const splitter = new LineSplitter();
    const text = (bytes: Uint8Array) => splitter.push(bytes).map((l) => l.text);
    expect(text(encoder.encode('\uFEFFdata: a\n'))).toEqual(['data: a']);
    expect(text(encoder.encode('\uFEFFx\n'))).toEqual(['\uFEFFx']);
  });
});
