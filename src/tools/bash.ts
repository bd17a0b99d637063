// The `bash` tool: runs a command in the session's cwd, streams its output, and stops it (and every
// process it started) on timeout or abort.
import { type Static, Type } from "typebox";
import { onAbort } from "../agent/abort-fanout.js";
import type { AgentTool, AgentToolUpdateCallback } from "../agent/types.js";
import { withoutSecretValues } from "../safety/child-env.js";
import type { BackgroundJobs, JobInfo } from "./background-jobs.js";
import { startBackgroundJob } from "./background-tools.js";
import { OutputCollector, type OutputSnapshot } from "./output-collector.js";
import { type ProcessSlots, toolProcessSlots } from "./process-slots.js";
import { findShell, killProcessGroup, shellLaunch, spawnShellCommand, type WrapSpawn } from "./shell.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, type TruncationResult } from "./truncate.js";

const bashSchema = Type.Object({
	command: Type.String({ description: "Bash command to run" }),
	timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (none by default)" })),
	run_in_background: Type.Optional(
		Type.Boolean({ description: "Start it as a background job (a dev server, a watcher) and return at once with its id" }),
	),
});

export type BashToolInput = Static<typeof bashSchema>;

export interface BashToolDetails {
	/** The shell's exit code; null when it was killed by a signal. Unset on partial updates. */
	exitCode?: number | null;
	/** Set when the output was cut to its tail. */
	truncation?: TruncationResult;
	/** The temp file holding the whole output, when it was cut. */
	fullOutputPath?: string;
	/** Set on the update sent while the command waits for a free process slot. */
	waitingForSlot?: boolean;
	/** The background job a `run_in_background` call started. */
	job?: JobInfo;
}

export interface BashToolOptions {
	/** Shell to run commands with; default bash, else $SHELL, else sh. */
	shellPath?: string;
	/** Minimum time between `onUpdate` calls while output streams; default 100 ms. */
	updateIntervalMs?: number;
	/** Time between SIGTERM and SIGKILL when a command is stopped; default 500 ms. */
	killGraceMs?: number;
	/** How long to wait for output still in the pipes after the shell exited; default 250 ms. */
	drainMs?: number;
	/** Line cap on the returned output (its tail); default 2,000. */
	maxLines?: number;
	/** Byte cap on the returned output (its tail); default 50 KB. */
	maxBytes?: number;
	/** Limits how many commands run at once; default the process-wide `toolProcessSlots`. */
	slots?: ProcessSlots;
	/** Turns the shell's launch into a sandboxed one (see sandbox.ts); asked again for every command. */
	wrapSpawn?: WrapSpawn;
	/** Environment of the commands; default `process.env`. The session passes one without credentials. */
	env?: Record<string, string | undefined>;
	/** Where `run_in_background` commands run; without it the option is refused. */
	jobs?: BackgroundJobs;
}

export function createBashTool(cwd: string, options: BashToolOptions = {}): AgentTool<typeof bashSchema, BashToolDetails> {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	return {
		name: "bash",
		label: "bash",
		description: `Run a bash command in the working directory; stdout and stderr are returned together. Only the last ${maxLines} lines or ${maxBytes / 1024} KB are returned; when cut, the full output is saved to a temp file whose path is given. Optional timeout in seconds.`,
		parameters: bashSchema,
		async execute(toolCallId, params: BashToolInput, signal, onUpdate) {
			if (params.timeout !== undefined && !(params.timeout > 0)) {
				throw new Error(`Invalid timeout ${params.timeout}: give a positive number of seconds`);
			}
			if (signal?.aborted) throw new Error("Command aborted");
			if (params.run_in_background) {
				if (!options.jobs) throw new Error("run_in_background is not available in this session");
				return startBackgroundJob(options.jobs, params.command);
			}
			const slots = options.slots ?? toolProcessSlots;
			if (slots.isFull) {
				const text = `Waiting for a free slot (${slots.running} running)`;
				onUpdate?.({ content: [{ type: "text", text }], details: { waitingForSlot: true } });
			}
			const release = await slots.acquire(signal, () => new Error("Command aborted"));
			try {
				return await runCommand(params, { callId: toolCallId, cwd, signal, onUpdate, maxLines, maxBytes, options });
			} finally {
				release();
			}
		},
	};
}

interface RunContext {
	callId: string;
	cwd: string;
	signal?: AbortSignal;
	onUpdate?: AgentToolUpdateCallback<BashToolDetails>;
	maxLines: number;
	maxBytes: number;
	options: BashToolOptions;
}

function runCommand(params: BashToolInput, ctx: RunContext) {
	const { options } = ctx;
	const updateIntervalMs = options.updateIntervalMs ?? 100;
	const killGraceMs = options.killGraceMs ?? 500;
	const drainMs = options.drainMs ?? 250;
	const shell = findShell(options.shellPath);
	const output = new OutputCollector(ctx.maxLines, ctx.maxBytes);

	return new Promise<{ content: { type: "text"; text: string }[]; details: BashToolDetails }>((resolve, reject) => {
		const env = withoutSecretValues(options.env ?? process.env);
		const command = { shell, command: params.command, cwd: ctx.cwd, env, wrap: options.wrapSpawn, callId: ctx.callId };
		const launch = shellLaunch(command);
		const child = spawnShellCommand(command, launch);
		let settled = false;
		let timeoutTimer: NodeJS.Timeout | undefined;
		let drainTimer: NodeJS.Timeout | undefined;
		let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
		let stopWatchingAbort: (() => void) | undefined;
		const updates = throttledUpdates(output, ctx.onUpdate, updateIntervalMs);
		const onData = (chunk: Buffer) => {
			if (settled) return;
			output.append(chunk);
			updates.schedule();
		};
		child.stdout?.on("data", onData);
		child.stderr?.on("data", onData);

		const cleanup = () => {
			settled = true;
			unregister?.();
			updates.cancel();
			clearTimeout(timeoutTimer);
			clearTimeout(drainTimer);
			stopWatchingAbort?.();
		};
		const fail = (status: string, stopped = false) => {
			if (settled) return;
			cleanup();
			// A stopped command gets the sandbox's after-command check too: what it planted stays planted.
			const seen = stopped ? (launch.finish?.({ code: null, signal: "SIGTERM" }) ?? []) : [];
			void Promise.all([seen, output.close()]).then(([lines]) =>
				reject(new Error(formatOutput(output.snapshot(), [status, ...lines].join("\n"), ""))),
			);
		};
		const stop = (status: string) => {
			if (settled) return;
			if (child.pid !== undefined) killProcessGroup(child.pid, killGraceMs);
			// Settle now rather than when the group is gone: a process that ignores SIGTERM must not
			// hold up the run for the grace period.
			child.stdout?.destroy();
			child.stderr?.destroy();
			fail(status, true);
		};

		const complete = () => {
			if (settled || !exit) return;
			cleanup();
			// Background children (`server &`) may still hold the pipes; stop reading, leave them running.
			child.stdout?.destroy();
			child.stderr?.destroy();
			const ended = exit;
			void Promise.all([launch.finish?.(ended) ?? [], output.close()]).then(([seen]) => {
				const result = exitResult(output.snapshot(), ended, seen);
				if (result instanceof Error) reject(result);
				else resolve(result);
			});
		};

		// Ctrl+B: the command leaves this call as a background job, and the call answers with its id.
		const unregister = options.jobs?.registerForeground(ctx.callId, () => {
			if (settled) return undefined;
			cleanup();
			child.stdout.off("data", onData);
			child.stderr.off("data", onData);
			const snap = output.snapshot();
			void output.close();
			return {
				command: params.command,
				child,
				output: snap.text,
				adopted: (job) => resolve(movedResult(job, snap.text)),
			};
		});
		if (ctx.signal) stopWatchingAbort = onAbort(ctx.signal, () => stop("Command aborted"));
		if (params.timeout !== undefined) {
			const seconds = params.timeout;
			timeoutTimer = setTimeout(() => stop(`Command timed out after ${seconds} seconds`), seconds * 1000);
		}
		child.on("error", (error) => fail(`Could not run ${shell}: ${error.message}`));
		child.on("exit", (code, signal) => {
			exit = { code, signal };
			drainTimer = setTimeout(complete, drainMs);
		});
		child.on("close", complete);
	});
}

/** What the call answers when the user moved its command to the background. */
function movedResult(job: JobInfo, soFar: string) {
	const text = `The user moved this command to the background (Ctrl+B) as job ${job.id}; it keeps running. bash_output ${job.id} shows its new output, kill_shell ${job.id} stops it.\n\nOutput so far:\n${soFar || "(no output)"}`;
	return { content: [{ type: "text" as const, text }], details: { job } satisfies BashToolDetails };
}

/** What the call answers once the command exited: its output, or an error naming the exit code or signal. */
export function exitResult(snap: OutputSnapshot, exit: { code: number | null; signal: NodeJS.Signals | null }, seen: readonly string[]) {
	const { code, signal } = exit;
	if (code === 0) {
		return {
			content: [{ type: "text" as const, text: formatOutput(snap, seen.join("\n"), "(no output)") }],
			details: { ...snapshotDetails(snap), exitCode: code },
		};
	}
	const status = code !== null ? `Command exited with code ${code}` : `Command was killed by signal ${signal}`;
	return new Error(formatOutput(snap, [status, ...seen].join("\n"), ""));
}

/** Partial output for `onUpdate`, at most one update per interval; none once cancelled. */
function throttledUpdates(output: OutputCollector, onUpdate: RunContext["onUpdate"], intervalMs: number) {
	let timer: NodeJS.Timeout | undefined;
	let lastAt = 0;
	let cancelled = false;
	const emit = () => {
		timer = undefined;
		if (cancelled || !onUpdate) return;
		lastAt = Date.now();
		const snap = output.snapshot();
		onUpdate({ content: [{ type: "text", text: snap.text }], details: snapshotDetails(snap) });
	};
	return {
		schedule() {
			if (onUpdate && !timer && !cancelled) timer = setTimeout(emit, Math.max(0, intervalMs - (Date.now() - lastAt)));
		},
		cancel() {
			cancelled = true;
			clearTimeout(timer);
		},
	};
}

function snapshotDetails(snap: OutputSnapshot): BashToolDetails {
	return snap.truncation.truncated ? { truncation: snap.truncation, fullOutputPath: snap.fullOutputPath } : {};
}

/** Output tail, then a note on what was cut, then the status line (exit code, timeout, abort). */
export function formatOutput(snap: OutputSnapshot, status: string, emptyText: string): string {
	const parts: string[] = [snap.text || emptyText];
	const t = snap.truncation;
	if (t.truncated) {
		const first = t.totalLines - t.outputLines + 1;
		const where = snap.fullOutputPath ? ` Full output: ${snap.fullOutputPath}` : "";
		if (t.lastLinePartial) parts.push(`[Showing the last ${formatSize(t.outputBytes)} of line ${t.totalLines}.${where}]`);
		else {
			const cap = t.truncatedBy === "bytes" ? ` (${formatSize(t.maxBytes)} limit)` : "";
			parts.push(`[Showing lines ${first}-${t.totalLines} of ${t.totalLines}${cap}.${where}]`);
		}
	}
	if (status) parts.push(status);
	return parts.filter((p) => p !== "").join("\n\n");
}
