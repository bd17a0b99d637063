// The transcript as a markdown document (`/export`): readable in any viewer, tool output fenced.
import { chmodSync, writeFileSync } from "node:fs";
import type { AgentMessage } from "../agent/types.js";
import { webSearchText } from "../ai/index.js";
import { sanitizeDocumentText } from "../safety/sanitize.js";
import { redactSecrets } from "../safety/secrets.js";
import { shellOutputText } from "./session-messages.js";

/** A fence longer than any backtick run inside `text`, so the content cannot close it. */
function fence(text: string, lang = ""): string {
	const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const ticks = "`".repeat(longest + 1);
	return `${ticks}${lang}\n${text}\n${ticks}`;
}

function renderMessage(m: AgentMessage): string {
	switch (m.role) {
		case "user": {
			const parts =
				typeof m.content === "string" ? [m.content] : m.content.map((c) => (c.type === "text" ? c.text : `*[image: ${c.mimeType}]*`));
			return `## User\n\n${parts.join("\n\n")}`;
		}
		case "assistant": {
			const parts: string[] = [];
			for (const c of m.content) {
				if (c.type === "text" && c.text.trim()) parts.push(c.text);
				else if (c.type === "thinking" && c.thinking.trim())
					parts.push(
						c.thinking
							.split("\n")
							.map((l) => `> ${l}`)
							.join("\n"),
					);
				else if (c.type === "toolCall") parts.push(`**Tool call** \`${c.name}\`\n\n${fence(JSON.stringify(c.arguments, null, 2), "json")}`);
				else if (c.type === "webSearch") parts.push(`**Web search**\n\n${fence(webSearchText(c))}`);
			}
			if (m.errorMessage) parts.push(`*Error: ${m.errorMessage}*`);
			return `## Assistant\n\n${parts.join("\n\n")}`;
		}
		case "toolResult": {
			const text = m.content.map((c) => (c.type === "text" ? c.text : `[image: ${c.mimeType}]`)).join("\n");
			return `### Tool result: ${m.toolName}${m.isError ? " (error)" : ""}\n\n${fence(text)}`;
		}
		case "shellOutput":
			return `## Shell\n\n${fence(shellOutputText(m).replace(/^The user ran a shell command:\n/, ""), "console")}`;
		case "compactionSummary":
			return `## Summary of earlier conversation\n\n${m.summary}`;
		default:
			return "";
	}
}

/**
 * Writes an export (`/export`, rpc `export_html`): known secrets redacted; escape sequences, C1, bidi
 * and zero-width characters made visible, so `cat`-ing the file shows what the model saw and cannot
 * drive the terminal; 0600 like every file that may hold what a session saw (chmod too, since the mode
 * applies only to a new file).
 */
export function writeExport(path: string, text: string): void {
	writeFileSync(path, sanitizeDocumentText(redactSecrets(text)), { mode: 0o600 });
	chmodSync(path, 0o600);
}

/** A sub-agent's run as the session file's side branch keeps it (see `SubAgentTranscript`). */
export interface SubAgentTranscript {
	agentId: string;
	name: string;
	parentToolCallId: string;
	messages: AgentMessage[];
}

export function exportMarkdown(
	messages: readonly AgentMessage[],
	meta: { title?: string; cwd?: string; model?: string } = {},
	subAgents: readonly SubAgentTranscript[] = [],
): string {
	const head = [`# ${meta.title ?? "Rudder session"}`];
	const facts = [meta.cwd && `- Folder: \`${meta.cwd}\``, meta.model && `- Model: \`${meta.model}\``].filter(Boolean);
	if (facts.length) head.push(facts.join("\n"));
	const body = messages.map(renderMessage).filter(Boolean);
	// Each sub-agent after the main transcript, its headings one level down, named by the task call.
	const side = subAgents.map((agent) => {
		const inner = agent.messages.map((m) => renderMessage(m).replace(/^(#+) /gm, "#$1 ")).filter(Boolean);
		return [`## Sub-agent ${agent.name} (${agent.agentId}), for task call \`${agent.parentToolCallId}\``, ...inner].join("\n\n");
	});
	return `${[...head, ...body, ...side].join("\n\n")}\n`;
}

/** The sub-agents' side branches of a loaded session file, in the order they started. */
export function subAgentTranscripts(entries: readonly { type: string }[]): SubAgentTranscript[] {
	const byId = new Map<string, SubAgentTranscript>();
	for (const entry of entries) {
		if (entry.type !== "subagent") continue;
		const e = entry as unknown as { agentId: string; name: string; parentToolCallId: string; message: AgentMessage };
		const agent = byId.get(e.agentId) ?? { agentId: e.agentId, name: e.name, parentToolCallId: e.parentToolCallId, messages: [] };
		agent.messages.push(e.message);
		byId.set(e.agentId, agent);
	}
	return [...byId.values()];
}
