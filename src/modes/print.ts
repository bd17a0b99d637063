// Print mode (`rudder -p`): one prompt, the final answer's text on stdout, exit. A failed or aborted
// run prints its error on stderr and exits 1, so scripts can tell an answer from a failure.

import type { AgentMessage } from "../agent/types.js";
import type { AssistantMessage } from "../ai/types.js";
import type { AgentSessionApi } from "../session/types.js";

export interface ModeOutput {
	write(text: string): void;
}

export interface PrintIo {
	stdout: ModeOutput;
	stderr: ModeOutput;
}

export async function runPrint(session: AgentSessionApi, prompt: string, io: PrintIo): Promise<number> {
	const unsubscribe = session.subscribe((event) => {
		if (event.type === "notice" && event.level !== "info") io.stderr.write(`rudder: ${oneLine(event.text)}\n`);
	});
	try {
		await session.prompt(prompt);
		const outcome = lastRunOutcome(session.getState().messages);
		if (!outcome.ok) {
			io.stderr.write(`rudder: ${oneLine(outcome.error)}\n`);
			return 1;
		}
		if (outcome.text) io.stdout.write(outcome.text.endsWith("\n") ? outcome.text : `${outcome.text}\n`);
		return 0;
	} finally {
		unsubscribe();
	}
}

export type RunOutcome = { ok: true; text: string } | { ok: false; error: string };

/** The answer of the last run: the last assistant message's text, or why it failed. */
export function lastRunOutcome(messages: readonly AgentMessage[]): RunOutcome {
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
