// The built CLI leaves no process behind and no output log on disk: a bash call the model asks for
// (`sleep 300 & sleep 300`, over a 127.0.0.1 OpenAI-compatible server) runs in its own process group,
// and SIGTERM, SIGHUP or SIGINT to rudder must end that whole group, checked with `ps` by group id.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { textBody, toolCallBody } from "../helpers/openai-chunks.js";
import { cliPerTest } from "../helpers/rudder-cli.js";

const LONG = 60_000;
const cli = cliPerTest();

/**
 * `ps -o pid,pgid,stat,args` rows of every process of group `pgid` that still runs. Zombies are left
 * out: they are dead, waiting for PID 1 (which reaps slowly in some containers) to collect them.
 */
function groupRows(pgid: number): string[] {
	const out = execFileSync("ps", ["-eo", "pid=,pgid=,stat=,args="], { encoding: "utf8" });
	return out
		.split("\n")
		.map((line) => line.trim())
		.filter((line) => {
			const [, group, stat] = line.split(/\s+/);
			return group === String(pgid) && !stat?.startsWith("Z");
		});
}

/**
 * The group's rows and those of every process below one of them: the sandbox starts the command in a
 * session of its own (`bwrap --new-session`), so the sleeps are below bwrap, not in its group.
 */
function groupTreeRows(pgid: number): string[] {
	const out = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,stat=,args="], { encoding: "utf8" });
	const rows = out
		.split("\n")
		.map((line) => line.trim().split(/\s+/))
		.filter((parts) => parts.length >= 5 && !parts[3].startsWith("Z"));
	const inTree = new Set(rows.filter((parts) => parts[2] === String(pgid)).map((parts) => parts[0]));
	for (let grew = true; grew; ) {
		grew = false;
		for (const parts of rows) {
			if (!inTree.has(parts[0]) && inTree.has(parts[1])) {
				inTree.add(parts[0]);
				grew = true;
			}
		}
	}
	return rows.filter((parts) => inTree.has(parts[0])).map((parts) => parts.join(" "));
}

/** How many processes of group `pgid` and below it run, once there are `count` or after 20 s. */
async function rowsReach(pgid: number, count: number): Promise<number> {
	const deadline = Date.now() + 20_000;
	let rows = groupTreeRows(pgid).length;
	while (rows < count && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 50));
		rows = groupTreeRows(pgid).length;
	}
	return rows;
}

/** The pid of rudder's child shell running `command`: it leads the command's process group. */
async function shellGroupOf(parent: number, command: string): Promise<number> {
	const deadline = Date.now() + 20_000;
	while (Date.now() < deadline) {
		const out = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" });
		for (const line of out.split("\n")) {
			const [pid, ppid, ...args] = line.trim().split(/\s+/);
			if (Number(ppid) === parent && args.join(" ").endsWith(command)) return Number(pid);
		}
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`no child of ${parent} runs ${command}`);
}

/**
 * `--allow bash`: the command runs without an approval, in the bwrap sandbox where there is one (the
 * group is then led by bwrap; the cleanup must reach through it).
 */
async function startWithToolCall(command: string, permissions: string[] = ["--allow", "bash"], extra: Record<string, unknown> = {}) {
	const { server } = await cli.setUp();
	server.enqueue({ kind: "sse", chunks: [toolCallBody("bash", { command, ...extra })] }, { kind: "sse", chunks: [textBody("done")] });
	const client = cli.rpc(permissions);
	client.send({ id: "p1", type: "prompt", message: "run it" });
	return client;
}

describe("rudder ends every tool process group", () => {
	it.each(["SIGTERM", "SIGHUP", "SIGINT"] as const)("on %s", { timeout: LONG }, async (signal) => {
		const cli = await startWithToolCall("sleep 300 & sleep 300");
		const pgid = await shellGroupOf(cli.pid, "sleep 300 & sleep 300");
		// The shell and both sleeps (the one in the background too) are in the group, once the shell
		// has forked them (it is found as soon as it exists).
		expect(await rowsReach(pgid, 3)).toBeGreaterThanOrEqual(3);
		const result = await cli.signal(signal);
		expect(result.code).toBe({ SIGTERM: 143, SIGHUP: 129, SIGINT: 130 }[signal]);
		expect(groupTreeRows(pgid)).toEqual([]);
	});

	it("on a normal exit, also a background process the command left running", { timeout: LONG }, async () => {
		// The shell prints its pid, which is the group id, and leaves a sleep running in the group.
		// Unsandboxed: inside the sandbox's own pid namespace `$$` is not the host's group id.
		const cli = await startWithToolCall("echo $$; sleep 300 > /dev/null 2>&1 &", ["--permission-mode", "yolo"]);
		const end = await cli.waitFor((l) => l.type === "tool_execution_end");
		const pgid = Number(end.result.content[0].text.trim());
		await cli.waitFor((l) => l.type === "agent_end");
		expect(groupRows(pgid).some((row) => row.endsWith("sleep 300"))).toBe(true);
		const result = await cli.end();
		expect(result.code).toBe(0);
		expect(groupRows(pgid)).toEqual([]);
	});

	it.each(["SIGTERM", "exit"] as const)("ends a background job (run_in_background) on %s", { timeout: LONG }, async (how) => {
		// Unsandboxed, so that `$$` is the host's group id (see above).
		const cli = await startWithToolCall("echo group $$; sleep 300", ["--permission-mode", "yolo"], { run_in_background: true });
		const end = await cli.waitFor((l) => l.type === "tool_execution_end");
		const text: string = end.result.content[0].text;
		expect(text).toMatch(/^Started background job bg1\./);
		const pgid = Number(/group (\d+)/.exec(text)?.[1]);
		await cli.waitFor((l) => l.type === "agent_end");
		// The run is over; the job is not.
		expect(groupRows(pgid).some((row) => row.endsWith("sleep 300"))).toBe(true);
		const result = how === "exit" ? await cli.end() : await cli.signal("SIGTERM");
		expect(result.code).toBe(how === "exit" ? 0 : 143);
		expect(groupRows(pgid)).toEqual([]);
	});

	it.each(["SIGTERM", "SIGHUP", "exit"] as const)(
		"ends a sandboxed background server and the sandbox's network holder on %s",
		{ timeout: LONG },
		async (how) => {
			const cli = await startWithToolCall("exec python3 -m http.server 0 --bind 127.0.0.1", ["--allow", "bash"], {
				run_in_background: true,
			});
			await cli.waitFor((l) => l.type === "job_started");
			await cli.waitFor((l) => l.type === "agent_end");
			// rudder's children: the job's group (led by the sandbox's launch) and the network holder's.
			const children = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,args="], { encoding: "utf8" })
				.split("\n")
				.map((line) => line.trim().split(/\s+/))
				.filter((parts) => Number(parts[1]) === cli.pid);
			const holder = children.find((parts) => parts.slice(3).join(" ") === "sleep infinity");
			const job = children.find((parts) => parts.slice(3).join(" ").includes("http.server"));
			expect(holder).toBeDefined();
			expect(job).toBeDefined();
			const groups = [Number(holder?.[2]), Number(job?.[2])];
			expect(groupTreeRows(groups[1]).some((row) => row.endsWith("http.server 0 --bind 127.0.0.1"))).toBe(true);
			const result = how === "exit" ? await cli.end() : await cli.signal(how);
			expect(result.code).toBe({ SIGTERM: 143, SIGHUP: 129, exit: 0 }[how]);
			for (const pgid of groups) expect(groupTreeRows(pgid)).toEqual([]);
		},
	);

	it.each(["SIGTERM", "SIGHUP"] as const)(
		"removes its temp folders (the sandbox's, the logs') on %s",
		{ timeout: LONG },
		async (signal) => {
			const { server, home } = await cli.setUp();
			const temp = join(dirname(home.cwd), "tmp");
			mkdirSync(temp);
			home.env.TMPDIR = temp;
			// A long output, so the private log folder exists too; then a command still running at the signal.
			server.enqueue(
				{ kind: "sse", chunks: [toolCallBody("bash", { command: "seq 1 200000" })] },
				{ kind: "sse", chunks: [toolCallBody("bash", { command: "sleep 300" })] },
				{ kind: "sse", chunks: [textBody("done")] },
			);
			const client = cli.rpc(["--allow", "bash"]);
			client.send({ id: "p1", type: "prompt", message: "run it" });
			await client.waitFor((l) => l.type === "tool_execution_end");
			await client.waitFor((l) => l.type === "tool_execution_start");
			const during = readdirSync(temp).sort();
			expect(during.some((name) => name.startsWith("rudder-sandbox-"))).toBe(true);
			expect(during.some((name) => /^rudder-\d+-/.test(name))).toBe(true);
			await client.signal(signal);
			expect(readdirSync(temp)).toEqual([]);
		},
	);

	it("keeps a long output's full log 0600 in a private 0700 folder, and removes it at exit", { timeout: LONG }, async () => {
		const cli = await startWithToolCall("seq 1 200000");
		const end = await cli.waitFor((l) => l.type === "tool_execution_end");
		const path: string = end.result.details.fullOutputPath;
		expect(path).toBeTruthy();
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
		expect(statSync(path).size).toBeGreaterThan(1_000_000);
		await cli.waitFor((l) => l.type === "agent_end");
		await cli.end();
		expect(existsSync(path)).toBe(false);
		expect(existsSync(dirname(path))).toBe(false);
	});
});
