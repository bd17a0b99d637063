// A fatal error (an uncaught exception) must not leave tool process groups or the private temp folder
// behind: the registry's exit hook kills every live group. Runs the built modules (npm run build) in a
// child node process, since the test has to let a process crash.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const dist = resolve(import.meta.dirname, "../../dist/src/tools");

function liveMembers(pgid: number): string[] {
	const out = execFileSync("ps", ["-eo", "pgid=,stat=,args="], { encoding: "utf8" });
	return out
		.split("\n")
		.map((l) => l.trim())
		.filter((l) => l.split(/\s+/)[0] === String(pgid) && !l.split(/\s+/)[1]?.startsWith("Z"));
}

describe("process registry", () => {
	it("kills every tool group and removes the private temp folder when the process dies of an uncaught error", { timeout: 20_000 }, () => {
		const script = `
			import { spawnShellCommand } from ${JSON.stringify(`${dist}/shell.js`)};
			import { privateTempDir } from ${JSON.stringify(`${dist}/private-temp.js`)};
			const child = spawnShellCommand({ shell: "/bin/bash", command: "sleep 300 & sleep 300", cwd: "/tmp" });
			console.log(JSON.stringify({ pgid: child.pid, temp: privateTempDir() }));
			setTimeout(() => { throw new Error("fatal"); }, 300);
		`;
		const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 15_000 });
		expect(run.status).toBe(1);
		expect(run.stderr).toContain("Error: fatal");
		const { pgid, temp } = JSON.parse(run.stdout.trim()) as { pgid: number; temp: string };
		expect(liveMembers(pgid)).toEqual([]);
		expect(existsSync(temp)).toBe(false);
	});
});
