import { describe, expect, it } from "vitest";
import { parseQueueUrl } from "./connection.js";
import { checkRunId, deriveRunId } from "./run.js";

describe("queue addresses and run ids", () => {
  it("parses redis://HOST[:PORT][/DB] and refuses anything else in one line", () => {
    expect(parseQueueUrl("redis://10.0.0.5:6380/2")).toEqual({
      url: "redis://10.0.0.5:6380/2",
      host: "10.0.0.5",
      port: 6380,
      db: 2,
    });
    expect(parseQueueUrl("redis://queue.lab")).toMatchObject({ host: "queue.lab", port: 6379, db: 0 });
    expect(parseQueueUrl("redis://[::1]:7000")).toMatchObject({ host: "::1", port: 7000 });
    for (const bad of ["http://x:6379", "redis//x", "x:6379", "redis://x:6379?db=1"])
      expect(() => parseQueueUrl(bad)).toThrow(
        `--queue: expected redis://HOST:PORT[/DB], found ${JSON.stringify(bad)}`,
      );
    expect(() => parseQueueUrl("redis://x:6379/db1")).toThrow(
      '--queue: expected a database number after the port, found "db1"',
    );
  });

  it("run ids: BullMQ's rules (no ':', not only digits); derived ids follow what defines the run", () => {
    expect(checkRunId("ikat-2024.part_1")).toBe("ikat-2024.part_1");
    for (const bad of ["a:b", "123", "", "a b", "x".repeat(101)])
      expect(() => checkRunId(bad)).toThrow(/^--run-id: /);
    const a = deriveRunId("segment", { inputs: ["/a"], out: "/o" });
    expect(a).toMatch(/^segment-[0-9a-f]{16}$/);
    expect(deriveRunId("segment", { inputs: ["/a"], out: "/o" })).toBe(a);
    expect(deriveRunId("segment", { inputs: ["/a"], out: "/p" })).not.toBe(a);
  });
});
