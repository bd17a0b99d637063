// The probe that decides whether `auto` is the default: real bwrap, as this user and (when the tests run
// as root, as CI does) as an ordinary user through setpriv; a bwrap that cannot make namespaces fails it.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bwrapWorks, probeFile } from "../../src/permissions/sandbox-probe.js";
import { findOnPath } from "../../src/tools/sandbox.js";

let dir: string | undefined;
afterEach(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
	dir = undefined;
});

function script(name: string, body: string): string {
	dir ??= mkdtempSync(join(tmpdir(), "rudder-probe-"));
	const file = join(dir, name);
	writeFileSync(file, `#!/bin/sh\n${body}\n`);
	chmodSync(file, 0o755);
	return file;
}

describe("the bwrap probe", () => {
	const bwrap = findOnPath("bwrap") as string;

	it("passes with the real bwrap, as this user and as nobody", () => {
		expect(bwrap).toBeDefined();
		const cache = mkdtempSync(join(tmpdir(), "rudder-probe-cache-"));
		try {
			expect(bwrapWorks(bwrap, cache)).toBe(true);
			const asNobody =
				process.getuid?.() === 0
					? script("bwrap-as-nobody", `exec setpriv --reuid=65534 --regid=65534 --clear-groups ${bwrap} "$@"`)
					: bwrap;
			expect(bwrapWorks(asNobody, cache)).toBe(true);
		} finally {
			rmSync(cache, { recursive: true, force: true });
		}
	});

	it("fails where namespaces cannot be made, and keeps the answer for the same binary", () => {
		const counter = `${mkdtempSync(join(tmpdir(), "rudder-probe-count-"))}/runs`;
		const broken = script("bwrap", `echo run >> ${counter}\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1`);
		const cache = join(dir as string, "cache");
		expect(bwrapWorks(broken, cache)).toBe(false);
		expect(bwrapWorks(broken, cache)).toBe(false);
		expect(readFileSync(counter, "utf8")).toBe("run\n");
		expect(readFileSync(probeFile(cache), "utf8")).toContain('"works":false');
		rmSync(join(counter, ".."), { recursive: true, force: true });
	});
});
