// bash through the editor's terminal (ACP `terminal/*`) when the client offers it, for a command Rudder
// would run unsandboxed anyway: permission mode `yolo`, no working sandbox on this machine, or a command
// the user approved to run outside the sandbox (`terminalBash`, given to the session). A client
// terminal runs in the editor's environment, outside Rudder's bubblewrap sandbox, so a command that would
// run sandboxed keeps running in Rudder's own sandboxed bash. The permission gate still decides before
// every call; only where an allowed command runs changes. The editor shows the terminal live (the tool
// call's `terminal` content); the model gets the output as bash output, through the same collector (tail
// cut, full output saved redacted), the same format and the same redaction.
//
// As client-files.ts: the session's own bash object gets this `execute` (`routeBashThroughClient`), so the
// swap holds for every copy of the tool list.
import type { AgentContext, CreateTerminalResponse, SessionUpdate, TerminalExitStatus } from "@agentclientprotocol/sdk";
import { onAbort } from "../../agent/abort-fanout.js";
import type { AgentTool } from "../../agent/types.js";
import { withoutSecretValues } from "../../safety/child-env.js";
import { withRedactedResults } from "../../session/redacting-tools.js";
import { type BashToolInput, exitResult, formatOutput } from "../../tools/bash.js";
import { OutputCollector } from "../../tools/output-collector.js";
import { findShell } from "../../tools/shell.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "../../tools/truncate.js";

/** What the editor keeps of a command's output (its tail); the model gets a tail of that as of bash. */
const OUTPUT_BYTE_LIMIT = 1024 * 1024;

/** One command in the editor's terminal. */
export interface TerminalRun {
	id: string;
	/** Resolves when the command ended (or was killed). */
	waitForExit(): Promise<TerminalExitStatus>;
	output(): Promise<{ output: string; truncated: boolean; exitStatus?: TerminalExitStatus | null }>;
	kill(): Promise<void>;
	release(): Promise<void>;
}

/** The editor's terminals for one session. */
export interface ClientTerminal {
	create(command: { command: string; args: string[]; env: Record<string, string>; cwd: string }): Promise<TerminalRun>;
	/** Shows the terminal in the tool call's content, so the editor shows the command live. */
	show(toolCallId: string, terminalId: string): Promise<void>;
}

/** `sessionId` is read at each command: a new session's id is its Rudder session's, known once it is open. */
export function clientTerminalOf(client: AgentContext, sessionIdOf: () => string): ClientTerminal {
	return {
		create: async (command) => {
			const sessionId = sessionIdOf();
			const env = Object.entries(command.env).map(([name, value]) => ({ name, value }));
			// The SDK infers this response type as a string; the schema says `{ terminalId }`.
			const { terminalId } = (await client.request("terminal/create", {
				sessionId,
				command: command.command,
				args: command.args,
				env,
				cwd: command.cwd,
				outputByteLimit: OUTPUT_BYTE_LIMIT,
			})) as unknown as CreateTerminalResponse;
			const ids = { sessionId, terminalId };
			return {
				id: terminalId,
				waitForExit: () => client.request("terminal/wait_for_exit", ids),
				output: () => client.request("terminal/output", ids),
				kill: async () => {
					await client.request("terminal/kill", ids);
				},
				release: async () => {
					await client.request("terminal/release", ids);
				},
			};
		},
		show: (toolCallId, terminalId) => {
			const sessionId = sessionIdOf();
			const update: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId, content: [{ type: "terminal", terminalId }] };
			return client.notify("session/update", { sessionId, update }).catch(() => {});
		},
	};
}

/** Where this session's commands run now: `sandboxed` keeps them in Rudder's own bash. */
export type SandboxState = () => "bwrap" | "none" | "off" | undefined;

type Execute = AgentTool["execute"];

/**
 * bash's execute for a session in `cwd`: the editor's terminal for a command that runs unsandboxed
 * anyway, `own` otherwise (and for background jobs, which Rudder keeps track of itself).
 */
export function clientTerminalBash(
	terminal: ClientTerminal,
	c: { cwd: string; env: Record<string, string>; sandbox: SandboxState; own: Execute },
): Execute {
	const inTerminal = terminalBash(terminal, c);
	return async (toolCallId, params: BashToolInput, signal, onUpdate) => {
		if (params.run_in_background || c.sandbox() === "bwrap") return c.own(toolCallId, params, signal, onUpdate);
		return inTerminal(toolCallId, params, signal, onUpdate);
	};
}

/** bash's execute in the editor's terminal, always (a command the user approved to run outside the sandbox). */
export function terminalBash(terminal: ClientTerminal, c: { cwd: string; env: Record<string, string> }): Execute {
	return async (toolCallId, params: BashToolInput, signal) => {
		if (params.timeout !== undefined && !(params.timeout > 0)) {
			throw new Error(`Invalid timeout ${params.timeout}: give a positive number of seconds`);
		}
		if (signal?.aborted) throw new Error("Command aborted");
		const run = await terminal.create({
			command: findShell(),
			args: ["-c", params.command],
			env: withoutSecretValues(c.env) as Record<string, string>,
			cwd: c.cwd,
		});
		void terminal.show(toolCallId, run.id);
		return runToEnd(run, params, signal);
	};
}

/** Waits for the command (killing it on abort or timeout), then answers as bash does; the terminal is released. */
async function runToEnd(run: TerminalRun, params: BashToolInput, signal: AbortSignal | undefined) {
	let stopped: string | undefined;
	let killed: (() => void) | undefined;
	// A killed command answers once the kill is sent, whether or not the editor's wait_for_exit ever does.
	const killSent = new Promise<undefined>((resolve) => {
		killed = () => resolve(undefined);
	});
	const stop = (status: string) => {
		if (stopped !== undefined) return;
		stopped = status;
		void run
			.kill()
			.catch(() => {})
			.finally(killed);
	};
	const stopWatchingAbort = signal ? onAbort(signal, () => stop("Command aborted")) : undefined;
	// Cancelled while the editor was creating the terminal: the command started, and stops now.
	if (signal?.aborted) stop("Command aborted");
	const seconds = params.timeout;
	const timer = seconds !== undefined ? setTimeout(() => stop(`Command timed out after ${seconds} seconds`), seconds * 1000) : undefined;
	try {
		const exit = await Promise.race([run.waitForExit(), killSent]);
		const got = await run.output().catch(() => ({ output: "", truncated: false, exitStatus: undefined }));
		const output = new OutputCollector(DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES);
		output.append(Buffer.from(got.output, "utf8"));
		await output.close();
		const snap = output.snapshot();
		if (stopped !== undefined) throw new Error(formatOutput(snap, stopped, ""));
		const status = exit ?? got.exitStatus ?? { exitCode: null, signal: "SIGKILL" };
		const result = exitResult(snap, { code: status.exitCode ?? null, signal: (status.signal ?? null) as NodeJS.Signals | null }, []);
		if (result instanceof Error) throw result;
		return result;
	} finally {
		clearTimeout(timer);
		stopWatchingAbort?.();
		await run.release().catch(() => {});
	}
}

/** Gives the session's bash tool the execute above (redacted as the session's tools are). */
export function routeBashThroughClient(
	tools: readonly AgentTool[],
	terminal: ClientTerminal,
	c: { cwd: string; env: Record<string, string>; sandbox: SandboxState },
): void {
	const bash = tools.find((t) => t.name === "bash");
	if (!bash) return;
	const own = bash.execute.bind(bash);
	bash.execute = withRedactedResults({ ...bash, execute: clientTerminalBash(terminal, { ...c, own }) }).execute;
}
