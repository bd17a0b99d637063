// The welcome panel, /help and /login in the app over a real AgentSession on the offline demo model:
// /login <provider> asks for the key in a masked field (never drawn, never in the input history), the
// panel then names the chosen model; /help lists the commands and the keys of the table in use, and
// shows the panel again.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerDemoProvider } from "../../../src/ai/providers/demo.js";
import { createAgentSession } from "../../../src/session/assemble.js";
import type { AgentSessionApi } from "../../../src/session/types.js";
import { UserModels } from "../../../src/settings/user-models.js";
import { App } from "../../../src/tui/app/App.js";
import { type InputHistory, openInputHistory } from "../../../src/tui/input/input-history.js";
import { buildKeyBindings, type KeyBindings } from "../../../src/tui/keys/keybindings.js";
import { tick } from "./mount-app.js";

const SECRET = "sk-ant-test-9f8e7d6c5b4a";
let home: string;
let session: AgentSessionApi;
let app: ReturnType<typeof render> | undefined;
let history: InputHistory;

beforeEach(async () => {
	home = mkdtempSync(join(tmpdir(), "rudder-welcome-"));
	const env = { RUDDER_HOME: home };
	const registry = new UserModels({ env });
	const demo = registerDemoProvider();
	session = await createAgentSession({ cwd: home, model: demo, registry, sessionMode: { kind: "none" }, env, tools: ["read"] });
	history = openInputHistory(null);
});

afterEach(async () => {
	app?.unmount();
	app = undefined;
	session?.abort();
	await session?.waitForIdle();
	await session.dispose();
	rmSync(home, { recursive: true, force: true });
});

async function mount(keyBindings?: KeyBindings) {
	app = render(
		<App session={session} onExit={() => {}} history={history} size={{ rows: 60, columns: 140 }} welcome keyBindings={keyBindings} />,
	);
	await tick();
	const mounted = app;
	return {
		frame: () => mounted.lastFrame() ?? "",
		everything: () => mounted.frames.join("\n"),
		type: async (text: string) => {
			mounted.stdin.write(text);
			await tick();
		},
	};
}

describe("App welcome, /login and /help", () => {
	it("/login <provider> asks for the key in a masked field; the key is never drawn nor kept in the input history; the panel then names the model", async () => {
		const { frame, everything, type } = await mount();
		expect(frame()).toContain("offline demo model");
		await type("/login anthropic");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("API key for anthropic"));
		for (const ch of SECRET) await type(ch);
		expect(frame()).toContain("•".repeat(SECRET.length));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("now using anthropic/"));
		// The panel follows the chosen model: no more "offline demo".
		expect(frame()).toContain("Using anthropic/");
		expect(frame()).not.toContain("offline demo model");
		expect(JSON.parse(readFileSync(join(home, "auth.json"), "utf8")).anthropic.key).toBe(SECRET);
		expect(everything()).not.toContain(SECRET.slice(4, 12));
		expect(history.entries.join("\n")).not.toContain(SECRET.slice(4, 12));
		// The input is free again and empty: the key did not land there.
		expect(frame()).toContain("› ");
		expect(frame()).not.toContain("API key for anthropic (kept");
	});

	it("Esc closes the key field without storing anything", async () => {
		const { frame, type } = await mount();
		await type("/login openai");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("API key for openai"));
		await type("abc");
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).not.toContain("API key for openai"));
		expect(frame()).toContain("offline demo model");
		expect(() => readFileSync(join(home, "auth.json"), "utf8")).toThrow();
	});

	it("/help lists the commands and the keys of the table in use, and shows the welcome panel again after a prompt", async () => {
		const built = buildKeyBindings({ redraw: ["ctrl+x"] });
		if ("errors" in built) throw new Error(built.errors.join("; "));
		const { frame, type } = await mount(built.bindings);
		await type("hello");
		await type("\r");
		await vi.waitFor(() => expect(frame()).not.toContain("offline demo model"), { timeout: 10_000 });
		await session.waitForIdle();
		await type("/help");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Keys in the input:"));
		const f = frame();
		expect(f).toContain("Commands:");
		expect(f).toMatch(/\/login <provider> <key> +Store an API key/);
		expect(f).toMatch(/Ctrl\+X +Clear the screen/);
		expect(f).toMatch(/Ctrl\+G +Edit the input in \$VISUAL/);
		expect(f).toContain("In a picker:");
		expect(f).toContain("offline demo model");
	});
});
