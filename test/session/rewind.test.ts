import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "../../src/ai/index.js";
import { loadSession } from "../../src/session/session-load.js";
import { commandHook } from "../extensions/hooks/hook-project.js";
import { fingerprint } from "../helpers/fingerprint.js";
import { putFile } from "../helpers/put-file.js";
import { createFixture, type Fixture, userTexts } from "./session-fixture.js";

let fx: Fixture;
afterEach(async () => {
	await fx?.cleanup();
});

const tools = ["read", "write", "edit", "bash"];
const file = (name: string) => join(fx.cwd, name);
const text = (name: string) => readFileSync(file(name), "utf8");
const isExecutable = (name: string) => (statSync(file(name)).mode & 0o111) !== 0;

/** A project under git with three files the run will edit, remove and chmod. */
function seedProject() {
	writeFileSync(file("a.ts"), "const a = 1;\n");
	writeFileSync(file("g.txt"), "gone soon\n");
	writeFileSync(file("h.sh"), "echo h\n");
	chmodSync(file("h.sh"), 0o644);
	const git = (...args: string[]) => execFileSync("git", args, { cwd: fx.cwd, stdio: "ignore" });
	git("init", "--quiet");
	git("add", ".");
	git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "seed");
}

/** One prompt whose tools read and edit a.ts, write b.ts and run a bash command that writes, removes and chmods. */
function scriptTheRun() {
	fx.faux.setResponses([
		fauxAssistantMessage([fauxToolCall("read", { path: "a.ts" }, { id: "r1" })]),
		fauxAssistantMessage([
			fauxToolCall("edit", { path: "a.ts", edits: [{ oldText: "const a = 1;", newText: "const a = 2;\nconst extra = 3;" }] }, { id: "e1" }),
			fauxToolCall("write", { path: "b.ts", content: "export const b = true;\n" }, { id: "w1" }),
			fauxToolCall("bash", { command: "echo x > f && rm g.txt && chmod +x h.sh" }, { id: "b1" }),
		]),
		fauxAssistantMessage([fauxText("All done.")]),
	]);
}

describe("rewind through the session", () => {
	it("undoes edit, write and bash byte-exact with modes; the next request has no trace of the turn; .git is untouched", async () => {
		fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
		seedProject();
		const dotGit = fingerprint(join(fx.cwd, ".git"));
		fx.faux.setResponses([fauxAssistantMessage([fauxText("Hello.")])]);
		await fx.session.prompt("say hello");
		scriptTheRun();
		await fx.session.prompt("change the files");
		expect(text("a.ts")).toBe("const a = 2;\nconst extra = 3;\n");
		expect(existsSync(file("g.txt"))).toBe(false);
		expect(isExecutable("h.sh")).toBe(true);
		// The points were whole at once: bash never waited, so its row never said so.
		expect(fx.events.some((e) => e.type === "tool_waiting")).toBe(false);

		const points = await fx.session.rewind.points();
		expect(points.map((p) => p.text)).toEqual(["change the files", "say hello"]);
		expect(points[0].changes.map((c) => `${c.status} ${c.path} +${c.added} -${c.removed}`)).toEqual([
			"modified a.ts +2 -1",
			"added b.ts +1 -0",
			"added f +1 -0",
			"deleted g.txt +0 -1",
			"modified h.sh +0 -0",
		]);
		expect(points[1].changes).toEqual([]);

		const rewound = fx.waitForEvent("rewound");
		const result = await fx.session.rewindTo(points[0].entryId, "both");
		expect((await rewound).text).toBe("change the files");
		expect(result.text).toBe("change the files");
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(text("g.txt")).toBe("gone soon\n");
		expect(isExecutable("h.sh")).toBe(false);
		expect(existsSync(file("b.ts"))).toBe(false);
		expect(existsSync(file("f"))).toBe(false);
		expect(fingerprint(join(fx.cwd, ".git"))).toEqual(dotGit);
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);

		fx.faux.setResponses([fauxAssistantMessage([fauxText("Again.")])]);
		const before = fx.faux.calls.length;
		await fx.session.prompt("something else");
		const sent = fx.faux.calls[before].context.messages;
		expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
		expect(userTexts(fx.faux, before)).toEqual(["say hello", "something else"]);
		expect(JSON.stringify(sent)).not.toContain("change the files");
	});

	it("keeps the undone turn on its own branch; /tree switches back and a resume continues the branch last used", async () => {
		fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
		writeFileSync(file("a.ts"), "const a = 1;\n");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("first answer")])]);
		await fx.session.prompt("first");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("second answer")])]);
		await fx.session.prompt("second");
		const [second] = await fx.session.rewind.points();
		await fx.session.rewindTo(second.entryId, "conversation");
		fx.faux.setResponses([fauxAssistantMessage([fauxText("other answer")])]);
		await fx.session.prompt("second, differently");

		const branches = fx.session.rewind.branches();
		expect(branches.map((b) => [b.text, b.current])).toEqual([
			["second, differently", true],
			["second", false],
		]);
		fx.session.switchBranch(branches[1].leafId);
		expect(fx.session.getState().messages.map((m) => (m.role === "assistant" ? m.content[0] : m.role))).toEqual([
			"user",
			{ type: "text", text: "first answer" },
			"user",
			{ type: "text", text: "second answer" },
		]);
		const path = fx.session.getState().sessionFile as string;
		await fx.session.dispose();
		expect(loadSession(path).messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		const resumed = await fx.open({ sessionMode: { kind: "continue" } });
		expect(resumed.getState().messages).toHaveLength(4);
		expect(resumed.rewind.branches().map((b) => b.text)).toEqual(["second", "second, differently"]);
	});

	it("/undo restores code and conversation of the last prompt, and refuses when a file changed outside Rudder since", async () => {
		fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
		seedProject();
		scriptTheRun();
		await fx.session.submit("change the files");
		await fx.session.waitForIdle();
		writeFileSync(file("a.ts"), "edited by the user\n");
		await fx.session.submit("/undo");
		expect(fx.notices().at(-1)).toMatch(/^Not undone: a\.ts changed outside Rudder/);
		expect(text("a.ts")).toBe("edited by the user\n");

		await fx.session.submit("/rewind 1 code");
		const shown = fx.notices().at(-1) as string;
		expect(shown).toMatch(/This restore would change:[\s\S]*revert {2}a\.ts[\s\S]*Changed outside Rudder since then: a\.ts/);
		const command = /To go ahead: (\/rewind 1 code yes-[0-9a-f]{6})/.exec(shown)?.[1] as string;
		expect(command).toBeDefined();
		// A confirmation for a plan that no longer holds (a file appeared since the preview) restores nothing.
		writeFileSync(file("mine.txt"), "the user's new file\n");
		await fx.session.submit(command);
		expect(fx.notices().at(-1)).toMatch(/^The files changed since that preview; nothing was restored\.[\s\S]*delete {2}mine\.txt/);
		expect(existsSync(file("mine.txt"))).toBe(true);
		expect(text("a.ts")).toBe("edited by the user\n");
		const again = /To go ahead: (\/rewind 1 code yes-[0-9a-f]{6})/.exec(fx.notices().at(-1) as string)?.[1] as string;
		await fx.session.submit(again);
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(fx.session.getState().messages.length).toBeGreaterThan(1);

		scriptTheRun();
		await fx.session.submit("change the files again");
		await fx.session.waitForIdle();
		await fx.session.submit("/undo");
		expect(fx.notices().at(-1)).toMatch(/^Code and conversation restored/);
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(existsSync(file("b.ts"))).toBe(false);
	});

	it("/fork continues in a new file holding the branch up to a prompt", async () => {
		fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
		fx.faux.setResponses([fauxAssistantMessage([fauxText("one")]), fauxAssistantMessage([fauxText("two")])]);
		await fx.session.prompt("first");
		await fx.session.prompt("second");
		const original = fx.session.getState().sessionFile;
		await fx.session.submit("/fork 1");
		const forked = fx.session.getState().sessionFile;
		expect(forked).not.toBe(original);
		expect(fx.session.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect((await fx.waitForEvent("rewound")).text).toBe("second");
		expect(loadSession(original as string).messages).toHaveLength(4);
	});

	it("without git, the copies of files edit and write touched are restored, and one notice says bash is not tracked", async () => {
		fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
		await fx.session.dispose();
		const session = await fx.open({ env: { ...fx.env, RUDDER_GIT: join(fx.root, "no-such-git") } });
		writeFileSync(file("a.ts"), "const a = 1;\n");
		writeFileSync(file("g.txt"), "gone soon\n");
		writeFileSync(file("h.sh"), "echo h\n");
		scriptTheRun();
		await session.prompt("change the files");
		expect(fx.notices().some((n) => /bash are not tracked/.test(n))).toBe(true);
		const [point] = await session.rewind.points();
		await session.rewindTo(point.entryId, "code");
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(existsSync(file("b.ts"))).toBe(false);
		// bash's changes are not seen by the fallback.
		expect(existsSync(file("f"))).toBe(true);
	});

	it("the first prompt goes out while the snapshot runs; edits run at once, bash waits for it; the point is then whole and restores all", async () => {
		const { session, release } = await openWithHeldGit();
		scriptTheRunInSteps();
		const done = session.prompt("change the files");
		// The request went out and edit and write ran while git's listing was held back (so the snapshot
		// reads a.ts and b.ts after those edits); bash was reached and waits.
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		expect(text("a.ts")).toBe("const a = 2;\nconst extra = 3;\n");
		expect(existsSync(file("b.ts"))).toBe(true);
		expect(existsSync(file("f"))).toBe(false);
		// The point as written before the prompt: edits only (`+<copies>`).
		expect((await fx.waitForEvent("checkpoint_created")).snapshot.startsWith("+")).toBe(true);
		// bash's row says it waits (edit and write never wait).
		await fx.waitForEvent("tool_waiting", (e) => e.waiting);
		writeFileSync(release, "");
		await done;
		expect(existsSync(file("f"))).toBe(true);
		expect(fx.events.flatMap((e) => (e.type === "tool_waiting" ? [`${e.toolCallId} ${e.waiting}`] : []))).toEqual(["b1 true", "b1 false"]);
		const [point] = await session.rewind.points();
		expect(point.editsOnly).toBeUndefined();
		expect(point.changes.map((c) => `${c.status} ${c.path}`)).toEqual([
			"modified a.ts",
			"added b.ts",
			"added f",
			"deleted g.txt",
			"modified h.sh",
		]);
		await session.rewindTo(point.entryId, "code");
		// The edit's copy wins over the snapshot that read a.ts after it; b.ts, written meanwhile, goes.
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(existsSync(file("b.ts"))).toBe(false);
		// What bash did is undone too: the point covers everything.
		expect(existsSync(file("f"))).toBe(false);
		expect(text("g.txt")).toBe("gone soon\n");
		expect(isExecutable("h.sh")).toBe(false);
	});

	it("the point made whole is in the session file: a resumed session offers it as covering everything", async () => {
		const { session, release } = await openWithHeldGit();
		scriptTheRunInSteps();
		const done = session.prompt("change the files");
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		writeFileSync(release, "");
		await done;
		await session.dispose();
		const resumed = await fx.open({ sessionMode: { kind: "continue" } });
		const [point] = await resumed.rewind.points();
		expect(point.text).toBe("change the files");
		expect(point.editsOnly).toBeUndefined();
		// Aside: the branch and its messages are as they were.
		expect(resumed.getState().messages.map((m) => m.role)).toEqual([
			...["user", "assistant", "toolResult", "assistant", "toolResult", "toolResult", "assistant", "toolResult", "assistant"],
		]);
		expect(resumed.rewind.branches()).toHaveLength(1);
		await resumed.warmUp();
		await resumed.rewindTo(point.entryId, "code");
		expect(existsSync(file("f"))).toBe(false);
		expect(text("a.ts")).toBe("const a = 1;\n");
	});

	it("Esc while bash waits for the snapshot stops the run; the command never runs, not even once the snapshot ends", async () => {
		const { session, release } = await openWithHeldGit();
		scriptTheRunInSteps();
		const done = session.prompt("change the files");
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		session.abort();
		await done;
		const bash = await fx.waitForEvent("tool_execution_end", (e) => e.toolName === "bash");
		expect(bash.isError).toBe(true);
		writeFileSync(release, "");
		await session.rewind.settled();
		// A later prompt (and its own wait) goes through once git is free again.
		fx.faux.setResponses([
			fauxAssistantMessage([fauxToolCall("bash", { command: "echo later > later.txt" }, { id: "b2" })]),
			fauxAssistantMessage([fauxText("ok")]),
		]);
		await session.prompt("again");
		expect(text("later.txt")).toBe("later\n");
		expect(existsSync(file("f"))).toBe(false);
		expect(existsSync(file("g.txt"))).toBe(true);
	});

	it("a !cmd waits for the snapshot of an edits-only point; Esc ends the wait and the command never runs", async () => {
		const { session, release } = await openWithHeldGit();
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("hello");
		const stopped = session.runShell("echo stopped > stopped.txt");
		await new Promise((resolve) => setImmediate(resolve));
		session.abortShells();
		expect((await stopped).aborted).toBe(true);
		const waiting = session.runShell("echo shell > s.txt");
		let ran = false;
		void waiting.then(() => {
			ran = true;
		});
		await new Promise((resolve) => setImmediate(resolve));
		// git is still held: the snapshot cannot have ended, so the command has not run.
		expect(ran).toBe(false);
		expect(existsSync(file("s.txt"))).toBe(false);
		writeFileSync(release, "");
		expect((await waiting).exitCode).toBe(0);
		expect(text("s.txt")).toBe("shell\n");
		expect(existsSync(file("stopped.txt"))).toBe(false);
	});

	it("quitting with a SessionEnd hook while the snapshot still runs (git hangs): the hook runs after a bounded wait and dispose ends", async () => {
		const { session, release } = await openWithHeldGit({
			hooks: (root) => ({ SessionEnd: [{ hooks: [commandHook(`touch '${join(root, "ended")}'`)] }] }),
		});
		fx.faux.setResponses([fauxAssistantMessage([fauxText("ok")])]);
		await session.prompt("hello");
		await session.dispose();
		expect(existsSync(join(fx.root, "ended"))).toBe(true);
		// git is still held: the wait was cut short, not ended by the snapshot.
		expect(existsSync(release)).toBe(false);
	});

	it("a snapshot that fails leaves the point edits-only, says so, and bash runs anyway", async () => {
		const { session, release } = await openWithHeldGit({ failAfterRelease: true });
		scriptTheRunInSteps();
		const done = session.prompt("change the files");
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		expect(existsSync(file("f"))).toBe(false);
		writeFileSync(release, "");
		await done;
		expect(existsSync(file("f"))).toBe(true);
		expect(fx.notices().some((n) => /rewind point of this prompt covers edits only: its snapshot failed/.test(n))).toBe(true);
		const [point] = await session.rewind.points();
		expect(point.editsOnly).toBe(true);
	});
});

describe("rewind: edits through a link while the snapshot runs", () => {
	it("a session whose folder is given through a link: an edit while git reads the tree is still undone by the point made whole", async () => {
		const { session, release } = await openWithHeldGit({ viaLink: true });
		scriptTheRunInSteps();
		const done = session.prompt("change the files");
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		expect(text("a.ts")).toBe("const a = 2;\nconst extra = 3;\n");
		writeFileSync(release, "");
		await done;
		const [point] = await session.rewind.points();
		expect(point.editsOnly).toBeUndefined();
		await session.rewindTo(point.entryId, "code");
		expect(text("a.ts")).toBe("const a = 1;\n");
		expect(existsSync(file("b.ts"))).toBe(false);
		expect(existsSync(file("f"))).toBe(false);
	});

	it("write and edit through a link in the workspace while git reads the tree: the point made whole restores the file they changed", async () => {
		const { session, release } = await openWithHeldGit();
		writeFileSync(file("target.ts"), "target before\n");
		writeFileSync(file("other.ts"), "other before\n");
		symlinkSync("target.ts", file("link.ts"));
		symlinkSync("other.ts", file("other-link.ts"));
		fx.faux.setResponses([
			fauxAssistantMessage([
				fauxToolCall("read", { path: "link.ts" }, { id: "r1" }),
				fauxToolCall("read", { path: "other-link.ts" }, { id: "r2" }),
			]),
			fauxAssistantMessage([
				fauxToolCall("write", { path: "link.ts", content: "target written through the link\n" }, { id: "w1" }),
				fauxToolCall("edit", { path: "other-link.ts", edits: [{ oldText: "other before", newText: "other edited" }] }, { id: "e1" }),
			]),
			fauxAssistantMessage([fauxToolCall("bash", { command: "true" }, { id: "b1" })]),
			fauxAssistantMessage([fauxText("done")]),
		]);
		const done = session.prompt("change the linked files");
		// bash waits for the snapshot: the write and the edit ran while git's listing was held.
		await fx.waitForEvent("tool_execution_start", (e) => e.toolName === "bash");
		expect(text("target.ts")).toBe("target written through the link\n");
		expect(text("other.ts")).toBe("other edited\n");
		writeFileSync(release, "");
		await done;
		const [point] = await session.rewind.points();
		expect(point.editsOnly).toBeUndefined();
		await session.rewindTo(point.entryId, "code");
		expect(text("target.ts")).toBe("target before\n");
		expect(text("other.ts")).toBe("other before\n");
		expect(lstatSync(file("link.ts")).isSymbolicLink()).toBe(true);
	});
});

/**
 * A session whose git holds every file listing until the test writes `release` (or its folder is
 * gone): snapshots that do not end by themselves. With `failAfterRelease`, each listing then fails.
 */
async function openWithHeldGit(options: { failAfterRelease?: boolean; viaLink?: boolean; hooks?: (root: string) => unknown } = {}) {
	fx = await createFixture({ settings: { checkpoints: true }, session: { tools, permissionMode: "yolo" } });
	await fx.session.dispose();
	seedProject();
	if (options.hooks) putFile(join(fx.env.RUDDER_HOME, "settings.json"), JSON.stringify({ hooks: options.hooks(fx.root) }));
	const release = join(fx.root, "release");
	const slowGit = join(fx.root, "slow-git");
	const after = options.failAfterRelease ? "exit 1" : "true";
	writeFileSync(
		slowGit,
		`#!/bin/sh\nfor a in "$@"; do if [ "$a" = ls-files ]; then while [ ! -e '${release}' ] && [ -d '${fx.root}' ]; do sleep 0.05; done; ${after}; fi; done\nexec git "$@"\n`,
	);
	chmodSync(slowGit, 0o755);
	// With `viaLink`, the session's folder is given by a link to it (an editor's path through a link).
	const cwd = join(fx.root, "project-link");
	if (options.viaLink) symlinkSync(fx.cwd, cwd);
	const session = await fx.open({
		env: { ...fx.env, RUDDER_GIT: slowGit, RUDDER_CHECKPOINT_WAIT_MS: "50" },
		...(options.viaLink ? { cwd } : {}),
	});
	await session.warmUp();
	return { session, release };
}

/** The run of `scriptTheRun` with bash in a reply of its own, after the edits: they run while it waits. */
function scriptTheRunInSteps() {
	fx.faux.setResponses([
		fauxAssistantMessage([fauxToolCall("read", { path: "a.ts" }, { id: "r1" })]),
		fauxAssistantMessage([
			fauxToolCall("edit", { path: "a.ts", edits: [{ oldText: "const a = 1;", newText: "const a = 2;\nconst extra = 3;" }] }, { id: "e1" }),
			fauxToolCall("write", { path: "b.ts", content: "export const b = true;\n" }, { id: "w1" }),
		]),
		fauxAssistantMessage([fauxToolCall("bash", { command: "echo x > f && rm g.txt && chmod +x h.sh" }, { id: "b1" })]),
		fauxAssistantMessage([fauxText("All done.")]),
	]);
}
