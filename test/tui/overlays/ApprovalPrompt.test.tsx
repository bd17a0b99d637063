// The approval prompt in the app over a real session: what it shows before anything runs, and what
// each key answers. Keys: ↑/↓ or a number move the highlight (deny first), Enter takes it; a lasting
// grant asks once more; deny takes an optional reason; Esc denies and stops the run. Typing at an open
// approval grants nothing (issue 30): words typed key by key, in one read, or pasted never answer, never
// save a rule (checked on the files the session writes), and are kept in the input.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolResultMessage } from "../../../src/ai/index.js";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "../../../src/ai/providers/faux.js";
import type { AgentSession } from "../../../src/session/agent-session.js";
import { createAgentSession } from "../../../src/session/assemble.js";
import { parseKeyPress } from "../../../src/tui/keys/key-map.js";
import { approvalKey, choicesFor, initialApprovalState } from "../../../src/tui/overlays/approval-prompt-state.js";
import { appOnSessionPerTest } from "../app/mount-app.js";

const tick = () => new Promise((r) => setTimeout(r, 0));

let home: string;
let faux: FauxProviderRegistration;
let session: AgentSession;

beforeEach(async () => {
	home = mkdtempSync(join(tmpdir(), "rudder-approval-"));
	faux = registerFauxProvider({ api: "faux-approval-test", provider: "faux" });
	session = await createAgentSession({
		cwd: home,
		model: faux.getModel(),
		sessionMode: { kind: "none" },
		env: { RUDDER_HOME: join(home, ".rudder-home") },
		tools: ["read", "bash", "edit"],
		apiKey: "test",
		approvals: "prompt",
		sandboxFactory: () => undefined,
	});
});

const { mount } = appOnSessionPerTest(() => ({ session, faux, dir: home }), { rows: 40, columns: 100 });

const results = () =>
	session
		.getState()
		.messages.filter((m): m is ToolResultMessage => m.role === "toolResult")
		.map((m) => ({ isError: m.isError, text: m.content.map((c) => (c.type === "text" ? c.text : "")).join("") }));

/** Choice 1 (allow once): the number moves the highlight, Enter takes it; two reads, as a person types. */
const allowOnce = async (type: (text: string) => Promise<void>) => {
	await type("1");
	await type("\r");
};

const twoCommands = () =>
	faux.setResponses([
		fauxAssistantMessage([fauxToolCall("bash", { command: "echo first" }), fauxToolCall("bash", { command: "echo second" })]),
		fauxAssistantMessage([fauxText("All done.")]),
	]);

describe("approval prompt", { timeout: 20_000 }, () => {
	it("shows the diff an edit would make before it is made; 1 and Enter allow it", async () => {
		writeFileSync(join(home, "notes.md"), "alpha\nbeta\ngamma\n");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: "notes.md" })]),
			fauxAssistantMessage([fauxToolCall("edit", { path: "notes.md", edits: [{ oldText: "beta", newText: "BETA" }] })]),
			fauxAssistantMessage([fauxText("Edited.")]),
		]);
		const { frame, type } = await mount();
		await type("fix it\r");
		await vi.waitFor(() => expect(frame()).toContain("edit wants to run"));
		expect(frame()).toContain("-beta");
		expect(frame()).toContain("+BETA");
		expect(frame()).toContain("1  Allow once");
		expect(readFileSync(join(home, "notes.md"), "utf8")).toBe("alpha\nbeta\ngamma\n");
		expect(session.getState().pendingApproval?.tool).toBe("edit");
		await allowOnce(type);
		await vi.waitFor(() => expect(frame()).toContain("Edited."));
		expect(readFileSync(join(home, "notes.md"), "utf8")).toBe("alpha\nBETA\ngamma\n");
		expect(frame()).not.toContain("wants to run");
	});

	it("while the prompt waits, the status line says it waits for approval, not that it is working", async () => {
		twoCommands();
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo first"));
		expect(session.getState().phase.kind).toBe("awaiting-approval");
		await vi.waitFor(() => expect(frame()).toContain("waiting for approval"));
		expect(frame()).not.toMatch(/working/);
		await allowOnce(type);
		await vi.waitFor(() => expect(frame()).toContain("$ echo second"));
		expect(frame()).toContain("waiting for approval");
		await allowOnce(type);
		await vi.waitFor(() => expect(frame()).toContain("All done."));
		expect(frame()).not.toContain("waiting for approval");
	});

	it("asks for two calls of one reply one at a time, in order, saying which of the two: allow, then deny with a reason", async () => {
		twoCommands();
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo first"));
		expect(frame()).toContain("bash wants to run · call 1 of 2");
		expect(frame()).not.toContain("$ echo second");
		await allowOnce(type);
		await vi.waitFor(() => expect(frame()).toContain("$ echo second"));
		expect(frame()).toContain("bash wants to run · call 2 of 2");
		// Deny is highlighted first: Enter opens the reason.
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("reason:"));
		await type("use printf");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("All done."));
		expect(results()).toEqual([
			{ isError: false, text: "first" },
			{ isError: true, text: "The user denied this call: use printf" },
		]);
	});

	it("Enter picks the highlighted choice (↓ moves it); a session grant, confirmed, allows the same command again", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo same" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo same" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo other" })]),
			fauxAssistantMessage([fauxText("Finished.")]),
		]);
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo same"));
		expect(frame()).toMatch(/› 4 {2}Deny/);
		await type("\x1b[B");
		await type("\x1b[B");
		await vi.waitFor(() => expect(frame()).toMatch(/› 2 {2}Always allow this in this session/));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Save rule bash(echo same) for this session?"));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo other"));
		await vi.waitFor(() => expect(frame()).toMatch(/› 4 {2}Deny/));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("reason:"));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Finished."));
		expect(results().map((r) => r.text)).toEqual(["same", "same", "The user denied this call."]);
	});

	it("Esc denies the call and stops the run; queued steering goes back to the input", async () => {
		twoCommands();
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo first"));
		session.steer("later please");
		await tick();
		await type("\x1b");
		await vi.waitFor(() => expect(session.getState().isStreaming).toBe(false));
		await vi.waitFor(() => expect(frame()).not.toContain("wants to run"));
		await vi.waitFor(() => expect(frame()).toContain("› later please"));
		expect(frame()).not.toContain("Steering:");
		expect(results().every((r) => r.isError)).toBe(true);
		expect(results()[0].text).toBe("The user denied this call: The user stopped the run.");
		expect(faux.calls).toHaveLength(1);
	});

	it("in real bwrap, a command refused the network asks again; choice 3 runs it in the sandbox with the network", async () => {
		const listener = createServer((socket) => socket.end("pong\n"));
		await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
		try {
			await session.dispose();
			session = await createAgentSession({
				cwd: home,
				model: faux.getModel(),
				sessionMode: { kind: "none" },
				env: { RUDDER_HOME: join(home, ".rudder-home") },
				tools: ["bash"],
				apiKey: "test",
				approvals: "prompt",
				// ask: auto, the default with a working sandbox, would run the first attempt without asking.
				permissionMode: "ask",
			});
			const command = `head -1 < /dev/tcp/127.0.0.1/${(listener.address() as AddressInfo).port}`;
			faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("Got it.")])]);
			const { frame, type } = await mount();
			await type("go\r");
			await vi.waitFor(() => expect(frame()).toContain("runs in the sandbox"));
			await allowOnce(type);
			await vi.waitFor(() => expect(frame()).toContain("bash failed inside the sandbox"));
			expect(frame()).toContain("3  Run it again in the sandbox with network, once");
			// Not leaving the sandbox is highlighted first.
			expect(frame()).toMatch(/› 1 {2}Do not/);
			await type("3");
			await type("\r");
			await vi.waitFor(() => expect(frame()).toContain("Got it."));
			expect(results()).toEqual([{ isError: false, text: "pong" }]);
		} finally {
			await new Promise<void>((resolve) => listener.close(() => resolve()));
		}
	});

	it("Shift+Tab cycles the mode and the footer shows it", async () => {
		const { frame, type } = await mount();
		expect(frame()).toMatch(/ · ask · /);
		await type("\x1b[Z");
		await vi.waitFor(() => expect(frame()).toMatch(/ · auto-edit · /));
		await type("\x1b[Z");
		await vi.waitFor(() => expect(frame()).toMatch(/ · auto · /));
		await type("\x1b[Z");
		await vi.waitFor(() => expect(frame()).toMatch(/ · plan · /));
		expect(session.getState().permissionMode).toBe("plan");
		expect(frame()).toContain("no sandbox");
	});
});

/** Every file under the data folder with its text: where a saved rule would be. */
function dataFiles(): Record<string, string> {
	const root = join(home, ".rudder-home");
	const out: Record<string, string> = {};
	const walk = (dir: string) => {
		if (!existsSync(dir)) return;
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else out[path.slice(root.length + 1)] = readFileSync(path, "utf8");
		}
	};
	walk(root);
	return out;
}

const DANGER = "rm -rf important";

describe("typing at an open approval", { timeout: 20_000 }, () => {
	it.each([
		["typed key by key", ["p", "l", "e", "a", "s", "e"], "please"],
		["typed in one read", ["stop"], "stop"],
		["typed fast with Enter in the same read", ["please stop\r"], "please stop"],
		["pasted (bracketed)", ["\x1b[200~yes please, always allow this\x1b[201~"], "yes please, always allow this"],
	])("%s: grants nothing, saves no rule, and keeps the text in the paused input", async (_how, writes, kept) => {
		faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: DANGER })]), fauxAssistantMessage([fauxText("Stopped.")])]);
		const { frame, type } = await mount();
		await type("clean up\r");
		await vi.waitFor(() => expect(frame()).toContain(`$ ${DANGER}`));
		const before = dataFiles();
		for (const text of writes) await type(text);
		// Still waiting, on the same call, with nothing saved and the words kept where they were typed.
		expect(session.getState().pendingApproval?.args).toEqual({ command: DANGER });
		expect(frame()).toContain(`$ ${DANGER}`);
		expect(frame()).toContain("input paused for the approval");
		expect(frame()).toContain(`› ${kept}`);
		expect(frame()).not.toContain("Save rule");
		expect(dataFiles()).toEqual(before);
		expect(JSON.stringify(dataFiles())).not.toContain(DANGER);
		// Esc denies and stops: the command never ran and the text is still there to send.
		await type("\x1b");
		await vi.waitFor(() => expect(session.getState().isStreaming).toBe(false));
		expect(existsSync(join(home, "important"))).toBe(false);
		expect(JSON.stringify(dataFiles())).not.toContain(DANGER);
		await vi.waitFor(() => expect(frame()).not.toContain("input paused"));
		expect(frame()).toContain(`› ${kept}`);
	});

	it("one key and Enter read together are still two keys: a number then Enter takes that choice", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo quick" })]),
			fauxAssistantMessage([fauxText("Quick.")]),
		]);
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo quick"));
		await type("1\r");
		await vi.waitFor(() => expect(frame()).toContain("Quick."));
		expect(results()).toEqual([{ isError: false, text: "quick" }]);
	});

	it("a project grant needs its own confirmation naming the exact rule; Esc goes back; only the second Enter saves", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo granted" })]),
			fauxAssistantMessage([fauxText("Ran it.")]),
		]);
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo granted"));
		await type("3");
		await vi.waitFor(() => expect(frame()).toMatch(/› 3 {2}Always allow this in this project/));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Save rule bash(echo granted) for this project?"));
		expect(frame()).toContain("Enter saves it and runs the call · Esc back");
		expect(JSON.stringify(dataFiles())).not.toContain("echo granted");
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).not.toContain("Save rule"));
		expect(session.getState().pendingApproval).toBeDefined();
		expect(session.getState().isStreaming).toBe(true);
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Save rule bash(echo granted) for this project?"));
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Ran it."));
		const saved = Object.entries(dataFiles()).filter(([, text]) => text.includes("echo granted"));
		expect(saved.map(([name]) => name)).toEqual(["data/project-permissions.json"]);
		expect(saved[0][1]).toContain('"bash(echo granted)"');
	});

	it("two calls in one reply: 'call 1 of 2', then 'call 2 of 2'; the results print in call order", async () => {
		faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("bash", { command: "sleep 0.5; echo FIRST-OUT" }),
				fauxToolCall("bash", { command: "echo SECOND-OUT" }),
			]),
			fauxAssistantMessage([fauxText("Both done.")]),
		]);
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("call 1 of 2"));
		expect(frame()).toContain("$ sleep 0.5; echo FIRST-OUT");
		await type("1");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("call 2 of 2"));
		await type("1");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Both done."));
		const screen = frame();
		const first = screen.lastIndexOf("FIRST-OUT");
		const second = screen.lastIndexOf("SECOND-OUT");
		expect(first).toBeGreaterThan(-1);
		expect(second).toBeGreaterThan(first);
	});
});

describe("the whole command at 60 columns", { timeout: 20_000 }, () => {
	it("wraps a long && chain with its end on screen; past the height Ctrl+O pages through all of it, q goes back", async () => {
		const chain = [...Array.from({ length: 30 }, (_, i) => `cp build/out-${i}.js /srv/www/current/out-${i}.js`), "rm -rf ~/important"].join(
			" && ",
		);
		faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command: chain })]), fauxAssistantMessage([fauxText("Stopped.")])]);
		const { frame, type } = await mount({ rows: 24, columns: 60 });
		await type("deploy\r");
		await vi.waitFor(() => expect(frame()).toContain("bash wants to run"));
		const screen = frame();
		const prompt = screen.slice(screen.indexOf("bash wants to run"), screen.indexOf("typing goes to the input"));
		expect(prompt.split("\n").every((row) => row.length <= 60)).toBe(true);
		// The call waiting for its approval is not also drawn as a running tool (cut at the width).
		expect(screen).not.toMatch(/bash cp build/);
		expect(prompt).toMatch(/⟨\d+ more lines hidden · Ctrl\+O shows all⟩/);
		// The tail (where the rm hides) stays visible under the hidden rows.
		expect(prompt.replace(/\n {2}/g, "")).toContain("rm -rf ~/important");
		expect(prompt).not.toContain("…");
		await type("\x0f");
		await vi.waitFor(() => expect(frame()).toMatch(/bash: rows 1–\d+ of \d+/));
		const total = Number(/of (\d+)/.exec(frame())?.[1]);
		const seen = new Set<string>();
		for (let page = 0; page < total; page++) {
			for (const row of frame().split("\n")) if (row.startsWith("  ")) seen.add(row);
			await type("\x1b[6~");
		}
		expect(frame()).toMatch(new RegExp(`rows \\d+–${total} of ${total}`));
		const all = [...seen].join("");
		for (let i = 0; i < 30; i++) expect(all).toContain(`out-${i}.js`);
		// Letters in the pager answer nothing either.
		await type("y");
		expect(session.getState().pendingApproval).toBeDefined();
		await type("q");
		await vi.waitFor(() => expect(frame()).toContain("Deny, and tell the model why"));
		expect(session.getState().pendingApproval).toBeDefined();
	});
});

describe("approvalKey", () => {
	const k = (raw: string) => parseKeyPress(raw);
	const call = { kind: "call" as const };
	const press = (state: ReturnType<typeof initialApprovalState>, raw: string, action?: string) => approvalKey(state, k(raw), call, action);
	it("starts on the safe choice: deny for a call, staying in the sandbox for a rerun", () => {
		expect(initialApprovalState("r", call).selected).toBe(3);
		expect(initialApprovalState("r", { kind: "unsandboxed" }).selected).toBe(0);
	});
	it("never answers with a letter: y, a, p, n and words come back as text for the input", () => {
		const s = initialApprovalState("r1", call);
		for (const text of ["y", "a", "p", "n", "please", "stop"])
			expect(press(s, text)).toEqual({ state: s, outcome: { type: "text", text } });
	});
	it("a number moves the highlight and Enter takes it; Enter on deny opens the reason; Esc stops", () => {
		const s = initialApprovalState("r1", call);
		const one = press(s, "1", "approvalNumber");
		expect(one).toEqual({ state: { ...s, selected: 0 }, outcome: { type: "none" } });
		expect(press(one.state, "\r", "approvalSelect").outcome).toEqual({ type: "answer", response: { decision: "allow" } });
		expect(press(s, "9", "approvalNumber").state).toEqual(s);
		expect(press(s, "\r", "approvalSelect")).toEqual({ state: { ...s, reason: "" }, outcome: { type: "none" } });
		expect(press(s, "\x1b", "approvalDenyAndStop").outcome).toEqual({ type: "stop" });
		expect(press({ ...s, reason: "x" }, "\x1b").outcome).toEqual({ type: "stop" });
	});
	it("a lasting grant waits for a second Enter; Esc goes back to the choices", () => {
		const s = { ...initialApprovalState("r1", call), selected: 2 };
		const asked = press(s, "\r", "approvalSelect");
		expect(asked).toEqual({ state: { ...s, confirming: 2 }, outcome: { type: "none" } });
		expect(press(asked.state, "p").outcome).toEqual({ type: "text", text: "p" });
		expect(press(asked.state, "\x1b", "approvalDenyAndStop")).toEqual({
			state: { ...s, confirming: undefined },
			outcome: { type: "none" },
		});
		expect(press(asked.state, "\r", "approvalSelect").outcome).toEqual({
			type: "answer",
			response: { decision: "always", scope: "project" },
		});
	});
	it("offers no 'always' for running outside the sandbox", () => {
		const choices = choicesFor({ kind: "unsandboxed" });
		expect(choices.some((c) => c.response.decision === "always")).toBe(false);
	});
	it("preselects the safe choice for running outside the sandbox: Enter keeps it inside", () => {
		const unsandboxed = { kind: "unsandboxed" } as const;
		const s = initialApprovalState("r3", unsandboxed);
		expect(choicesFor(unsandboxed)[s.selected]?.response).toEqual({ decision: "deny" });
		const entered = approvalKey(s, k("\r"), unsandboxed, "approvalSelect");
		expect(entered.outcome.type === "answer" ? entered.outcome.response.decision : entered.state.reason === "" && "reason").not.toBe(
			"allow",
		);
	});
});
