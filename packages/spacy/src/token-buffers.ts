// Reused typed-array buffers of the tokenizer (tokenizer.ts): the tokens of a text whose special
// cases spanning several tokens replaced some, and the matches of those special cases.

/** Growable token buffers for one text. */
export class TokenSink {
  lex = new Int32Array(256);
  start = new Int32Array(256);
  spacy = new Uint8Array(256);
  length = 0;

  push(lex: number, start: number): void {
    if (this.length === this.lex.length) this.grow();
    this.lex[this.length] = lex;
    this.start[this.length] = start;
    this.spacy[this.length] = 0;
    this.length++;
  }

  private grow(): void {
    const n = this.lex.length * 2;
    const lex = new Int32Array(n);
    lex.set(this.lex);
    const start = new Int32Array(n);
    start.set(this.start);
    const spacy = new Uint8Array(n);
    spacy.set(this.spacy);
    this.lex = lex;
    this.start = start;
    this.spacy = spacy;
  }
}

/** Buffers of the special-case matching (tokenizer.ts's `applySpecialCases`), grown as texts need (reused from text to text). */
export class MatchBuffers {
  start = new Int32Array(64);
  end = new Int32Array(64);
  private orderBuffer = new Int32Array(64);
  private seenBuffer = new Uint8Array(64);
  private keptBuffer = new Int32Array(64);

  grow(n: number): void {
    const start = new Int32Array(n);
    start.set(this.start);
    const end = new Int32Array(n);
    end.set(this.end);
    this.start = start;
    this.end = end;
  }

  /** Room for the order of `n` matches. */
  order(n: number): Int32Array {
    if (this.orderBuffer.length < n) this.orderBuffer = new Int32Array(this.start.length);
    return this.orderBuffer;
  }

  /** Per token of a text of `n`: whether a match took it, and the end of the kept match starting there (0: none); zeroed. */
  tokens(n: number): { seen: Uint8Array; keptEnd: Int32Array } {
    if (this.seenBuffer.length < n) {
      this.seenBuffer = new Uint8Array(n * 2);
      this.keptBuffer = new Int32Array(n * 2);
    } else {
      this.seenBuffer.fill(0, 0, n);
      this.keptBuffer.fill(0, 0, n);
    }
    return { seen: this.seenBuffer, keptEnd: this.keptBuffer };
  }
}
