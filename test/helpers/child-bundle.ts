// A TypeScript child-process script bundled once per test file into one .mjs that plain `node` runs,
// for tests that need a real second process (a crash, a lock held elsewhere).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll } from "vitest";

/** Bundles `entry` before the file's tests; `path()` is the bundle, removed after them. */
export function childBundle(entry: string): { path(): string } {
	let dir = "";
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "rudder-child-"));
		await build({
			entryPoints: [entry],
			bundle: true,
			platform: "node",
			format: "esm",
			target: "node20",
			outfile: join(dir, "child.mjs"),
			logLevel: "silent",
		});
	}, 60_000);
	afterAll(() => rmSync(dir, { recursive: true, force: true }));
	return { path: () => join(dir, "child.mjs") };
}
