// MCP tools as ordinary AgentTools, so every layer that applies to tools (validation, permission rules
// such as "mcp__github__*", abort) applies to them unchanged. Names are `mcp__<server>__<tool>`.
import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgentTool } from "../../agent/types.js";
import type { ImageContent, TextContent } from "../../ai/types.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead } from "../../tools/truncate.js";
import type { McpConnection, McpProgress, McpToolDefinition } from "./connection.js";

/** Providers accept tool names of these characters, at most 64 long. */
const MAX_TOOL_NAME = 64;

export function agentToolName(server: string, tool: string): string {
	const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
	if (name.length <= MAX_TOOL_NAME) return name;
	// Cut, with a hash of the full name so two long names that share a start stay apart.
	const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
	return `${name.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

export interface McpToolDetails {
	server: string;
	/** The tool's name on the server. */
	tool: string;
	/** The server's structured result, when it sent one. */
	structuredContent?: unknown;
}

const MAX_DESCRIPTION = 4_000;

export function createMcpTool(connection: McpConnection, definition: McpToolDefinition, name: string): AgentTool<any, McpToolDetails> {
	const server = connection.config.name;
	const description = (definition.description ?? "").trim() || `Tool ${definition.name} of the MCP server ${server}`;
	return {
		name,
		label: `${server}: ${definition.name}`,
		description: `${description.slice(0, MAX_DESCRIPTION)}\n(MCP server "${server}")`,
		parameters: definition.inputSchema,
		async execute(_toolCallId, params, signal, onUpdate) {
			// The server's progress notifications show on the call's row (the session sanitises them on the way).
			const onProgress = (p: McpProgress) =>
				onUpdate?.({ content: [{ type: "text", text: progressLine(p) }], details: { server, tool: definition.name } });
			const result = await connection.callTool(definition.name, params ?? {}, signal, onProgress);
			const mapped = toAgentToolResult(result);
			const details: McpToolDetails = { server, tool: definition.name, structuredContent: result.structuredContent };
			if (result.isError) throw new Error(textOf(mapped.content) || `${definition.name} failed`);
			return { content: mapped.content, details };
		},
	};
}

/** "2/3 step 2": the server's counts and message, one line, capped. */
export function progressLine(p: McpProgress): string {
	const count = p.total !== undefined ? `${p.progress}/${p.total}` : `${p.progress}`;
	const message = (p.message ?? "").replace(/[\r\n]+/g, " ").slice(0, 200);
	return message ? `${count} ${message}` : count;
}

const textOf = (content: (TextContent | ImageContent)[]) =>
	content
		.filter((c): c is TextContent => c.type === "text")
		.map((c) => c.text)
		.join("\n");

/**
 * Text stays text, images stay images; audio and embedded binary resources are named, not inlined
 * (no model here takes audio); structured content without any other content is sent as JSON. Text is
 * capped like `read`'s output. Known secrets (the servers' env and header values among them) are masked by
 * the session's tool-result redactor, which wraps these tools as it wraps the built-in ones.
 */
export function toAgentToolResult(result: CallToolResult): { content: (TextContent | ImageContent)[] } {
	const content: (TextContent | ImageContent)[] = [];
	for (const block of result.content ?? []) {
		if (block.type === "text") content.push({ type: "text", text: block.text });
		else if (block.type === "image") content.push({ type: "image", data: block.data, mimeType: block.mimeType });
		else if (block.type === "audio")
			content.push({ type: "text", text: `[audio ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]` });
		else if (block.type === "resource_link")
			content.push({ type: "text", text: `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]` });
		else if (block.type === "resource") {
			const r = block.resource;
			content.push({ type: "text", text: "text" in r ? r.text : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}, binary]` });
		}
	}
	if (content.length === 0 && result.structuredContent !== undefined) {
		content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
	}
	if (content.length === 0) content.push({ type: "text", text: "(no output)" });
	// Secrets are redacted by the session, as for every tool (src/session/redacting-tools.ts).
	return { content: content.map((c) => (c.type === "text" ? { type: "text", text: capText(c.text) } : c)) };
}

function capText(text: string): string {
	const cut = truncateHead(text, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
	if (!cut.truncated) return text;
	return `${cut.content}\n\n[Output cut at ${cut.outputLines} of ${cut.totalLines} lines (${DEFAULT_MAX_BYTES / 1024} KB cap)]`;
}
