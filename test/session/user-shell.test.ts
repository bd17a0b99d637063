import { describe, expect, it } from "vitest";
import { runUserShell } from "../../src/session/user-shell.js";
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
