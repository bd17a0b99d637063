// Runs one hook command: `bash -c command` in the project folder, as the user and outside the sandbox
// (hooks are the user's trusted configuration), with the JSON payload on stdin. Its environment is the
// one model commands get (no credentials, src/safety/child-env.ts) plus CLAUDE_PROJECT_DIR and
// RUDDER_PROJECT_DIR. It leads its own process group, so a timeout or an abort (Esc) stops everything
// it started, and the group is registered so that nothing outlives Rudder.
import { spawn } from "node:child_process";
import { childEnv } from "../../safety/child-env.js";
import { trackProcessGroup } from "../../tools/process-registry.js";
import { killProcessGroup } from "../../tools/shell.js";

type Env = Record<string, string | undefined>;

export interface HookProcessResult {
	/** null when it was killed (timeout, abort) or never started. */
	exitCode: number | null;
	stdout: string;
	stderr: string;
	timedOut: boolean;
	cancelled: boolean;
	/** Why it could not start (no shell, a bad folder). */
	startError?: string;
	durationMs: number;
}

export interface HookProcessOptions {
	command: string;
	stdin: string;
	/** The project folder: the working directory and CLAUDE_PROJECT_DIR. */
	projectDir: string;
	timeoutMs: number;
	shell: string;
	env: Env;
	/** Credential-named variables the user's global settings pass on (`shell.passEnv`). */
	passEnv?: readonly string[];
	signal?: AbortSignal;
}

/** Output kept per stream: a hook that prints megabytes must not fill memory. */
export const MAX_OUTPUT_BYTES = 256 * 1024;
/** Between SIGTERM and SIGKILL for a hook that is stopped. */
const KILL_GRACE_MS = 300;

export function hookEnv(env: Env, projectDir: string, passEnv: readonly string[] = []): Record<string, string> {
	return { ...childEnv(env, passEnv), CLAUDE_PROJECT_DIR: projectDir, RUDDER_PROJECT_DIR: projectDir };
}

function collector(): { push(chunk: Buffer): void; text(): string } {
	const chunks: Buffer[] = [];
	let size = 0;
	return {
		push(chunk) {
			if (size >= MAX_OUTPUT_BYTES) return;
			chunks.push(chunk.subarray(0, MAX_OUTPUT_BYTES - size));
			size += chunk.length;
		},
		text: () => Buffer.concat(chunks).toString("utf8"),
	};
}

export function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	if (options.signal?.aborted) {
		return Promise.resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, cancelled: true, durationMs: 0 });
	}
	return new Promise((resolve) => {
		const child = spawn(options.shell, ["-c", options.command], {
			cwd: options.projectDir,
			env: hookEnv(options.env, options.projectDir, options.passEnv),
			detached: true,
			stdio: ["pipe", "pipe", "pipe"],
		});
		if (child.pid !== undefined) trackProcessGroup(child.pid);
		const stdout = collector();
		const stderr = collector();
		let timedOut = false;
		let cancelled = false;
		const stop = () => {
			if (child.pid !== undefined) killProcessGroup(child.pid, KILL_GRACE_MS);
		};
		const timer = setTimeout(() => {
			timedOut = true;
			stop();
		}, options.timeoutMs);
		const onAbort = () => {
			cancelled = true;
			stop();
		};
		options.signal?.addEventListener("abort", onAbort, { once: true });
		const finish = (result: Omit<HookProcessResult, "durationMs" | "timedOut" | "cancelled" | "stdout" | "stderr">) => {
			clearTimeout(timer);
			options.signal?.removeEventListener("abort", onAbort);
			resolve({ ...result, stdout: stdout.text(), stderr: stderr.text(), timedOut, cancelled, durationMs: elapsed() });
		};
		child.stdout.on("data", stdout.push);
		child.stderr.on("data", stderr.push);
		// A hook that exits without reading its input closes the pipe: not an error of ours.
		child.stdin.on("error", () => {});
		child.stdin.end(options.stdin);
		child.on("error", (error) => finish({ exitCode: null, startError: error.message }));
		child.on("close", (code) => finish({ exitCode: timedOut || cancelled ? null : code }));
	});
}
