// The README's install lines: what works today (the packed tarball, as test/install.slow.test.ts
// packs and installs it) before what works once convkit is on the registry.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const readme = readFileSync(join(REPO, "README.md"), "utf8");
const version: string = JSON.parse(
  readFileSync(join(REPO, "apps", "convkit", "package.json"), "utf8"),
).version;

/** The commands of the README's first shell block (under "## Install"), comments dropped. */
function installCommands(): string[] {
  const section = readme.slice(readme.indexOf("## Install"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
}

describe("README install lines", () => {
  it("install the tarball pnpm packs from apps/convkit, named by the package's version", () => {
    const cmds = installCommands();
    expect(cmds).toContain("(cd apps/convkit && npx pnpm pack)");
    const install = cmds.find((c) => c.startsWith("npm install -g"));
    // The registry has no `convkit` yet (404): the first install command is the tarball's.
    expect(install).toBe(`npm install -g ./apps/convkit/convkit-${version}.tgz`);
    expect(cmds.indexOf("(cd apps/convkit && npx pnpm pack)")).toBeLessThan(cmds.indexOf(install ?? ""));
  });

  it("name the registry install only as what works once published", () => {
    const published = readme.split("\n").filter((l) => l.includes("npm install -g convkit"));
    expect(published.length).toBeGreaterThan(0);
    for (const l of published) expect(l).toMatch(/not on the npm registry yet|Once the package is published/);
  });
});
