// The /permissions screen in the built app in a real terminal (tmux on a private socket, a scripted
// model on 127.0.0.1, a temp home), at 60 columns: the rules listed with where they live, one removed
// after its confirmation, and the file on disk without it. RUDDER_SAVE_CAPTURE=1 writes the screens to
// test/e2e/capture-permissions-screen-60.txt.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { globalSettingsPath } from "../../src/session/settings.js";
import { tmuxAppPerTest } from "../helpers/tmux-app.js";

const LONG = 90_000;
const term = tmuxAppPerTest("rudder-perm-screen");
const { sendText, sendKey, waitForScreen, start } = term;

describe("the /permissions screen in a real terminal (tmux)", () => {
	it("lists the rules with their sources and removes one from its file after a confirmation", { timeout: LONG }, async () => {
		const { home } = await term.setUp();
		const settings = globalSettingsPath(home.env);
		mkdirSync(dirname(settings), { recursive: true });
		const rules = { allow: ["bash(npm test*)", "bash(ls*)"], deny: ["bash(git push*)"] };
		writeFileSync(settings, `${JSON.stringify({ permissions: rules }, null, 2)}\n`, { mode: 0o600 });
		await start(["--model", "mock/mock-1", "--permission-mode", "ask", "--allow", "read(docs/**)"], { columns: 60, rows: 24 });
		sendText("/permissions");
		sendKey("Enter");
		const list = await waitForScreen((s) => s.includes("Permission rules (4)"), "the rules");
		expect(list).toMatch(/allow {2}bash\(npm test\*\) global/);
		expect(list).toMatch(/allow {2}read\(docs\/\*\*\) flag/);
		expect(list).toMatch(/deny {3}bash\(git push\*\) global/);

		// The second rule of the list: bash(ls*).
		const order = list.split("\n").filter((l) => /^\W*(allow|deny) /.test(l));
		const at = order.findIndex((l) => l.includes("bash(ls*)"));
		expect(at).toBeGreaterThanOrEqual(0);
		for (let i = 0; i < at; i++) sendKey("Down");
		sendText("d");
		const confirm = await waitForScreen((s) => s.includes('Remove allow rule "bash(ls*)"'), "the confirmation");
		sendKey("Down");
		sendKey("Enter");
		const after = await waitForScreen((s) => s.includes("Permission rules (3)"), "the list without it");
		expect(after).toContain("Removed allow bash(ls*)");
		const onDisk = JSON.parse(readFileSync(settings, "utf8"));
		expect(onDisk.permissions).toEqual({ allow: ["bash(npm test*)"], deny: ["bash(git push*)"] });
		sendKey("Escape");
		await waitForScreen((s) => !s.includes("Permission rules"), "the screen closed");

		if (process.env.RUDDER_SAVE_CAPTURE) {
			const trim = (t: string) => t.replace(/\n+$/, "\n");
			writeFileSync(
				join(import.meta.dirname, "capture-permissions-screen-60.txt"),
				`# /permissions at 60 columns\n${trim(list)}\n# d on bash(ls*): the confirmation\n${trim(confirm)}\n# Yes: removed from settings.json\n${trim(after)}`,
			);
		}
	});
});
