// Rewinds in the app (the menu, and what a restore prints again), over a real AgentSession with checkpoints (shadow git) and the faux provider.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "../../../src/ai/providers/faux.js";
import type { AgentSession } from "../../../src/session/agent-session.js";
import { createAgentSession } from "../../../src/session/assemble.js";
import { mergeSettings } from "../../../src/session/settings.js";
import { scrollScreenOff } from "../../../src/tui/transcript/use-history-batches.js";
import { appOnSessionPerTest } from "./mount-app.js";

let root: string;
let cwd: string;
let faux: FauxProviderRegistration;
let session: AgentSession;

beforeEach(async () => {
	root = mkdtempSync(join(tmpdir(), "rudder-app-rewind-"));
	cwd = join(root, "project");
	mkdirSync(cwd);
	faux = registerFauxProvider({ api: "faux-rewind-test", provider: "faux" });
	session = await createAgentSession({
		cwd,
		model: faux.getModel(),
		sessionMode: { kind: "new" },
		env: { RUDDER_HOME: join(root, "home"), RUDDER_CHECKPOINT_WAIT_MS: "60000" },
		settings: mergeSettings({ checkpoints: true }),
		tools: ["read", "write", "bash"],
		// Approvals are tested elsewhere; here the tools just run.
		permissionMode: "yolo",
		apiKey: "test",
	});
});

/**
 * The session again, with a git that holds every file listing while the returned `hold` file exists:
 * the run's points stay edits-only, and bash waits for their snapshot.
 */
async function heldSession(tools: string[]): Promise<string> {
	await session.dispose();
	const hold = join(root, "hold");
	const heldGit = join(root, "held-git");
	writeFileSync(
		heldGit,
		`#!/bin/sh\nfor a in "$@"; do if [ "$a" = ls-files ]; then while [ -e '${hold}' ] && [ -d '${root}' ]; do sleep 0.05; done; fi; done\nexec git "$@"\n`,
	);
	chmodSync(heldGit, 0o755);
	writeFileSync(hold, "");
	session = await createAgentSession({
		cwd,
		model: faux.getModel(),
		sessionMode: { kind: "new" },
		env: { RUDDER_HOME: join(root, "home"), RUDDER_CHECKPOINT_WAIT_MS: "50", RUDDER_GIT: heldGit },
		settings: mergeSettings({ checkpoints: true }),
		tools,
		permissionMode: "yolo",
		apiKey: "test",
	});
	return hold;
}

const { mount } = appOnSessionPerTest(() => ({ session, faux, dir: root }), { rows: 30, columns: 100 });

describe("rewind menu", () => {
	it("lists prompts with their changed files, restores code and conversation after a confirmation, and puts the prompt back", async () => {
		writeFileSync(join(cwd, "notes.txt"), "v1\n");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("read", { path: "notes.txt" }, { id: "r" })]),
			fauxAssistantMessage([
				fauxToolCall("write", { path: "notes.txt", content: "v2\nv2\n" }, { id: "w" }),
				fauxToolCall("bash", { command: "echo made > made.txt" }, { id: "b" }),
			]),
			fauxAssistantMessage([fauxText("Changed both.")]),
		]);
		const { frame, type } = await mount();
		await type("change the notes");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Changed both."), { timeout: 20_000 });
		await session.waitForIdle();
		expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("v2\nv2\n");

		// Esc twice on the empty idle input opens the menu.
		await type("\x1b");
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).toContain("Rewind to before a prompt (1, newest first)"), { timeout: 10_000 });
		expect(frame()).toContain("change the notes");
		expect(frame()).toMatch(/\+1 −0 made\.txt, \+2 −1 notes\.txt/);

		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Restore code and conversation"));
		expect(frame()).toContain("Restore conversation only");
		expect(frame()).toContain("Restore code only");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Restore 2 files?"), { timeout: 10_000 });
		expect(frame()).toMatch(/delete made\.txt, revert notes\.txt/);
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Code and conversation restored (2 files)"), { timeout: 10_000 });
		expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("v1\n");
		expect(existsSync(join(cwd, "made.txt"))).toBe(false);
		expect(session.getState().messages).toEqual([]);
		// The prompt is back in the input, ready to edit and send again.
		await vi.waitFor(() => expect(frame()).toMatch(/› change the notes/));
	});

	it("a menu asked for while the last point is still becoming whole does not open over what the user typed meanwhile", async () => {
		const hold = await heldSession(["read"]);
		faux.setResponses([fauxAssistantMessage([fauxText("Answered.")])]);
		const { frame, type } = await mount();
		await type("a question");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Answered."), { timeout: 20_000 });
		await type("/rewind");
		await type("\r");
		// The menu waits for the points; the user goes on typing the next prompt.
		await type("my next prompt");
		rmSync(hold);
		await session.rewindPoints();
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(frame()).not.toContain("Rewind to before a prompt");
		expect(frame()).toContain("my next prompt");
	});

	it("a bash call waiting for the snapshot says so in its row instead of running a timer, and runs once the snapshot ends", async () => {
		const hold = await heldSession(["bash"]);
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo ran > ran.txt" }, { id: "b" })]),
			fauxAssistantMessage([fauxText("Done.")]),
		]);
		const { frame, type } = await mount();
		await type("run it");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("waiting for the checkpoint snapshot…"), { timeout: 20_000 });
		const row = frame()
			.split("\n")
			.find((line) => line.includes("echo ran > ran.txt"));
		expect(row).toMatch(/bash echo ran > ran\.txt waiting for the checkpoint snapshot…/);
		expect(row).not.toMatch(/\(\d+s\)/);
		expect(existsSync(join(cwd, "ran.txt"))).toBe(false);
		rmSync(hold);
		await vi.waitFor(() => expect(frame()).toContain("Done."), { timeout: 20_000 });
		expect(frame()).not.toContain("waiting for the checkpoint snapshot");
		expect(readFileSync(join(cwd, "ran.txt"), "utf8")).toBe("ran\n");
	});

	it("/rewind with nothing to go back to says so, and Esc closes the menu without restoring", async () => {
		const { frame, type } = await mount();
		await type("/rewind");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("No prompts to go back to"), { timeout: 10_000 });

		writeFileSync(join(cwd, "a.txt"), "a\n");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo b > a.txt" }, { id: "b" })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await type("go");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("ok"), { timeout: 20_000 });
		await session.waitForIdle();
		await type("/rewind");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Rewind to before a prompt"), { timeout: 10_000 });
		await type("\x1b");
		await vi.waitFor(() => expect(frame()).not.toContain("Rewind to before a prompt"));
		expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("b\n");
	});
});

/** Everything the app wrote since `from` (a frame index), as one text. */
const since = (mounted: { app: ReturnType<typeof render> }, from: number) => mounted.app.frames.slice(from).join("\n");

// A reprinted transcript: tool rows as the live run showed them, and no session file path.
describe("a reprinted transcript", () => {
	it("after /rewind (conversation) and /tree, tool rows keep their arguments and no file path is printed", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("write", { path: "new1.txt", content: "one\n" }, { id: "w1" })]),
			fauxAssistantMessage([fauxText("Wrote one.")]),
			fauxAssistantMessage([fauxToolCall("write", { path: "new2.txt", content: "two\n" }, { id: "w2" })]),
			fauxAssistantMessage([fauxText("Wrote two.")]),
		]);
		const mounted = await mount({ rows: 40, columns: 100 });
		const { frame, type } = mounted;
		for (const [prompt, reply] of [
			["make one", "Wrote one."],
			["make two", "Wrote two."],
		]) {
			await type(prompt);
			await type("\r");
			await vi.waitFor(() => expect(frame()).toContain(reply), { timeout: 20_000 });
			await session.waitForIdle();
		}
		expect(frame()).toContain("✓ write new2.txt");

		let from = mounted.app.frames.length;
		await type("/rewind 1 conversation");
		await type("\r");
		await vi.waitFor(() => expect(since(mounted, from)).toContain('Conversation restored to before "make two"'), { timeout: 10_000 });
		let printed = since(mounted, from);
		expect(printed).toContain(`── session ${session.getState().sessionId.slice(0, 8)} ──`);
		expect(printed).toContain("✓ write new1.txt");
		expect(printed).not.toMatch(/✓ write\s*\n/);
		expect(printed).not.toContain(".jsonl");

		// The prompt came back to the input; Ctrl+C clears it. Then back to the branch left behind.
		await vi.waitFor(() => expect(frame()).toMatch(/› make two/));
		await type("\x03");
		from = mounted.app.frames.length;
		await type("/tree");
		await type("\r");
		await vi.waitFor(() => expect(since(mounted, from)).toContain("Branches, newest first"), { timeout: 10_000 });
		const list = since(mounted, from);
		const n = /(\d+)\. \S+ \S+ {2}\d+ messages {2}"make two"/.exec(list)?.[1];
		expect(n, list).toBeDefined();
		from = mounted.app.frames.length;
		await type(`/tree ${n}`);
		await type("\r");
		await vi.waitFor(() => expect(since(mounted, from)).toContain('On the branch "make two"'), { timeout: 10_000 });
		printed = since(mounted, from);
		expect(printed).toContain("✓ write new1.txt");
		expect(printed).toContain("✓ write new2.txt");
		expect(printed).not.toMatch(/✓ write\s*\n/);
		expect(printed).not.toContain(".jsonl");
	});
});

describe("a new session and the first prompt undone", () => {
	it("/new clears the screen (the old history is not printed again) and says 'New session' once", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText("Old answer.")])]);
		const { app, frame, type } = await mount();
		await type("old question");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Old answer."), { timeout: 20_000 });
		await session.waitForIdle();
		const before = app.frames.length;
		await type("/new");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("New session"));
		const after = app.frames.slice(before);
		expect(after.some((f) => f.startsWith(scrollScreenOff(24)))).toBe(true);
		// Ink's debug frames hold every <Static> line printed: the old answer once (not printed again).
		expect(frame().split("New session")).toHaveLength(2);
		expect(frame().split("Old answer.")).toHaveLength(2);
		await type("/clear");
		await type("\r");
		await vi.waitFor(() => expect(after.length).toBeLessThan(app.frames.slice(before).length));
		await vi.waitFor(() => expect(frame().split("New session")).toHaveLength(3));
		expect(frame().split("Old answer.")).toHaveLength(2);
	});

	it("/undo of the first prompt says what it restored, not 'New session'", async () => {
		writeFileSync(join(cwd, "notes.txt"), "v1\n");
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo v2 > notes.txt" }, { id: "b" })]),
			fauxAssistantMessage([fauxText("Changed.")]),
		]);
		const { frame, type } = await mount();
		await type("change the notes");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain("Changed."), { timeout: 20_000 });
		await session.waitForIdle();
		expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("v2\n");
		await type("/undo");
		await type("\r");
		await vi.waitFor(() => expect(frame()).toContain('Code and conversation restored to before "change the notes"'), { timeout: 10_000 });
		expect(frame()).not.toContain("New session");
		expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("v1\n");
	});
});
