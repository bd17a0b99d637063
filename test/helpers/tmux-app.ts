// The built app (`npm run build` first) in a real terminal, one per test: a pane on a private tmux
// server (its own socket), a scripted OpenAI chat-completions server on 127.0.0.1 and a temp home
// (makeHome: HOME, RUDDER_HOME, XDG_*, no keys, RUDDER_DISCOVERY_PORTS=). One afterEach stops all three.
// CI must be unset in the pane (Ink draws no live frames under CI), so the pane gets only the home's env.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { BIN, type CliHome, makeHome } from "./rudder-cli.js";
import { type ScriptedServer, startScriptedServer } from "./sse-server.js";
import { tmuxPane } from "./tmux-pane.js";

export interface TmuxStart {
	/** Runs in the pane's shell before the app (e.g. `seq 1 100`, to have scrollback from before it). */
	before?: string;
	columns?: number;
	rows?: number;
	/** tmux's extended-keys on before the app starts (it asks for them at start). */
	extendedKeys?: boolean;
	/** What the screen shows once the app is up; the footer's model by default. */
	ready?: (screen: string) => boolean;
}

const SESSION = "app";

/** `name` makes the socket (`<name>-<pid>`); each test file uses its own. */
export function tmuxAppPerTest(name: string) {
	const pane = tmuxPane(`${name}-${process.pid}`, SESSION);
	let server: ScriptedServer | undefined;
	let home: CliHome | undefined;
	let socketPath: string | undefined;

	afterEach(async () => {
		try {
			pane.tmux("kill-server");
		} catch {
			// the app exited and the server with it
		}
		// tmux leaves its socket file behind.
		if (socketPath) rmSync(socketPath, { force: true });
		await server?.close();
		home?.cleanup();
		server = undefined;
		home = undefined;
		socketPath = undefined;
	});

	/** The test's server and home, made on first use (a test may fill the home before starting the app). */
	async function setUp(): Promise<{ server: ScriptedServer; home: CliHome }> {
		server ??= await startScriptedServer();
		home ??= makeHome({ mockUrl: server.url });
		return { server, home };
	}

	/** The pane's terminal is in raw mode: the app reads keys itself (before that, Ctrl+C would be SIGINT). */
	function rawMode(): boolean {
		const tty = pane.tmux("display-message", "-p", "-t", SESSION, "#{pane_tty}").trim();
		return /(^|\s)-icanon(\s|$)/.test(execFileSync("stty", ["-F", tty, "-a"], { encoding: "utf8" }));
	}

	/**
	 * Starts `rudder <args>` in a new pane and waits until it is up (see `TmuxStart.ready`) and reading
	 * keys. Returns the file the shell writes the app's exit code to.
	 */
	async function start(args: string[], options: TmuxStart = {}): Promise<string> {
		expect(() => execFileSync("tmux", ["-V"]), "tmux is needed: apt-get install -y tmux").not.toThrow();
		const { home: h } = await setUp();
		const exitFile = join(h.rudderHome, "exit-code");
		rmSync(exitFile, { force: true });
		const env = Object.entries({ ...h.env, TERM: "screen-256color", NODE: process.execPath, EXIT_FILE: exitFile }).map(
			([k, v]) => `${k}=${v}`,
		);
		const script = `${options.before ? `${options.before}; ` : ""}"$NODE" "$@"; echo $? > "$EXIT_FILE"`;
		// history-limit applies to panes made after it is set: set it first, in the same command list.
		pane.tmux(
			"-f",
			"/dev/null",
			"set-option",
			"-g",
			"history-limit",
			"10000",
			";",
			...(options.extendedKeys ? ["set-option", "-s", "extended-keys", "on", ";"] : []),
			"new-session",
			"-d",
			"-s",
			SESSION,
			"-x",
			String(options.columns ?? 100),
			"-y",
			String(options.rows ?? 30),
			"-c",
			h.cwd,
			"env",
			"-i",
			...env,
			"sh",
			"-c",
			script,
			"sh",
			BIN,
			...args,
		);
		socketPath = pane.tmux("display-message", "-p", "-t", SESSION, "#{socket_path}").trim();
		await pane.waitForScreen((s) => (options.ready ?? ((t) => t.includes("mock/mock-1")))(s) && rawMode(), "the app, reading keys");
		return exitFile;
	}

	/** Waits for the app to exit; returns its exit code as the pane's shell saw it. */
	async function exitCode(exitFile: string, timeoutMs = 20_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		while (!existsSync(exitFile)) {
			if (Date.now() > deadline) throw new Error(`the app did not exit; screen:\n${pane.capture()}`);
			await new Promise((r) => setTimeout(r, 100));
		}
		return readFileSync(exitFile, "utf8").trim();
	}

	return {
		...pane,
		setUp,
		start,
		exitCode,
		/** The server and home of the running test (after `setUp` or `start`). */
		get server(): ScriptedServer {
			if (!server) throw new Error("call setUp or start first");
			return server;
		},
		get home(): CliHome {
			if (!home) throw new Error("call setUp or start first");
			return home;
		},
	};
}
