// A real redis-server for the queue tests: loopback, a free port, its own temporary folder, AOF on
// (so a restart keeps the queue), stopped by the test that started it.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, Socket } from "node:net";
import { join } from "node:path";
import { tempDir } from "./shared.js";

/** A running test Redis. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Stops it (SIGTERM: AOF is flushed) and waits. */
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port and folder (the queue comes back from the AOF). */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = new Socket();
    c.once("error", () => resolve(false));
    c.once("close", () => resolve(false));
    c.connect(port, "127.0.0.1", () => {
      c.write("PING\r\n");
    });
    c.once("data", (d) => {
      c.destroy();
      resolve(d.toString().startsWith("+PONG"));
    });
  });
}

/** Starts a redis-server as the queue wants it (declare `requires("redis-server")`) (noeviction, AOF) and waits until it answers. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = tempDir("convkit-redis-");
  let proc: ChildProcess;
  const launch = async () => {
    proc = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
        "--maxmemory-policy",
        "noeviction",
        "--logfile",
        join(dir, "redis.log"),
      ],
      { stdio: "ignore" },
    );
    for (let i = 0; i < 200; i++) {
      if (await answers(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on port ${port} did not start (see ${join(dir, "redis.log")})`);
  };
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await gone;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    async restart() {
      await stop();
      await launch();
    },
  };
}
