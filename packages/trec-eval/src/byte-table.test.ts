// The docno table past its initial size: every id reads back as interned (the qrels of a
// declined byte read, e.g. a Parquet table, are built into a table sized for 1,024).
import { describe, expect, it } from "vitest";
import { ByteTable, hashBytes } from "./byte-table.js";

describe("ByteTable", () => {
  it("keeps every string through its growths (10,000 into a table sized for 1,024)", () => {
    const t = new ByteTable();
    const ids: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const b = Buffer.from(`DOC-${i}`);
      ids.push(t.intern(b, 0, b.length, hashBytes(b, 0, b.length)));
    }
    const wrong = ids.flatMap((id, i) =>
      t.text(id) === `DOC-${i}` ? [] : [`${i}: ${JSON.stringify(t.text(id))}`],
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(t.size).toBe(10_000);
    const again = Buffer.from("DOC-9999");
    expect(t.find(again, 0, again.length, hashBytes(again, 0, again.length))).toBe(ids[9999]);
  });
});
