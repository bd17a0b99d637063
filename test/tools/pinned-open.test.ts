// write and edit act on the real path the permission check approved, whatever is swapped in after the
// check: a folder on the way replaced by a symlink to outside, or the file replaced by one. First
// the swap made while the approval waits, then a real process swapping a folder back and forth while
// calls are checked and run, on real temp folders.
import { type ChildProcess, spawn } from "node:child_process";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	renameSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BeforeToolCallContext } from "../../src/agent/types.js";
import { type ApprovalResponse, PermissionGate } from "../../src/permissions/gate.js";
import type { PermissionMode } from "../../src/permissions/types.js";
import { createWorkspace } from "../../src/permissions/workspace.js";
import { createEditTool } from "../../src/tools/edit.js";
import { FileReadState } from "../../src/tools/file-read-state.js";
import { createReadTool } from "../../src/tools/read.js";
import { createWriteTool } from "../../src/tools/write.js";

let root: string;
let ws: string;
let outside: string;
let flipper: ChildProcess | undefined;

beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "rudder-toctou-")));
	ws = join(root, "ws");
	outside = join(root, "outside");
	mkdirSync(join(ws, "sub"), { recursive: true });
	mkdirSync(outside);
});
afterEach(async () => {
	if (flipper?.pid !== undefined && flipper.exitCode === null) {
		const exited = new Promise((resolve) => flipper?.once("exit", resolve));
		flipper.kill("SIGKILL");
		await exited;
	}
	flipper = undefined;
	rmSync(root, { recursive: true, force: true });
});

/** A gate on `ws`; `answer` (when given) is what the approval prompt answers, after `whileAsking` ran. */
function gateFor(mode: PermissionMode, whileAsking?: () => void) {
	return new PermissionGate(
		{ mode, allow: [], deny: [], workspace: createWorkspace(ws) },
		{
			ask: whileAsking
				? async (): Promise<ApprovalResponse> => {
						whileAsking();
						return { decision: "allow" };
					}
				: undefined,
			saveProjectRule: () => {},
			sandbox: () => "none",
			network: false,
			modeName: "test mode",
			sandboxEvidence: () => undefined,
		},
	);
}

function tools(gate: PermissionGate) {
	const readState = new FileReadState();
	const checkedPath = (id: string) => gate.takeCheckedPath(id);
	return {
		read: createReadTool(ws, { readState, checkedPath }),
		write: createWriteTool(ws, { readState, checkedPath }),
		edit: createEditTool(ws, { readState, checkedPath }),
	};
}

let callIds = 0;
/** The gate's check, then the call: what the agent loop does with one tool call. */
async function checkThenRun(
	gate: PermissionGate,
	tool: { name: string; execute: (id: string, args: never) => Promise<unknown> },
	args: Record<string, unknown>,
) {
	const id = `call-${++callIds}`;
	const ctx = { toolCall: { id, name: tool.name, arguments: args }, args } as unknown as BeforeToolCallContext;
	const verdict = await gate.beforeToolCall(ctx);
	if (verdict?.block) return { ran: false, text: verdict.reason ?? "" };
	try {
		await tool.execute(id, args as never);
		return { ran: true, text: "ok" };
	} catch (error) {
		return { ran: true, text: (error as Error).message };
	}
}

const swapToLink = (name: string, to: string) => {
	renameSync(join(ws, name), join(ws, `${name}.real`));
	symlinkSync(to, join(ws, name));
};

describe("write and edit after a swap while the approval waited", () => {
	it("write refuses when a folder on the way became a symlink to outside; nothing lands outside", async () => {
		const gate = gateFor("ask", () => swapToLink("sub", outside));
		const result = await checkThenRun(gate, tools(gate).write, { path: "sub/f.txt", content: "payload" });
		expect(result.text).toBe(
			"Cannot write sub/f.txt: the folder " +
				`${ws}/sub was replaced by a symbolic link after the path was checked, so it could lead outside what was allowed. Nothing was written; check the path and try again.`,
		);
		expect(readdirSync(outside)).toEqual([]);
		expect(existsSync(join(ws, "sub.real", "f.txt"))).toBe(false);
	});

	it("edit refuses when a folder on the way became a symlink to a folder holding a file of the same name", async () => {
		writeFileSync(join(ws, "sub", "notes.md"), "inside\n");
		writeFileSync(join(outside, "notes.md"), "inside\n");
		let swap = false;
		const gate = gateFor("ask", () => {
			if (swap) swapToLink("sub", outside);
		});
		const t = tools(gate);
		await checkThenRun(gate, t.read, { path: "sub/notes.md" });
		swap = true;
		const result = await checkThenRun(gate, t.edit, { path: "sub/notes.md", edits: [{ oldText: "inside", newText: "owned" }] });
		expect(result.text).toMatch(/^Cannot edit sub\/notes.md: the folder .*\/sub was replaced by a symbolic link/);
		expect(readFileSync(join(outside, "notes.md"), "utf8")).toBe("inside\n");
		expect(readFileSync(join(ws, "sub.real", "notes.md"), "utf8")).toBe("inside\n");
	});

	it("write refuses when the file itself became a symlink to a file outside", async () => {
		writeFileSync(join(ws, "f.txt"), "old\n");
		writeFileSync(join(outside, "target"), "precious\n");
		let swap = false;
		const gate = gateFor("ask", () => {
			if (!swap) return;
			rmSync(join(ws, "f.txt"));
			symlinkSync(join(outside, "target"), join(ws, "f.txt"));
		});
		const t = tools(gate);
		await checkThenRun(gate, t.read, { path: "f.txt" });
		swap = true;
		const result = await checkThenRun(gate, t.write, { path: "f.txt", content: "payload" });
		expect(result.text).toMatch(/^Cannot write f.txt: the file was replaced by a symbolic link/);
		expect(readFileSync(join(outside, "target"), "utf8")).toBe("precious\n");
	});

	it("read opens the file the check saw: a folder swapped for a link to outside since is refused", async () => {
		writeFileSync(join(ws, "sub", "notes.md"), "inside\n");
		writeFileSync(join(outside, "notes.md"), "OUTSIDE SECRET\n");
		const gate = gateFor("ask");
		const { read } = tools(gate);
		const args = { path: "sub/notes.md" };
		const ctx = { toolCall: { id: "read-1", name: "read", arguments: args }, args } as unknown as BeforeToolCallContext;
		expect(await gate.beforeToolCall(ctx)).toBeUndefined();
		swapToLink("sub", outside);
		await expect(read.execute("read-1", args)).rejects.toThrow(
			/^Cannot read sub\/notes.md: the folder .*\/sub was replaced by a symbolic link after the path was checked.*Nothing was read/,
		);
		// Checked again now, the same path is outside the workspace: ask mode asks (nobody can here).
		expect(await gate.beforeToolCall({ ...ctx, toolCall: { ...ctx.toolCall, id: "read-2" } })).toMatchObject({ block: true });
	});

	it("without a swap both run as before, creating missing folders", async () => {
		const gate = gateFor("ask", () => {});
		const t = tools(gate);
		expect(await checkThenRun(gate, t.write, { path: "sub/new/deep/f.txt", content: "one\n" })).toEqual({ ran: true, text: "ok" });
		expect(await checkThenRun(gate, t.edit, { path: "sub/new/deep/f.txt", edits: [{ oldText: "one", newText: "two" }] })).toEqual({
			ran: true,
			text: "ok",
		});
		expect(readFileSync(join(ws, "sub", "new", "deep", "f.txt"), "utf8")).toBe("two\n");
	});
});

describe("write while a real process swaps a folder for a symlink to outside, over and over", () => {
	it("never writes outside: each call runs inside or fails with the swap error", { timeout: 60_000 }, async () => {
		const script = `
			const fs = require("fs");
			process.chdir(${JSON.stringify(ws)});
			for (;;) {
				try { fs.renameSync("sub", "sub.real"); } catch {}
				try { fs.symlinkSync(${JSON.stringify(outside)}, "sub"); } catch {}
				// A folder the write made while "sub" was away is removed (retried next round if busy).
				try { fs.unlinkSync("sub"); } catch { try { fs.rmSync("sub", { recursive: true, force: true }); } catch {} }
				try { fs.renameSync("sub.real", "sub"); } catch {}
			}`;
		flipper = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
		const gate = gateFor("auto-edit");
		const t = tools(gate);
		const outcomes = { wrote: 0, swapRefused: 0, checkAsked: 0, other: new Set<string>() };
		for (let i = 0; i < 3000 && (outcomes.swapRefused < 10 || outcomes.wrote < 10); i++) {
			const id = `race-${i}`;
			const args = { path: `sub/f${i}.txt`, content: `payload ${i}` };
			const ctx = { toolCall: { id, name: "write", arguments: args }, args } as unknown as BeforeToolCallContext;
			const verdict = await gate.beforeToolCall(ctx);
			// Checked while `sub` was the link: outside the workspace, so auto-edit would ask (nobody can here).
			if (verdict?.block) {
				outcomes.checkAsked++;
				continue;
			}
			// The time an approval or another call of the reply would take.
			await new Promise((resolve) => setTimeout(resolve, 1));
			try {
				await t.write.execute(id, args);
				outcomes.wrote++;
			} catch (error) {
				const text = (error as Error).message;
				if (text.includes("was replaced by a symbolic link")) outcomes.swapRefused++;
				else outcomes.other.add(text.replace(/\d+/g, "N"));
			}
			expect(readdirSync(outside)).toEqual([]);
		}
		expect(readdirSync(outside)).toEqual([]);
		// The race really happened both ways: some writes ran inside, some met the swap and were refused.
		const seen = JSON.stringify({ ...outcomes, other: [...outcomes.other], left: readdirSync(ws) });
		expect(outcomes.wrote, seen).toBeGreaterThan(0);
		expect(outcomes.swapRefused, seen).toBeGreaterThan(0);
		for (const text of outcomes.other) expect(text).toMatch(/^(File not found|A parent of the path is not a directory)/);
	});
});
