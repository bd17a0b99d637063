// Background jobs with real processes: a node HTTP server started through bash's run_in_background,
// queried by a later bash command, read with bash_output, stopped with kill_shell (the whole process
// group, checked with `ps`), its output capped in a 0600 file.
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentTool } from "../../src/agent/types.js";
import { BackgroundJobs } from "../../src/tools/background-jobs.js";
import { createAllTools } from "../../src/tools/index.js";
import { ProcessSlots } from "../../src/tools/process-slots.js";
import { useTempFolder } from "./temp-folder.js";

const started: BackgroundJobs[] = [];
afterEach(async () => {
	for (const jobs of started.splice(0)) {
		for (const job of jobs.list()) await jobs.kill(job.id);
		jobs.dispose();
	}
});

function groupAlive(pgid: number): boolean {
	const out = execFileSync("ps", ["-eo", "pgid=,stat="], { encoding: "utf8" });
	return out.split("\n").some((line) => {
		const [group, stat] = line.trim().split(/\s+/);
		return group === String(pgid) && !stat?.startsWith("Z");
	});
}

const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? "").join("");
async function run(tool: AgentTool, args: Record<string, unknown>) {
	return (await tool.execute("c", args as never)) as { content: { type: "text"; text: string }[]; details: Record<string, never> };
}

const SERVER = `node -e '
const s = require("http").createServer((q, r) => { console.log("hit " + q.url); r.end("pong " + q.url); });
s.listen(0, "127.0.0.1", () => console.log("port " + s.address().port));
'`;

describe("background jobs", { timeout: 30_000 }, () => {
	const folder = useTempFolder();
	it("starts a server, which a later command reaches; bash_output gives what is new; kill_shell stops its group", async () => {
		const jobs = new BackgroundJobs(folder.path);
		started.push(jobs);
		const tools = createAllTools(folder.path, { jobs });
		const start = await run(tools.bash, { command: SERVER, run_in_background: true });
		expect(text(start)).toMatch(/^Started background job bg1\./);
		const job = jobs.get("bg1");
		expect(job?.status).toBe("running");
		// The first output may take longer than the start's wait on a loaded machine: read until the port shows.
		let seen = text(start);
		for (let i = 0; i < 100 && !/port \d+/.test(seen); i++) {
			await new Promise((r) => setTimeout(r, 100));
			seen += text(await run(tools.bash_output, { id: "bg1" }));
		}
		const port = /port (\d+)/.exec(seen)?.[1];
		expect(port).toBeDefined();
		const query = await run(tools.bash, {
			command: `node -e 'fetch("http://127.0.0.1:${port}/ping").then(r => r.text()).then(console.log)'`,
		});
		expect(text(query)).toBe("pong /ping");
		let fresh = "";
		for (let i = 0; i < 50 && !fresh.includes("hit /ping"); i++) {
			fresh += text(await run(tools.bash_output, { id: "bg1" }));
			if (!fresh.includes("hit /ping")) await new Promise((r) => setTimeout(r, 100));
		}
		expect(fresh).toContain("hit /ping");
		expect(fresh).not.toContain("port ");
		expect(fresh).toContain("Status: is running");
		expect(text(await run(tools.bash_output, { id: "bg1" }))).toBe("(no new output)\nStatus: is running");

		const pgid = (jobs as unknown as { jobs: Map<string, { pid: number; file: string }> }).jobs.get("bg1");
		expect(pgid && groupAlive(pgid.pid)).toBe(true);
		expect(statSync(pgid?.file as string).mode & 0o777).toBe(0o600);
		const killed = await run(tools.kill_shell, { id: "bg1" });
		expect(text(killed)).toMatch(/^Background job bg1 .*: was killed$/s);
		expect(groupAlive(pgid?.pid as number)).toBe(false);
		expect(jobs.takeExitNotes()).toEqual([expect.stringMatching(/^Background job bg1 .* was killed; bash_output bg1 has its output\.$/s)]);
		await expect(run(tools.kill_shell, { id: "bg9" })).rejects.toThrow('No background job "bg9"');
	});

	it("Ctrl+B: a running foreground command becomes a job, its call answers with the id, its output continues in the job", async () => {
		const jobs = new BackgroundJobs(folder.path);
		started.push(jobs);
		const tools = createAllTools(folder.path, { jobs });
		expect(jobs.adoptForeground()).toEqual([]);
		const marker = `${folder.path}/go`;
		const call = run(tools.bash, {
			command: `echo first; while [ ! -e ${marker} ]; do sleep 0.05; done; echo second; sleep 60`,
		});
		// Wait until it runs and printed its first line, so the move carries output with it.
		for (let i = 0; i < 200 && !jobs.hasForeground; i++) await new Promise((r) => setTimeout(r, 20));
		await new Promise((r) => setTimeout(r, 300));
		const moved = jobs.adoptForeground();
		expect(moved).toMatchObject([{ id: "bg1", status: "running" }]);
		expect(jobs.hasForeground).toBe(false);
		const answer = await call;
		expect(text(answer)).toMatch(/^The user moved this command to the background \(Ctrl\+B\) as job bg1; it keeps running\./);
		expect(text(answer)).toContain("Output so far:\nfirst");
		expect(answer.details).toMatchObject({ job: { id: "bg1" } });
		execFileSync("touch", [marker]);
		let seen = "";
		for (let i = 0; i < 100 && !seen.includes("second"); i++) {
			seen += text(await run(tools.bash_output, { id: "bg1" }));
			if (!seen.includes("second")) await new Promise((r) => setTimeout(r, 50));
		}
		expect(seen).toContain("first");
		expect(seen).toContain("second");
		const pid = (jobs as unknown as { jobs: Map<string, { pid: number }> }).jobs.get("bg1")?.pid as number;
		expect(groupAlive(pid)).toBe(true);
		await run(tools.kill_shell, { id: "bg1" });
		expect(groupAlive(pid)).toBe(false);
	});

	it("running jobs count toward the tool process limit: refused when it is reached, a slot again once one ends", async () => {
		const slots = new ProcessSlots(2);
		const jobs = new BackgroundJobs(folder.path, { slots });
		started.push(jobs);
		const tools = createAllTools(folder.path, { jobs, bash: { slots } });
		await run(tools.bash, { command: "sleep 60", run_in_background: true });
		await run(tools.bash, { command: "sleep 60", run_in_background: true });
		expect(slots.running).toBe(2);
		await expect(run(tools.bash, { command: "sleep 60", run_in_background: true })).rejects.toThrow(
			"run_in_background: 2 commands and jobs are running, the limit (tools.maxProcesses 2); stop a background job with kill_shell first",
		);
		await run(tools.kill_shell, { id: "bg1" });
		expect(slots.running).toBe(1);
		// A foreground command moved to the background keeps its slot as the job's.
		const call = run(tools.bash, { command: "sleep 60" });
		for (let i = 0; i < 200 && !jobs.hasForeground; i++) await new Promise((r) => setTimeout(r, 20));
		expect(slots.running).toBe(2);
		expect(jobs.adoptForeground()).toMatchObject([{ id: "bg3" }]);
		await call;
		expect(slots.running).toBe(2);
		await run(tools.kill_shell, { id: "bg3" });
		await run(tools.kill_shell, { id: "bg2" });
		expect(slots.running).toBe(0);
	});

	it("tells of an exit once, caps the output kept, and returns at once for a quiet command", async () => {
		const jobs = new BackgroundJobs(folder.path, { maxOutputBytes: 1000 });
		started.push(jobs);
		const tools = createAllTools(folder.path, { jobs });
		const start = await run(tools.bash, { command: "sleep 2; seq 1 100000; exit 3", run_in_background: true });
		await jobs.settle("bg1", 10_000);
		expect(jobs.get("bg1")).toMatchObject({ status: "exited", exitCode: 3, outputBytes: 1000, capped: true });
		// Still running when the start answered: the model hears of the exit at its next turn, once.
		expect(text(start)).toContain("Started background job bg1.");
		expect(text(start)).toContain("Status: is running");
		expect(jobs.takeExitNotes()).toEqual([
			"Background job bg1 (sleep 2; seq 1 100000; exit 3) exited with code 3; bash_output bg1 has its output.",
		]);
		expect(jobs.takeExitNotes()).toEqual([]);
		const quiet = Date.now();
		await run(tools.bash, { command: "sleep 30", run_in_background: true });
		expect(Date.now() - quiet).toBeLessThan(10_000);
		expect(jobs.list().map((j) => j.status)).toEqual(["exited", "running"]);
	});
});
