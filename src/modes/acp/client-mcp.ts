// The editor's MCP servers (`mcpServers` of `session/new` and `session/load`) in the shape of Rudder's
// settings (`mcpServers.<name>`), so the same reader checks them (src/extensions/mcp/config.ts). They are
// the client's, so trusted (source "editor": no trust prompt). stdio and streamable HTTP are spoken;
// an SSE server is left out with a warning. Names are the editor's free text: made fit for tool names
// (`mcp__<server>__<tool>`) and kept apart.
import type { McpServer } from "@agentclientprotocol/sdk";

const NAME_CHARS = /[^A-Za-z0-9_-]/g;
const MAX_NAME = 40;

export interface ClientMcpServers {
	/** `mcpServers` as a settings file would hold it. */
	servers: Record<string, unknown>;
	/** One line per server that is not started. */
	warnings: string[];
}

export function clientMcpServers(list: readonly McpServer[] | undefined): ClientMcpServers {
	const servers: Record<string, unknown> = {};
	const warnings: string[] = [];
	for (const server of list ?? []) {
		const label = String(server.name ?? "").slice(0, MAX_NAME);
		if ("type" in server && server.type === "sse") {
			warnings.push(
				`The editor's MCP server "${label}" uses SSE, which Rudder does not speak: not started (give its streamable HTTP endpoint)`,
			);
			continue;
		}
		const name = uniqueName(label, servers);
		const pairs = (items: readonly { name: string; value: string }[] | undefined) =>
			Object.fromEntries((items ?? []).map((h) => [h.name, h.value]));
		servers[name] =
			"type" in server && server.type === "http"
				? { type: "http", url: server.url, headers: pairs(server.headers) }
				: {
						command: (server as { command: string }).command,
						args: (server as { args?: string[] }).args ?? [],
						env: pairs((server as { env?: { name: string; value: string }[] }).env),
					};
	}
	return { servers, warnings };
}

function uniqueName(label: string, taken: Record<string, unknown>): string {
	const base = label.replace(NAME_CHARS, "_").slice(0, MAX_NAME - 3) || "editor";
	let name = base;
	for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}_${n}`;
	return name;
}
