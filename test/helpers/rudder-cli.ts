// Runs the BUILT CLI (`node bin/rudder.js`, after `npm run build`) as a child process in an isolated
// home: temp RUDDER_HOME / XDG / HOME folders, no API keys, local discovery off. Each helper waits on
// events (exit, output lines) with generous timeouts, never on fixed sleeps.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach } from "vitest";
import { type ScriptedServer, startScriptedServer } from "./sse-server.js";

export const BIN = resolve(import.meta.dirname, "../../bin/rudder.js");

/**
 * Removes `root`, again and again for up to 10 s while it keeps failing: a just-killed app may still
 * be writing under its home (its code cache: six files, ~100 ms under load), and a file made after
 * rmSync read a folder fails that folder's removal with ENOTEMPTY, which rmSync's own retries did not
 * get past.
 */
function removeWhileWritten(root: string): void {
	const deadline = Date.now() + 10_000;
	for (;;) {
		try {
			rmSync(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
			return;
		} catch (error) {
			if (Date.now() > deadline || !["ENOTEMPTY", "EBUSY", "EPERM"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
			Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
		}
	}
}

export interface CliHome {
	/** Project folder the CLI runs in. */
	cwd: string;
	rudderHome: string;
	env: Record<string, string>;
	cleanup(): void;
}

/** A fresh home; with `mockUrl`, models.json declares provider "mock" (models `modelIds`, default "mock-1") at that server. */
export function makeHome(options: { mockUrl?: string; modelIds?: string[] } = {}): CliHome {
	const root = mkdtempSync(join(tmpdir(), "rudder-cli-"));
	const dirs = { cwd: join(root, "project"), home: join(root, "home"), rudderHome: join(root, "rudder"), xdg: join(root, "xdg") };
	for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
	if (options.mockUrl) {
		const models = {
			providers: {
				mock: {
					baseUrl: `${options.mockUrl}/v1`,
					api: "openai-completions",
					models: (options.modelIds ?? ["mock-1"]).map((id) => ({ id })),
				},
			},
		};
		writeFileSync(join(dirs.rudderHome, "models.json"), JSON.stringify(models));
	}
	return {
		cwd: dirs.cwd,
		rudderHome: dirs.rudderHome,
		// Built from scratch so that no key or config of the machine running the tests leaks in.
		env: {
			PATH: process.env.PATH ?? "/usr/bin:/bin",
			HOME: dirs.home,
			RUDDER_HOME: dirs.rudderHome,
			XDG_CONFIG_HOME: join(dirs.xdg, "config"),
			XDG_DATA_HOME: join(dirs.xdg, "data"),
			RUDDER_DISCOVERY_PORTS: "",
			// Prompts wait for each git snapshot however slow the machine is (tests assert what git covers).
			RUDDER_CHECKPOINT_WAIT_MS: "60000",
			NO_COLOR: "1",
		},
		// Retried (linear back-off, ~5 s in all): a CLI that was just killed may still be finishing a write
		// under the folder (a checkpoint, the code cache's reply stage), slowly on a loaded machine.
		cleanup: () => removeWhileWritten(root),
	};
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** `bin`: an installed `rudder` executable (run as is, through its shebang) instead of this checkout's. */
function spawnCli(args: string[], home: CliHome, stdin: "pipe" | "ignore", bin?: string): ChildProcess {
	const [file, fileArgs] = bin ? [bin, args] : [process.execPath, [BIN, ...args]];
	return spawn(file, fileArgs, { cwd: home.cwd, env: home.env, stdio: [stdin, "pipe", "pipe"] });
}

/**
 * Runs to exit. `input` is piped to stdin; without it stdin is /dev/null (not a TTY, empty).
 * `onStart` gets the child, e.g. to signal it.
 */
export function runCli(
	args: string[],
	home: CliHome,
	options: { input?: string; timeoutMs?: number; onStart?: (child: ChildProcess) => void; bin?: string } = {},
): Promise<CliResult> {
	const child = spawnCli(args, home, options.input === undefined ? "ignore" : "pipe", options.bin);
	options.onStart?.(child);
	if (options.input !== undefined) child.stdin?.end(options.input);
	let stdout = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (s: string) => (stdout += s));
	child.stderr?.setEncoding("utf8").on("data", (s: string) => (stderr += s));
	return new Promise((resolvePromise, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`rudder ${args.join(" ")} did not exit in time; stderr: ${stderr}`));
		}, options.timeoutMs ?? 45_000);
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolvePromise({ code, stdout, stderr });
		});
	});
}

/** A CLI kept running with piped stdin, reading JSON lines from stdout (rpc mode). */
export interface LineClient {
	/** Every parsed stdout line so far. */
	lines: any[];
	send(line: object | string): void;
	/** Writes `text` as is, without a newline. */
	sendRaw(text: string): void;
	/** Resolves with the first line (from `from` on) matching `predicate`. */
	waitFor(predicate: (line: any) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<any>;
	/** Closes stdin and waits for the exit. */
	end(timeoutMs?: number): Promise<CliResult>;
	stderr(): string;
	kill(): void;
	/** The CLI's process id. */
	pid: number;
	/** Sends `signal` to the CLI and waits for its exit. */
	signal(signal: NodeJS.Signals, timeoutMs?: number): Promise<CliResult>;
}

export function startCli(args: string[], home: CliHome): LineClient {
	const child = spawnCli(args, home, "pipe");
	const lines: any[] = [];
	const waiters = new Set<() => void>();
	let stdout = "";
	let pending = "";
	let stderr = "";
	let exited: CliResult | undefined;
	const exit = new Promise<CliResult>((resolvePromise) =>
		child.on("close", (code) => {
			exited = { code, stdout, stderr };
			for (const wake of waiters) wake();
			resolvePromise(exited);
		}),
	);
	child.stderr?.setEncoding("utf8").on("data", (s: string) => (stderr += s));
	child.stdout?.setEncoding("utf8").on("data", (s: string) => {
		stdout += s;
		pending += s;
		let newline = pending.indexOf("\n");
		while (newline >= 0) {
			const line = pending.slice(0, newline);
			pending = pending.slice(newline + 1);
			if (line.trim()) lines.push(JSON.parse(line));
			newline = pending.indexOf("\n");
		}
		for (const wake of waiters) wake();
	});
	return {
		lines,
		send: (line) => child.stdin?.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`),
		sendRaw: (text) => child.stdin?.write(text),
		waitFor: (predicate, options = {}) =>
			new Promise((resolvePromise, reject) => {
				const check = () => {
					const found = lines.slice(options.from ?? 0).find(predicate);
					if (found !== undefined) return done(() => resolvePromise(found));
					if (exited) return done(() => reject(new Error(`rudder exited (${exited?.code}) first; stderr: ${stderr}`)));
				};
				const timer = setTimeout(
					() => done(() => reject(new Error(`no matching line in time; stderr: ${stderr}; lines: ${lines.map((l) => l.type).join(",")}`))),
					options.timeoutMs ?? 30_000,
				);
				const done = (settle: () => void) => {
					clearTimeout(timer);
					waiters.delete(check);
					settle();
				};
				waiters.add(check);
				check();
			}),
		end: async (timeoutMs = 30_000) => {
			child.stdin?.end();
			const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
			const result = await exit;
			clearTimeout(timer);
			return result;
		},
		stderr: () => stderr,
		kill: () => {
			if (!exited) child.kill("SIGKILL");
		},
		pid: child.pid ?? -1,
		signal: async (signal, timeoutMs = 30_000) => {
			child.kill(signal);
			const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
			const result = await exit;
			clearTimeout(timer);
			return result;
		},
	};
}

/** What a CLI test file sets up per test: a scripted server, a home wired to it, and CLIs started in it. */
export interface CliBed {
	/** A server on 127.0.0.1 and a home whose models.json points provider "mock" at it. */
	setUp(options?: { modelIds?: string[] }): Promise<{ server: ScriptedServer; home: CliHome }>;
	/** A home with no server and no models.json. */
	bareHome(): CliHome;
	/** A server and a home without models.json (the test writes its own). */
	serverAndBareHome(): Promise<{ server: ScriptedServer; home: CliHome }>;
	/** `rudder --mode rpc --model mock/mock-1 --no-session …args` in `home` (the last set up by default). */
	rpc(args?: string[], options?: { home?: CliHome; session?: boolean }): LineClient;
	/** Any CLI kept running, stopped after the test. */
	start(args: string[], home?: CliHome): LineClient;
}

/**
 * One server, home and set of CLIs per test of the calling file: `afterEach` kills the CLIs still
 * running, closes the server and removes the homes, so no test sees another's replies or files.
 */
export function cliPerTest(): CliBed {
	const servers: ScriptedServer[] = [];
	const homes: CliHome[] = [];
	const clients: LineClient[] = [];
	afterEach(async () => {
		for (const client of clients.splice(0)) client.kill();
		for (const server of servers.splice(0)) await server.close();
		for (const home of homes.splice(0)) home.cleanup();
	});
	const track = (home: CliHome) => {
		homes.push(home);
		return home;
	};
	const current = (): CliHome => {
		const home = homes.at(-1);
		if (!home) throw new Error("set up a home first");
		return home;
	};
	const newServer = async () => {
		const server = await startScriptedServer();
		servers.push(server);
		return server;
	};
	const start = (args: string[], home = current()) => {
		const client = startCli(args, home);
		clients.push(client);
		return client;
	};
	return {
		async setUp(options = {}) {
			const server = await newServer();
			return { server, home: track(makeHome({ mockUrl: server.url, modelIds: options.modelIds })) };
		},
		bareHome: () => track(makeHome()),
		async serverAndBareHome() {
			return { server: await newServer(), home: track(makeHome()) };
		},
		rpc: (args = [], options = {}) =>
			start(["--mode", "rpc", "--model", "mock/mock-1", ...(options.session ? [] : ["--no-session"]), ...args], options.home),
		start,
	};
}
