// The approval prompt in the app over a real session: what it shows before anything runs, and what
// each key answers. Keys: y allow once · a always (session) · p always (project) · n deny + reason ·
// Enter picks the highlighted choice · Esc denies and stops the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
import { approvalKey, initialApprovalState } from "../../../src/tui/overlays/approval-prompt-state.js";
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

const twoCommands = () =>
	faux.setResponses([
		fauxAssistantMessage([fauxToolCall("bash", { command: "echo first" }), fauxToolCall("bash", { command: "echo second" })]),
		fauxAssistantMessage([fauxText("All done.")]),
	]);

describe("approval prompt", { timeout: 20_000 }, () => {
	it("shows the diff an edit would make before it is made; y allows it", async () => {
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
		expect(frame()).toContain("y  Allow once");
		expect(readFileSync(join(home, "notes.md"), "utf8")).toBe("alpha\nbeta\ngamma\n");
		expect(session.getState().pendingApproval?.tool).toBe("edit");
		await type("y");
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
		await type("y");
		await vi.waitFor(() => expect(frame()).toContain("$ echo second"));
		expect(frame()).toContain("waiting for approval");
		await type("y");
		await vi.waitFor(() => expect(frame()).toContain("All done."));
		expect(frame()).not.toContain("waiting for approval");
	});

	it("asks for two calls of one reply one at a time, in order: y then n with a reason", async () => {
		twoCommands();
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo first"));
		expect(frame()).not.toContain("$ echo second");
		await type("y");
		await vi.waitFor(() => expect(frame()).toContain("$ echo second"));
		await type("n");
		await vi.waitFor(() => expect(frame()).toContain("reason:"));
		await type("use printf");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("All done."));
		expect(results()).toEqual([
			{ isError: false, text: "first" },
			{ isError: true, text: "The user denied this call: use printf" },
		]);
	});

	it("Enter picks the highlighted choice (↓ moves it); a always-allows the same command for the session", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo same" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo same" })]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo other" })]),
			fauxAssistantMessage([fauxText("Finished.")]),
		]);
		const { frame, type } = await mount();
		await type("go\r");
		await vi.waitFor(() => expect(frame()).toContain("$ echo same"));
		await type("a");
		await vi.waitFor(() => expect(frame()).toContain("$ echo other"));
		await type("\x1b[B");
		await type("\x1b[B");
		await type("\x1b[B");
		await vi.waitFor(() => expect(frame()).toMatch(/› n {2}Deny/));
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

	it("in real bwrap, a command refused the network asks again; w runs it in the sandbox with the network", async () => {
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
			});
			const command = `head -1 < /dev/tcp/127.0.0.1/${(listener.address() as AddressInfo).port}`;
			faux.setResponses([fauxAssistantMessage([fauxToolCall("bash", { command })]), fauxAssistantMessage([fauxText("Got it.")])]);
			const { frame, type } = await mount();
			await type("go\r");
			await vi.waitFor(() => expect(frame()).toContain("runs in the sandbox"));
			await type("y");
			await vi.waitFor(() => expect(frame()).toContain("bash failed inside the sandbox"));
			expect(frame()).toContain("w  Run it again in the sandbox with network, once");
			await type("w");
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
		await vi.waitFor(() => expect(frame()).toMatch(/ · plan · /));
		expect(session.getState().permissionMode).toBe("plan");
		expect(frame()).toContain("no sandbox");
	});
});

describe("approvalKey", () => {
	const k = (raw: string) => parseKeyPress(raw);
	const call = { kind: "call" as const };
	it("maps y / a / p to answers, n to the reason field, Esc to stop, in any state", () => {
		const s = initialApprovalState("r1");
		expect(approvalKey(s, k("y"), call).outcome).toEqual({ type: "answer", response: { decision: "allow" } });
		expect(approvalKey(s, k("a"), call).outcome).toEqual({ type: "answer", response: { decision: "always", scope: "session" } });
		expect(approvalKey(s, k("p"), call).outcome).toEqual({ type: "answer", response: { decision: "always", scope: "project" } });
		expect(approvalKey(s, k("n"), call)).toEqual({ state: { id: "r1", selected: 0, reason: "" }, outcome: { type: "none" } });
		expect(approvalKey({ ...s, reason: "x" }, k("\x1b"), call).outcome).toEqual({ type: "stop" });
		expect(approvalKey(s, k("x"), call).outcome).toEqual({ type: "none" });
	});
	it("offers no 'always' for running outside the sandbox", () => {
		const s = initialApprovalState("r2");
		expect(approvalKey(s, k("a"), { kind: "unsandboxed" }).outcome).toEqual({ type: "none" });
		expect(approvalKey(s, k("y"), { kind: "unsandboxed" }).outcome).toEqual({ type: "answer", response: { decision: "allow" } });
	});
});
