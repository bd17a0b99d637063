// Large MCP tool sets: when the MCP tools' schemas would take more than a share of the model's context
// window (setting `tools.mcpSchemaPercent`, default 10 %), the model is sent a `tool_search` tool that
// names every MCP tool, plus only the MCP tools it has loaded; a search loads the schemas of the tools it
// finds for the rest of the session (the session file keeps their names, so a resumed session has them).
// Every MCP tool stays in the Agent's list, so a found tool can be called in the same run; only what
// each request *sends* is filtered (`toolsForModel`). Tokens are estimated from the schema's JSON
// length (4 characters a token), the same for every provider.
import type { AgentTool } from "../../agent/types.js";

export const DEFAULT_SCHEMA_PERCENT = 10;
export const TOOL_SEARCH_NAME = "tool_search";
/** Matches a search returns at most. */
const MAX_MATCHES = 5;
const CHARS_PER_TOKEN = 4;

/** What `/mcp` shows: the share the MCP schemas would take and what is sent. */
export interface McpToolBudget {
	/** Estimated tokens of every MCP tool's name, description and schema. */
	schemaTokens: number;
	contextWindow: number;
	/** The setting, in percent of the context window. */
	limitPercent: number;
	/** tool_search is offered (the schemas are over the limit). */
	searching: boolean;
	/** MCP tools whose schemas are sent. */
	sent: number;
	total: number;
	/** Estimated tokens of what is sent for MCP: the loaded tools' schemas plus tool_search. */
	sentTokens: number;
}

export function estimateToolTokens(tool: Pick<AgentTool, "name" | "description" | "parameters">): number {
	const json = JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters });
	return Math.ceil(json.length / CHARS_PER_TOKEN);
}

export interface ToolSearchOptions {
	/** Percent of the context window the MCP schemas may take before tool_search takes over. */
	percent: number;
	/** The MCP tools now (ready servers'), by their `mcp__` names. */
	mcpTools: () => readonly AgentTool[];
	/** Tools a search loaded: persisted by the session (one entry per search that found something new). */
	onLoaded: (names: string[]) => void;
}

export class ToolSearch {
	private readonly loaded = new Set<string>();

	constructor(private readonly options: ToolSearchOptions) {}

	/** A resumed session's loaded tools. */
	restore(names: readonly string[]): void {
		this.loaded.clear();
		for (const name of names) this.loaded.add(name);
	}

	loadedNames(): string[] {
		return [...this.loaded];
	}

	/** The search tool, in the Agent's list always; sent only while the schemas are over the limit. */
	readonly tool: AgentTool<unknown, { loaded: string[] }> = {
		name: TOOL_SEARCH_NAME,
		label: "tool search",
		description: "Search the MCP tools by name or words of their description and load the ones found.",
		parameters: {
			type: "object",
			properties: {
				query: {
					type: "string",
					description: 'Words to look for, or "select:<name>,<name>" to load tools by their exact names',
				},
			},
			required: ["query"],
			additionalProperties: false,
		},
		execute: async (_id, params) => {
			const found = this.search(String(params?.query ?? ""));
			const fresh = found.filter((t) => !this.loaded.has(t.name)).map((t) => t.name);
			for (const name of fresh) this.loaded.add(name);
			if (fresh.length > 0) this.options.onLoaded(fresh);
			const text =
				found.length === 0
					? "No MCP tool matches. Try other words; every tool's name is listed in this tool's description."
					: `Loaded ${found.length} tool${found.length === 1 ? "" : "s"}; call ${found.length === 1 ? "it" : "them"} by name now:\n\n${found
							.map((t) => `${t.name}: ${t.description}\nparameters: ${JSON.stringify(t.parameters)}`)
							.join("\n\n")}`;
			return { content: [{ type: "text", text }], details: { loaded: found.map((t) => t.name) } };
		},
	};

	/** Whether the MCP schemas are over the limit for this window. */
	searching(contextWindow: number): boolean {
		const tokens = this.options.mcpTools().reduce((n, t) => n + estimateToolTokens(t), 0);
		return tokens > (contextWindow * this.options.percent) / 100;
	}

	/**
	 * The tools one request sends: under the limit, everything but tool_search; over it, the built-in
	 * tools, the loaded MCP tools and tool_search, whose description names every MCP tool.
	 */
	toolsForModel(tools: readonly AgentTool[], contextWindow: number): AgentTool[] {
		const mcp = new Set(this.options.mcpTools().map((t) => t.name));
		if (!this.searching(contextWindow)) return tools.filter((t) => t.name !== TOOL_SEARCH_NAME);
		const unloaded = [...mcp].filter((name) => !this.loaded.has(name));
		return tools
			.filter((t) => !mcp.has(t.name) || this.loaded.has(t.name))
			.map((t) => (t.name === TOOL_SEARCH_NAME ? { ...t, description: searchDescription(unloaded) } : t));
	}

	budget(contextWindow: number): McpToolBudget {
		const mcp = this.options.mcpTools();
		const schemaTokens = mcp.reduce((n, t) => n + estimateToolTokens(t), 0);
		const searching = schemaTokens > (contextWindow * this.options.percent) / 100;
		const sentTools = searching ? mcp.filter((t) => this.loaded.has(t.name)) : mcp;
		const unloaded = mcp.filter((t) => !this.loaded.has(t.name)).map((t) => t.name);
		const searchTokens = searching ? estimateToolTokens({ ...this.tool, description: searchDescription(unloaded) }) : 0;
		return {
			schemaTokens,
			contextWindow,
			limitPercent: this.options.percent,
			searching,
			sent: sentTools.length,
			total: mcp.length,
			sentTokens: sentTools.reduce((n, t) => n + estimateToolTokens(t), 0) + searchTokens,
		};
	}

	/** `select:a,b` by exact name; else tools scored by how many query words their name and description hold. */
	private search(query: string): AgentTool[] {
		const tools = this.options.mcpTools();
		const select = /^select:(.+)$/i.exec(query.trim());
		if (select) {
			const names = new Set(select[1].split(",").map((n) => n.trim()));
			return tools.filter((t) => names.has(t.name)).slice(0, MAX_MATCHES * 4);
		}
		const words = query
			.toLowerCase()
			.split(/[^a-z0-9]+/)
			.filter((w) => w.length > 1);
		if (words.length === 0) return [];
		const scored = tools
			.map((t) => {
				const name = t.name.toLowerCase();
				const text = `${name} ${t.description.toLowerCase()}`;
				const score = words.reduce((n, w) => n + (name.includes(w) ? 3 : 0) + (text.includes(w) ? 1 : 0), 0);
				return { t, score };
			})
			.filter((m) => m.score > 0)
			.sort((a, b) => b.score - a.score);
		// A word every description holds must not crowd out the tool the query names.
		const top = scored[0]?.score ?? 0;
		return scored
			.filter((m) => m.score * 2 >= top)
			.slice(0, MAX_MATCHES)
			.map((m) => m.t);
	}
}

function searchDescription(unloaded: readonly string[]): string {
	return [
		"Find MCP tools and load their schemas. The MCP tools below are available but their parameters are not shown",
		'until you load them: search by words ("query": "create issue") or load by exact name ("query": "select:<name>,<name>"),',
		"then call a loaded tool by its name. A loaded tool stays available for the rest of the session.",
		`Not yet loaded (${unloaded.length}): ${unloaded.join(", ")}`,
	].join("\n");
}

/** The `/mcp` line about the schemas' share. */
export function formatToolBudget(b: McpToolBudget): string {
	const pct = (tokens: number) => (b.contextWindow > 0 ? ((tokens / b.contextWindow) * 100).toFixed(1) : "?");
	const head = `MCP tool schemas: ~${b.schemaTokens} tokens, ${pct(b.schemaTokens)}% of the ${b.contextWindow}-token context (limit ${b.limitPercent}%)`;
	if (!b.searching) return `${head}; all ${b.total} tools sent`;
	return `${head}; tool_search on: ${b.sent} of ${b.total} tools sent (~${b.sentTokens} tokens, ${pct(b.sentTokens)}%)`;
}
