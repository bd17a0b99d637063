// A real folder outside the workspace that the bash sandbox shows as it is on the host, for tests that
// check a command cannot write there. Not under /tmp or /run (the sandbox mounts its own over both, so a
// folder there would be missing inside, not read-only) and not under HOME, which may itself be under /tmp
// and must be left as the test found it: /var/tmp, which the FHS guarantees and keeps across reboots.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";

const BASE = "/var/tmp";

/** Registers an afterEach that removes every folder made; returns the maker. */
export function useOutsideFolders(): () => string {
	const made: string[] = [];
	afterEach(() => {
		for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
	});
	return () => {
		if (!existsSync(BASE)) throw new Error(`${BASE} is missing: the sandbox tests need a folder outside /tmp and /run`);
		const folder = mkdtempSync(join(BASE, "rudder-outside-"));
		made.push(folder);
		return folder;
	};
}
