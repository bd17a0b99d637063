import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { maxShellOutputChars, runUserShell } from "../../src/session/user-shell.js";
import { liveProcessGroups } from "../../src/tools/process-registry.js";

// `!cmd` starts through the same spawn as the bash tool, so its process group is registered and killed
// when Rudder exits (the registry itself is tested end to end in test/cli/exit-cleanup.test.ts).
describe("!cmd process groups", () => {
	it("registers the command's group while it runs", { timeout: 20_000 }, async () => {
		const before = new Set(liveProcessGroups());
		const controller = new AbortController();
		const running = runUserShell("sleep 300 & sleep 300", "/tmp", controller.signal);
		await new Promise((r) => setTimeout(r, 200));
		const added = liveProcessGroups().filter((g) => !before.has(g));
		expect(added).toHaveLength(1);
		controller.abort();
		const result = await running;
		expect(result.aborted).toBe(true);
	});
});

describe("!cmd long output", () => {
	it("says how many characters were cut in all, counting the chunks dropped while it ran", { timeout: 20_000 }, async () => {
		// 2,000,000 characters of 'x' and a final line: far past the window kept while it runs.
		const result = await runUserShell("head -c 2000000 /dev/zero | tr '\\0' x; echo; echo last", tmpdir());
		expect(result.truncated).toBe(true);
		const [head, ...rest] = result.output.split("\n");
		expect(head).toBe(`[... ${2_000_005 - maxShellOutputChars} earlier characters cut ...]`);
		expect(rest.join("\n").length).toBe(maxShellOutputChars);
		expect(result.output.endsWith("\nlast")).toBe(true);
	});
});
