import { readFile, rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { AgentToolResult } from "../../src/agent/types.js";
import { type BashToolDetails, createBashTool } from "../../src/tools/bash.js";
import { isRunning } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait-until.js";
import { textOf, useTempFolder } from "./temp-folder.js";

// Generous: the machine running the suite may be loaded; nothing here asserts on durations.
describe("bash", { timeout: 30_000 }, () => {
	const tmp = useTempFolder();
	const bash = (args: Record<string, unknown>, signal?: AbortSignal, onUpdate?: (r: AgentToolResult<BashToolDetails>) => void) =>
		createBashTool(tmp.path, { killGraceMs: 300 }).execute("t1", args, signal, onUpdate);

	it("runs in the cwd and returns stdout and stderr together", async () => {
		const result = await bash({ command: "pwd; echo oops >&2" });
		expect(textOf(result)).toBe(`${tmp.path}\noops`);
		expect(result.details.exitCode).toBe(0);
	});

	it("says when there was no output", async () => {
		expect(textOf(await bash({ command: "true" }))).toBe("(no output)");
	});

	it("throws with the output and the exit code on a non-zero exit", async () => {
		await expect(bash({ command: "echo partial; exit 3" })).rejects.toThrow(/^partial\n\nCommand exited with code 3$/);
	});

	it("ignores stdin", async () => {
		expect(textOf(await bash({ command: "cat; echo after" }))).toBe("after");
	});

	it("streams output through onUpdate before the command ends", async () => {
		const updates: string[] = [];
		let finished = false;
		const run = bash({ command: "echo first; while [ ! -e go ]; do sleep 0.05; done; echo second" }, undefined, (r) =>
			updates.push(textOf(r)),
		);
		void run.then(() => (finished = true));
		// The command waits for a file this test creates only after seeing the first line streamed.
		await waitUntil(() => updates.some((u) => u === "first"));
		expect(finished).toBe(false);
		await tmp.write({ go: "" });
		const result = await run;
		expect(textOf(result)).toBe("first\nsecond");
	});

	it("keeps the tail of long output and saves the full output to a temp file", async () => {
		const result = await bash({ command: "seq 1 5000" });
		const text = textOf(result);
		const path = result.details.fullOutputPath as string;
		expect(text).toMatch(/^3001\n3002\n/);
		expect(text).toContain("\n5000\n\n[Showing lines 3001-5000 of 5000. Full output: ");
		expect(text.endsWith(`Full output: ${path}]`)).toBe(true);
		const full = await readFile(path, "utf8");
		expect(full).toBe(`${Array.from({ length: 5000 }, (_, i) => i + 1).join("\n")}\n`);
		expect(result.details.truncation?.truncatedBy).toBe("lines");
		await rm(path);
	});

	it("cuts by bytes when lines are wide", async () => {
		// 200 lines of 1,000 bytes: the 50 KB cap keeps the last 51.
		const result = await bash({ command: "for i in $(seq 1 200); do printf '%0999d\\n' $i; done" });
		expect(textOf(result)).toContain("[Showing lines 150-200 of 200 (50.0KB limit). Full output: ");
		expect((await readFile(result.details.fullOutputPath as string)).length).toBe(200_000);
		await rm(result.details.fullOutputPath as string);
	});

	it("kills the command and reports a timeout", async () => {
		await expect(bash({ command: "echo started; sleep 30", timeout: 0.5 })).rejects.toThrow(
			/^started\n\nCommand timed out after 0\.5 seconds$/,
		);
	});

	it("rejects a non-positive timeout", async () => {
		await expect(bash({ command: "true", timeout: -1 })).rejects.toThrow("Invalid timeout -1: give a positive number of seconds");
	});

	it("on abort kills the whole process group, children included, and rejects", async () => {
		const controller = new AbortController();
		let childPid = 0;
		const run = bash({ command: "sleep 60 & echo $!; wait" }, controller.signal, (r) => {
			childPid ||= Number.parseInt(textOf(r), 10) || 0;
		});
		await waitUntil(() => childPid > 0);
		expect(isRunning(childPid)).toBe(true);
		controller.abort();
		await expect(run).rejects.toThrow(/Command aborted$/);
		await waitUntil(() => !isRunning(childPid));
	});

	it("on abort also stops a child that ignores SIGTERM (SIGKILL after the grace period)", async () => {
		const controller = new AbortController();
		let childPid = 0;
		const run = bash({ command: "bash -c 'trap \"\" TERM; echo $$; while :; do sleep 0.1; done' & wait" }, controller.signal, (r) => {
			childPid ||= Number.parseInt(textOf(r), 10) || 0;
		});
		await waitUntil(() => childPid > 0);
		controller.abort();
		await expect(run).rejects.toThrow("Command aborted");
		await waitUntil(() => !isRunning(childPid));
	});

	it("does not start when already aborted", async () => {
		await expect(bash({ command: "touch ran" }, AbortSignal.abort())).rejects.toThrow("Command aborted");
		await expect(readFile(`${tmp.path}/ran`)).rejects.toThrow();
	});

	it("returns when the shell exits even if a background child keeps the pipes open", async () => {
		const result = await bash({ command: "sleep 2 & echo $!" });
		const pid = Number.parseInt(textOf(result), 10);
		expect(pid).toBeGreaterThan(0);
		// Left running on purpose (like `server &`); clean it up here.
		process.kill(pid, "SIGKILL");
	});
});
