const LF = 0x0a;
const CR = 0x0d;

/** One line: its text, and the bytes it took on the wire, line end included (but the LF of a CRLF that arrived in the next chunk). */
export interface Line {
  text: string;
  bytes: number;
}

/**
 * Cuts a byte stream into text lines ending in LF, CR or CRLF, looking at each
 * byte once however the stream is chunked: only the bytes of a new chunk are
 * scanned for line ends, and the unfinished line is kept as a list of pieces
 * joined once, when its end comes. (Appending to one string and searching it
 * from the start on every chunk is quadratic: a 10 MB line read 16 KiB at a
 * time is scanned about 640 times.)
 *
 * It scans bytes, not text: a CR or LF byte never occurs inside a multi-byte
 * UTF-8 character, so a character split across chunks stays whole in its line,
 * and each line is decoded once. A CRLF split across chunks is one line end.
 *
 * @example
 * const splitter = new LineSplitter();
 * splitter.push(new TextEncoder().encode('data: a\r\ndata: b')); // [{ text: 'data: a', bytes: 9 }]
 * splitter.end(); // [{ text: 'data: b', bytes: 7 }]
 */
export class LineSplitter {
  /** Bytes examined for line ends so far: at most twice the bytes pushed (one pass for LF, one for CR). */
  scanned = 0;
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  #pieces: Uint8Array[] = [];
  #pending = 0;
  #skipLF = false;
  #started = false;

  /** Bytes of the line not yet ended. */
  get pendingBytes(): number {
    return this.#pending;
  }

  /** The lines that `bytes` completes, their text without the line end. */
  push(bytes: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    if (this.#skipLF && bytes.length > 0) {
      // The CR that ended the last chunk was the first half of a CRLF.
      if (bytes[0] === LF) start = 1;
      this.#skipLF = false;
    }
    let nextLF = this.#find(bytes, LF, start);
    let nextCR = this.#find(bytes, CR, start);
    while (nextLF >= 0 || nextCR >= 0) {
      const end = nextCR < 0 || (nextLF >= 0 && nextLF < nextCR) ? nextLF : nextCR;
      const line = this.#line(bytes.subarray(start, end));
      start = end + 1;
      if (end === nextCR) {
        if (start === bytes.length) this.#skipLF = true;
        else if (bytes[start] === LF) start += 1;
        nextCR = this.#find(bytes, CR, start);
      }
      line.bytes += start - end;
      lines.push(line);
      if (nextLF >= 0 && nextLF < start) nextLF = this.#find(bytes, LF, start);
    }
    if (start < bytes.length) {
      // Copied: a stream may reuse the buffer of a chunk it has handed over.
      this.#pieces.push(bytes.slice(start));
      this.#pending += bytes.length - start;
    }
    return lines;
  }

  /** The stream is over: the last line, if it had no line end. */
  end(): Line[] {
    return this.#pending > 0 ? [this.#line(new Uint8Array(0))] : [];
  }

  #find(bytes: Uint8Array, byte: number, from: number): number {
    if (from >= bytes.length) return -1;
    const at = bytes.indexOf(byte, from);
    this.scanned += (at < 0 ? bytes.length : at + 1) - from;
    return at;
  }

  #line(tail: Uint8Array): Line {
    let bytes = tail;
    if (this.#pieces.length > 0) {
      bytes = new Uint8Array(this.#pending + tail.length);
      let offset = 0;
      for (const piece of [...this.#pieces, tail]) {
        bytes.set(piece, offset);
        offset += piece.length;
      }
      this.#pieces = [];
      this.#pending = 0;
    }
    let text = this.#decoder.decode(bytes);
    // A byte-order mark is dropped at the start of the stream only (the SSE spec's rule).
    if (!this.#started && text.startsWith('\uFEFF')) text = text.slice(1);
    this.#started = true;
    return { text, bytes: bytes.length };
  }
}
