// Print mode (`rudder -p`): one prompt, the final answer's text on stdout, exit. A failed or aborted
// run prints its error on stderr and exits 1, so scripts can tell an answer from a failure; Ctrl+C
// exits 130 (as a shell does for SIGINT) with one line saying what it interrupted. On a
// terminal the answer is sanitised (no escape sequence of the model's reaches it); through a pipe it
// is written byte for byte, as scripts expect. Known secrets are redacted from both.

import type { AgentMessage } from "../agent/types.js";
import type { AssistantMessage } from "../ai/types.js";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { redactSecrets } from "../safety/secrets.js";
import { isLoginCommand } from "../session/login-command.js";
import type { AgentSessionApi, RunPhase, SessionState } from "../session/types.js";

export interface ModeOutput {
	write(text: string): void;
	/** A terminal: outside text is sanitised before it is written to it. */
	isTTY?: boolean;
}

export interface PrintIo {
	stdout: ModeOutput;
	stderr: ModeOutput;
	/** Set by the Ctrl+C handler: what the session was doing when the user interrupted it. */
	interrupted?: () => Interruption | undefined;
}

export interface Interruption {
	phase: RunPhase;
	toolsRunning: number;
}

export const INTERRUPTED_EXIT_CODE = 130;

/** What the Ctrl+C handler records, read from the session's run phase. */
export function interruptionOf(state: SessionState): Interruption {
	return { phase: state.phase, toolsRunning: state.pendingToolCalls.size };
}

/** The one stderr line for Ctrl+C: "interrupted by Ctrl+C while a tool ran". */
export function interruptedLine(at: Interruption): string {
	const p = at.phase;
	const during =
		p.kind === "running"
			? at.toolsRunning > 0
				? " while a tool ran"
				: " while the model was answering"
			: p.kind === "retrying"
				? ` while waiting to retry (${p.reason})`
				: p.kind === "compacting"
					? " while compacting the context"
					: p.kind === "awaiting-approval"
						? ` while waiting for approval of ${p.toolName}`
						: "";
	return errorLine(`interrupted by Ctrl+C${during}`);
}

export async function runPrint(session: AgentSessionApi, prompt: string, io: PrintIo): Promise<number> {
	if (isLoginCommand(prompt)) return runLogin(session, prompt, io);
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "notice" && event.level !== "info") io.stderr.write(errorLine(event.text));
	});
	try {
		await session.prompt(prompt);
		const interrupted = io.interrupted?.();
		if (interrupted) {
			io.stderr.write(interruptedLine(interrupted));
			return INTERRUPTED_EXIT_CODE;
		}
		const outcome = lastRunOutcome(session.getState().messages);
		if (!outcome.ok) {
			io.stderr.write(errorLine(outcome.error));
			return 1;
		}
		if (outcome.text) io.stdout.write(forOutput(io.stdout, outcome.text.endsWith("\n") ? outcome.text : `${outcome.text}\n`));
		return 0;
	} finally {
		unsubscribe();
	}
}

/** `-p "/login <provider> <key>"` stores the key (the session runs it as a command); its notices say how it went. */
export async function runLogin(session: AgentSessionApi, prompt: string, io: PrintIo): Promise<number> {
	let failed = false;
	const unsubscribe = session.subscribe((event) => {
		if (event.type !== "notice") return;
		if (event.level === "error") failed = true;
		io.stderr.write(errorLine(event.text));
	});
	try {
		await session.prompt(prompt);
		// Notices are delivered synchronously; one turn lets a queued early notice arrive too.
		await new Promise((resolve) => setImmediate(resolve));
		return failed ? 1 : 0;
	} finally {
		unsubscribe();
	}
}

export type RunOutcome = { ok: true; text: string } | { ok: false; error: string };

/**
 * The answer of the last run: the last assistant message's text, or why it failed. A run in plan mode
 * that ended by proposing its plan (`exit_plan_mode`, with nobody to approve it) answers with the plan.
 */
export function lastRunOutcome(messages: readonly AgentMessage[]): RunOutcome {
	const end = messages.at(-1) as { role?: string; toolName?: string; isError?: boolean; content?: unknown } | undefined;
	if (end?.role === "toolResult" && end.toolName === "exit_plan_mode" && !end.isError) {
		const blocks = (end.content ?? []) as { type: string; text?: string }[];
		return { ok: true, text: blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join("") };
	}
	const last = findLastAssistant(messages);
	if (!last) return { ok: false, error: "the model did not answer" };
	if (last.stopReason === "error") return { ok: false, error: last.errorMessage || "the request failed" };
	if (last.stopReason === "aborted") return { ok: false, error: last.errorMessage || "the run was aborted" };
	const text = last.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("");
	return { ok: true, text };
}

function findLastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i] as { role?: string };
		if (message.role === "assistant") return message as AssistantMessage;
	}
	return undefined;
}

export function oneLine(text: string): string {
	return text.replace(/\s*\n\s*/g, " ").trim();
}

/** Outside text for `out`: secrets redacted; sanitised when `out` is a terminal, exact through a pipe. */
export function forOutput(out: ModeOutput, text: string): string {
	const redacted = redactSecrets(text);
	return out.isTTY ? sanitizeTerminalText(redacted) : redacted;
}

/**
 * `rudder: <text>` as one stderr line. Error text often quotes a server's body or a file, so it is
 * always redacted and sanitised, whatever stderr is: a log read later with `cat` is a terminal too.
 */
export function errorLine(text: string): string {
	return `rudder: ${oneLine(sanitizeTerminalText(redactSecrets(text)))}\n`;
}
