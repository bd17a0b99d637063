// `!cmd` in the app over a real AgentSession: its output is on screen while it runs (sanitised, under
// its running line), and the final block replaces it when it ends. A fifo holds the command between
// its two lines, so "while it runs" is a fact, not a timing.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerDemoProvider } from "../../../src/ai/providers/demo.js";
import { createAgentSession } from "../../../src/session/assemble.js";
import type { AgentSessionApi } from "../../../src/session/types.js";
import { UserModels } from "../../../src/settings/user-models.js";
import { App } from "../../../src/tui/app/App.js";
import { openInputHistory } from "../../../src/tui/input/input-history.js";
import { tick } from "./mount-app.js";

let home: string;
let session: AgentSessionApi;
let app: ReturnType<typeof render> | undefined;

beforeEach(async () => {
	home = mkdtempSync(join(tmpdir(), "rudder-shell-live-app-"));
	const env = { RUDDER_HOME: home };
	session = await createAgentSession({
		cwd: home,
		model: registerDemoProvider(),
		registry: new UserModels({ env }),
		sessionMode: { kind: "none" },
		env,
		tools: ["read"],
	});
});

afterEach(async () => {
	app?.unmount();
	app = undefined;
	// A command a failed test left waiting on its fifo is stopped with its process group.
	session.abort();
	await session.dispose();
	rmSync(home, { recursive: true, force: true });
});

describe("!cmd output in the app", () => {
	it("shows the first line (sanitised) before the command ends, then the final block", { timeout: 30_000 }, async () => {
		const fifo = join(home, "gate");
		execFileSync("mkfifo", [fifo]);
		app = render(<App session={session} onExit={() => {}} history={openInputHistory(null)} size={{ rows: 30, columns: 100 }} />);
		await tick();
		const frame = () => app?.lastFrame() ?? "";
		// A title escape in the output must not reach the terminal.
		app.stdin.write(`!printf 'first line\\033]0;owned\\007\\n'; read go < ${fifo}; echo second line`);
		await tick();
		app.stdin.write("\r");
		await vi.waitFor(() => expect(frame()).toMatch(/^ {2}first line/m), { timeout: 20_000 });
		const live = frame();
		expect(live).toContain("$ printf"); // the running line, with its seconds
		expect(live).not.toContain("second line");
		expect(live).not.toContain("\x1b]0;");
		expect(live).not.toContain("\x07");
		const writer = spawn("sh", ["-c", `echo go > ${fifo}`], { stdio: "ignore" });
		const writerDone = new Promise((r) => writer.once("close", r));
		await vi.waitFor(() => expect(frame()).toContain("second line"), { timeout: 20_000 });
		await writerDone;
		// The final block: the command once, its whole output, no running line left.
		expect(frame()).not.toMatch(/\$ printf.*· \d+s/);
	});
});
