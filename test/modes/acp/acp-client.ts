// The SDK's client side driving the BUILT CLI (`node bin/rudder.js --mode acp`) over its stdio, as an
// editor would: it records every `session/update`, answers `session/request_permission` as the test
// says, and serves `fs/*` from an in-memory set of editor buffers when the test offers them.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import {
	type ClientContext,
	client,
	ndJsonStream,
	type RequestPermissionRequest,
	type RequestPermissionResponse,
	type SessionNotification,
} from "@agentclientprotocol/sdk";
import { BIN, type CliHome } from "../../helpers/rudder-cli.js";

export interface AcpTestClient {
	agent: ClientContext;
	/** Every `session/update`, in arrival order. */
	updates: SessionNotification[];
	permissionRequests: RequestPermissionRequest[];
	/** How the next permission request is answered (default: the first option, "allow once"). */
	answer: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
	/** Editor buffers (path → unsaved text); reads fall back to the disk. */
	buffers: Map<string, string>;
	writes: { path: string; content: string }[];
	/** Every `terminal/*` request, in arrival order (the test client runs each command for real). */
	terminalCalls: { method: string; params: Record<string, unknown> }[];
	/** Resolves with the first update from index `from` on matching `predicate`. */
	waitForUpdate(predicate: (n: SessionNotification) => boolean, from?: number): Promise<SessionNotification>;
	/** Writes a raw line to the agent's stdin. */
	sendRaw(line: string): void;
	child: ChildProcess;
	stderr(): string;
	/** Closes stdin and waits for the exit code. */
	end(): Promise<number | null>;
}

export function startAcp(home: CliHome, args: string[], options: { fs?: boolean; terminal?: boolean } = {}): AcpTestClient {
	const child = spawn(process.execPath, [BIN, ...args], { cwd: home.cwd, env: home.env, stdio: ["pipe", "pipe", "pipe"] });
	let stderr = "";
	child.stderr?.setEncoding("utf8").on("data", (s: string) => (stderr += s));
	const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
	const waiters = new Set<() => void>();
	const state: AcpTestClient = {
		agent: undefined as unknown as ClientContext,
		updates: [],
		permissionRequests: [],
		answer: (request) => ({ outcome: { outcome: "selected", optionId: request.options[0]?.optionId ?? "" } }),
		buffers: new Map(),
		writes: [],
		terminalCalls: [],
		waitForUpdate: (predicate, from = 0) =>
			new Promise((resolve, reject) => {
				const timer = setTimeout(() => {
					waiters.delete(check);
					reject(new Error(`no matching update; got ${state.updates.map((u) => u.update.sessionUpdate).join(",")}; stderr: ${stderr}`));
				}, 30_000);
				const check = () => {
					const found = state.updates.slice(from).find(predicate);
					if (!found) return;
					clearTimeout(timer);
					waiters.delete(check);
					resolve(found);
				};
				waiters.add(check);
				check();
			}),
		sendRaw: (line) => child.stdin?.write(`${line}\n`),
		child,
		stderr: () => stderr,
		end: async () => {
			child.stdin?.end();
			return exited;
		},
	};
	const app = client({ name: "rudder-test" })
		.onNotification("session/update", ({ params }) => {
			state.updates.push(params);
			for (const wake of [...waiters]) wake();
		})
		.onRequest("session/request_permission", ({ params }) => {
			state.permissionRequests.push(params);
			for (const wake of [...waiters]) wake();
			return state.answer(params);
		});
	if (options.fs) {
		app.onRequest("fs/read_text_file", ({ params }) => {
			const text = state.buffers.get(params.path) ?? readFileSync(params.path, "utf8");
			const lines = text.split("\n");
			const start = (params.line ?? 1) - 1;
			return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join("\n") };
		});
		app.onRequest("fs/write_text_file", ({ params }) => {
			state.writes.push({ path: params.path, content: params.content });
			state.buffers.set(params.path, params.content);
			return {};
		});
	}
	if (options.terminal) serveTerminals(app, state);
	const stream = ndJsonStream(
		Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
		Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
	);
	state.agent = app.connect(stream).agent;
	return state;
}

/** `initialize` as an editor sends it, with or without the fs and terminal capabilities. */
export function initialize(c: AcpTestClient, fs = false, terminal = false) {
	return c.agent.request("initialize", {
		protocolVersion: 1,
		clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal },
		clientInfo: { name: "rudder-test", version: "1.0.0" },
	});
}

/** The text of every agent_message_chunk of `sessionId`, joined. */
export function agentText(updates: readonly SessionNotification[]): string {
	return updates
		.map((n) => n.update)
		.map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""))
		.join("");
}

interface Terminal {
	child: ChildProcess;
	output: string;
	exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

/** `terminal/*` as an editor serves them: each command really runs (its own process group, killed whole). */
function serveTerminals(app: ReturnType<typeof client>, state: AcpTestClient): void {
	const terminals = new Map<string, Terminal>();
	let next = 0;
	const record = (method: string, params: object) => state.terminalCalls.push({ method, params: params as Record<string, unknown> });
	const terminal = (id: string): Terminal => {
		const found = terminals.get(id);
		if (!found) throw new Error(`no terminal ${id}`);
		return found;
	};
	app.onRequest("terminal/create", ({ params }) => {
		record("terminal/create", params);
		const env = Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value]));
		const child = spawn(params.command, params.args ?? [], {
			cwd: params.cwd ?? undefined,
			env,
			detached: true,
			stdio: ["ignore", "pipe", "pipe"],
		});
		const t: Terminal = {
			child,
			output: "",
			exit: new Promise((resolve) => child.on("close", (exitCode, signal) => resolve({ exitCode, signal }))),
		};
		const onData = (chunk: Buffer) => {
			t.output += chunk.toString("utf8");
		};
		child.stdout?.on("data", onData);
		child.stderr?.on("data", onData);
		const terminalId = `term-${++next}`;
		terminals.set(terminalId, t);
		return { terminalId };
	});
	app.onRequest("terminal/output", async ({ params }) => {
		record("terminal/output", params);
		const t = terminal(params.terminalId);
		const done = t.child.exitCode !== null || t.child.signalCode !== null ? await t.exit : undefined;
		return { output: t.output, truncated: false, ...(done ? { exitStatus: done } : {}) };
	});
	app.onRequest("terminal/wait_for_exit", async ({ params }) => {
		record("terminal/wait_for_exit", params);
		return terminal(params.terminalId).exit;
	});
	app.onRequest("terminal/kill", ({ params }) => {
		record("terminal/kill", params);
		stopGroup(terminal(params.terminalId).child);
		return {};
	});
	app.onRequest("terminal/release", ({ params }) => {
		record("terminal/release", params);
		stopGroup(terminal(params.terminalId).child);
		terminals.delete(params.terminalId);
		return {};
	});
}

function stopGroup(child: ChildProcess): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, "SIGKILL");
	} catch {
		// Already gone.
	}
}
