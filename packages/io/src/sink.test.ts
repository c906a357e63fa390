import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO, requires, smallDisk, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { OutputError } from "./errors.js";
import {
  checkOutputDir,
  checkOutputPath,
  removePendingTempFiles,
  withOutputDir,
  writeAtomic,
  writeJsonl,
} from "./sink.js";

/** Fails instead of waiting forever: the bug was a promise that never settled. */
function settles<T>(p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error("the write never settled")), 20_000)),
  ]);
}

const records = function* () {
  for (let i = 0; i < 200; i++)
    yield Array.from({ length: 1000 }, (_, j) => ({ id: i * 1000 + j, text: "x".repeat(40) }));
};

requires("tmpfs").describe("writeAtomic on a full disk (a 256 KiB tmpfs)", () => {
  for (const gzip of [false, true]) {
    it(`rejects with one OutputError line and leaves no temp file${gzip ? " (gzip)" : ""}`, async () => {
      const disk = smallDisk(256 << 10, { full: gzip });
      try {
        const target = join(disk.dir, "o.jsonl");
        const e = await settles(writeJsonl(target, records(), { gzip })).catch((x: unknown) => x);
        expect(e).toBeInstanceOf(OutputError);
        expect((e as OutputError).message).toBe(`cannot write ${target}: no space left on device`);
        expect(readdirSync(disk.dir).filter((f) => f !== "filler")).toEqual([]);
      } finally {
        disk.unmount();
      }
    });
  }

  it("a read-only folder: checked before the fill runs", async () => {
    const disk = smallDisk(64 << 10, { readOnly: true });
    try {
      let filled = false;
      const target = join(disk.dir, "a", "o.jsonl");
      await expect(
        writeAtomic(target, async () => {
          filled = true;
        }),
      ).rejects.toThrow(`cannot write ${target}: read-only file system`);
      expect(filled).toBe(false);
    } finally {
      disk.unmount();
    }
  });
});

describe("output paths checked before the work", () => {
  it("a folder where the file goes, a file where the folder goes", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "d"));
    await expect(checkOutputPath(join(dir, "d"))).rejects.toThrow(
      `cannot write ${join(dir, "d")}: is a directory`,
    );
    await expect(checkOutputPath(join(dir, "d", "new", "o.jsonl"))).resolves.toBeUndefined();
    await expect(checkOutputDir(join(dir, "d", "x"))).resolves.toBeUndefined();
    // A folder named "-" was made in the current folder (gen-synthetic --out -).
    await expect(checkOutputDir("-")).rejects.toThrow(
      "a folder of several files, not stdout: give a folder, not -",
    );
    await writeAtomic(join(dir, "f"), (s) => s.write("x"));
    await expect(checkOutputDir(join(dir, "f", "sub"))).rejects.toThrow(
      `cannot write ${join(dir, "f", "sub")}: not a directory`,
    );
  });
});

describe("a failed write leaves no folder it made", () => {
  it("the folders made for the target go when the fill fails; a folder that was there stays", async () => {
    const dir = tempDir();
    const target = join(dir, "new", "deeper", "o.jsonl");
    await expect(
      writeAtomic(target, async (s) => {
        await s.write("partial");
        throw new Error("bad input halfway");
      }),
    ).rejects.toThrow("bad input halfway");
    expect(readdirSync(dir)).toEqual([]);
    mkdirSync(join(dir, "kept"));
    await expect(
      writeAtomic(join(dir, "kept", "o.jsonl"), async () => {
        throw new Error("bad input");
      }),
    ).rejects.toThrow("bad input");
    expect(readdirSync(dir)).toEqual(["kept"]);
  });

  it("a folder of several files written at once goes when they fail, though each write saw the others' temp files", async () => {
    // gen-synthetic on a full disk left its output folder behind, empty: the write that made it
    // failed first and found the others' temp files still there.
    const dir = tempDir();
    const out = join(dir, "new", "set");
    let release = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    await expect(
      withOutputDir(out, async () => {
        const first = writeAtomic(join(out, "a.jsonl"), async (s) => {
          await s.write("partial");
          throw new Error("no space left on device");
        });
        const second = writeAtomic(join(out, "b.jsonl"), async (s) => {
          await s.write("partial");
          await slow;
          throw new Error("no space left on device");
        });
        const settled = Promise.allSettled([first, second]);
        await first.catch(() => release());
        await settled;
        await Promise.all([first, second]);
      }),
    ).rejects.toThrow("no space left on device");
    expect(readdirSync(dir)).toEqual([]);
    mkdirSync(join(dir, "kept"));
    await expect(
      withOutputDir(join(dir, "kept"), async () => {
        throw new Error("bad input");
      }),
    ).rejects.toThrow("bad input");
    expect(readdirSync(dir)).toEqual(["kept"]);
    expect(await withOutputDir(join(dir, "made"), async () => 7)).toBe(7);
    expect(readdirSync(dir).sort()).toEqual(["kept", "made"]);
  });

  it("a signal mid-fill (what the CLIs do on SIGTERM) removes the output folder it made while empty, and keeps one with a finished file", async () => {
    const dir = tempDir();
    const out = join(dir, "new", "set");
    let left: string[] = [];
    await withOutputDir(out, async () => {
      // A write in progress: its temp file is removed first, then the empty folders.
      await writeAtomic(join(out, "a.jsonl"), async (s) => {
        await s.write("partial");
        removePendingTempFiles();
        left = readdirSync(dir);
        mkdirSync(out, { recursive: true }); // so that the write can end (the CLI would be gone)
      }).catch(() => {}); // its temp file is gone: the rename fails
    });
    expect(left).toEqual([]);
    rmSync(join(dir, "new"), { recursive: true, force: true });
    await withOutputDir(out, async () => {
      await writeAtomic(join(out, "done.jsonl"), async (s) => s.write("whole\n"));
      removePendingTempFiles();
    });
    expect(readdirSync(out)).toEqual(["done.jsonl"]);
  });

  it("writeAtomic alone: a signal mid-write removes the folders it made for its file (convert -o new/x.parquet)", async () => {
    const dir = tempDir();
    const target = join(dir, "new", "sub", "x.parquet");
    let left: string[] = [];
    await writeAtomic(target, async (s) => {
      await s.write("partial");
      removePendingTempFiles();
      left = readdirSync(dir);
      mkdirSync(join(dir, "new", "sub"), { recursive: true }); // so that the write can end
    }).catch(() => {});
    expect(left).toEqual([]);
  });

  it("a failed write to a relative path removes only the folders it made, not an empty one that was there", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "was-here"));
    const io = join(REPO, "packages", "io", "dist", "index.js");
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { writeAtomic } = await import(${JSON.stringify(io)});
         await writeAtomic("was-here/new/x.txt", async () => { throw new Error("failed"); }).catch(() => {});`,
      ],
      { cwd: dir, encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    expect(readdirSync(dir)).toEqual(["was-here"]);
    expect(readdirSync(join(dir, "was-here"))).toEqual([]);
  });
});
