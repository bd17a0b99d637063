// What the user's folders add to a session: markdown commands (`/name`), skills listed in the system
// prompt, and MCP servers whose tools join the built-in ones once they are ready (a run works on its
// own copy of the tools, so a change mid-run applies from the next run).
import type { AgentTool } from "../agent/types.js";
import type { ImageContent } from "../ai/types.js";
import { type CustomCommand, expandCommand } from "../extensions/custom-commands.js";
import type { LoadedMcpConfig } from "../extensions/mcp/config.js";
import type { McpElicitHandler } from "../extensions/mcp/elicitation.js";
import {
	McpManager,
	type McpPromptCommand,
	type McpServerInfo,
	type McpStartMode,
	type McpTrustRequest,
} from "../extensions/mcp/manager.js";
import { promptArgsHint, promptArguments } from "../extensions/mcp/prompts.js";
import { resourceReferences } from "../extensions/mcp/resources.js";
import { DEFAULT_SCHEMA_PERCENT, type McpToolBudget, ToolSearch } from "../extensions/mcp/tool-search.js";
import type { Skill } from "../extensions/skills.js";
import { withRedactedResults } from "./redacting-tools.js";
import { globalSettingsPath } from "./settings.js";
import { parseSlashCommand, slashCommands } from "./slash-commands.js";
import type { SlashCommandInfo } from "./types.js";

type Env = Record<string, string | undefined>;

export interface ExtensionHostDeps {
	cwd: string;
	env: Env;
	customCommands: readonly CustomCommand[];
	/** The skills offered to the model (see `offeredSkills`). */
	skills: readonly Skill[];
	/** MCP servers; they start on `startMcpServers` or the first prompt. */
	mcp: LoadedMcpConfig | undefined;
	/** Answers the servers' `elicitation/create` (elicitation-prompts.ts). */
	elicit: McpElicitHandler;
	/** The `tools.mcpSchemaPercent` setting (tool-search.ts); default DEFAULT_SCHEMA_PERCENT. */
	mcpSchemaPercent?: number;
	/** Keeps the names of the MCP tools a search loaded in the session file. */
	saveLoadedTools: (names: string[]) => void;
	builtInTools: readonly AgentTool[];
	/** The tool list changed: the built-in tools and every ready MCP server's. */
	setTools: (tools: AgentTool[]) => void;
	notify: (level: "info" | "warning" | "error", text: string) => void;
}

/** The model reads a skill's body with `read`; without that tool a listed skill would be a dead end. */
export function offeredSkills(skills: readonly Skill[], tools: readonly AgentTool[]): readonly Skill[] {
	return tools.some((t) => t.name === "read") ? skills : [];
}

export class ExtensionHost {
	private readonly commandsByName: ReadonlyMap<string, CustomCommand>;
	private readonly mcp?: McpManager;
	private readonly toolSearch?: ToolSearch;

	constructor(private readonly deps: ExtensionHostDeps) {
		this.commandsByName = new Map(deps.customCommands.map((c) => [c.name, c]));
		if (deps.mcp && deps.mcp.servers.length > 0) {
			const search = new ToolSearch({
				percent: deps.mcpSchemaPercent ?? DEFAULT_SCHEMA_PERCENT,
				mcpTools: () => mcp.tools(),
				onLoaded: deps.saveLoadedTools,
			});
			const mcp: McpManager = new McpManager({
				servers: deps.mcp.servers,
				trust: deps.mcp.trust,
				cwd: deps.cwd,
				env: deps.env,
				notify: deps.notify,
				elicit: deps.elicit,
				// The same redactor as the built-in tools: results, updates and thrown errors (a server's own message).
				// tool_search is always in the list; each request sends it only while the schemas are over the limit.
				onToolsChanged: () => deps.setTools([...deps.builtInTools, search.tool, ...mcp.tools()].map(withRedactedResults)),
			});
			this.toolSearch = search;
			mcp.setSettingsPath(globalSettingsPath(deps.env));
			this.mcp = mcp;
		}
	}

	/** The built-in commands and the markdown ones, for completion and `/help`. */
	commands(): SlashCommandInfo[] {
		const builtIn = slashCommands.map(({ name, description, args }) => ({ name, description, args }));
		const custom = [...this.commandsByName.values()].map((c) => ({
			name: c.name,
			description: c.description,
			args: c.argumentHint,
			source: c.shadows ? `project command ${c.path}, shadows the global ${c.shadows}` : `${c.scope} command ${c.path}`,
		}));
		const prompts = this.mcpPrompts().map((p) => ({
			name: p.name,
			description: `${p.prompt.description || p.prompt.name} (MCP server ${p.server})`,
			args: promptArgsHint(p.prompt),
			source: `prompt of the MCP server ${p.server}`,
		}));
		return [...builtIn, ...custom, ...prompts];
	}

	/** The MCP prompts as commands; never one a built-in or a markdown command already names (those win). */
	private mcpPrompts(): McpPromptCommand[] {
		const taken = (name: string) => this.commandsByName.has(name) || slashCommands.some((c) => c.name === name);
		return (this.mcp?.promptCommands() ?? []).filter((p) => !taken(p.name));
	}

	/**
	 * The prompt of an MCP prompt's `/mcp__server__prompt args` line: undefined when the line names none,
	 * else its text and images, or the reason it could not be had (a missing argument, the server's error).
	 */
	async expandMcpPrompt(line: string): Promise<{ text: string; images: ImageContent[] } | { error: string } | undefined> {
		const parsed = parseSlashCommand(line);
		if (!parsed || !this.mcp || !parsed.name.startsWith("mcp__")) return undefined;
		// Typed before the servers were up (-p starts them with the first prompt): wait for them as a prompt does.
		if (!this.mcpPrompts().some((p) => p.name === parsed.name)) await this.mcpReady();
		const command = this.mcpPrompts().find((p) => p.name === parsed.name);
		if (!command) return undefined;
		const args = promptArguments(command.prompt, parsed.args);
		if ("error" in args)
			return { error: `/${command.name} ${args.error} (usage: /${command.name} ${promptArgsHint(command.prompt) ?? ""})` };
		try {
			return await this.mcp.expandPrompt(command, args.args);
		} catch (error) {
			return { error: `/${command.name}: ${(error as Error).message}` };
		}
	}

	/** `@server:uri` words of a prompt: each resource appended like an attached file; warnings for those that fail. */
	async attachMcpResources(text: string): Promise<{ text: string; warnings: string[] }> {
		const mcp = this.mcp;
		if (mcp && resourceReferences(text, mcp.configuredNames()).length > 0) await this.mcpReady();
		const refs = mcp ? resourceReferences(text, mcp.resourceServers()) : [];
		if (!mcp || refs.length === 0) return { text, warnings: [] };
		const blocks: string[] = [];
		const warnings: string[] = [];
		for (const ref of refs) {
			try {
				const added = await mcp.attachResource(ref.server, ref.uri, ref.written);
				if ("block" in added) blocks.push(added.block);
				else warnings.push(added.warning);
			} catch (error) {
				warnings.push(`@${ref.written} not attached: ${(error as Error).message}`);
			}
		}
		return { text: blocks.length > 0 ? `${text}\n\n${blocks.join("\n\n")}` : text, warnings };
	}

	customCommandList(): readonly CustomCommand[] {
		return [...this.commandsByName.values()];
	}

	/** The prompt of a custom `/command` line, or undefined when the line names no custom command. */
	expandCustomCommand(line: string): string | undefined {
		const parsed = parseSlashCommand(line);
		const command = parsed && this.commandsByName.get(parsed.name);
		return command && parsed ? expandCommand(command.template, parsed.args) : undefined;
	}

	skills(): readonly Skill[] {
		return this.deps.skills;
	}

	startMcpServers(mode: McpStartMode): void {
		this.mcp?.start(mode);
	}

	/** Servers still starting hold the request a few seconds at most, so their tools are offered. */
	async mcpReady(): Promise<void> {
		if (!this.mcp) return;
		this.mcp.start("headless");
		await this.mcp.whenReady();
	}

	mcpTrustRequest(): McpTrustRequest | undefined {
		return this.mcp?.trustRequest();
	}

	answerMcpTrust(allow: boolean): string[] {
		return this.mcp?.answerTrust(allow) ?? [];
	}

	/** `/mcp login <name>`: every outcome is a notice. */
	async mcpSignIn(name: string): Promise<void> {
		if (!this.mcp) return this.deps.notify("error", `No MCP server "${name}"`);
		await this.mcp.signIn(name);
	}

	async mcpSignOut(name: string): Promise<void> {
		if (!this.mcp) return this.deps.notify("error", `No MCP server "${name}"`);
		await this.mcp.signOut(name);
	}

	mcpServers(): readonly McpServerInfo[] {
		return this.mcp?.servers() ?? [];
	}

	/** The tools one request sends (tool-search.ts): all of them while the MCP schemas fit their share. */
	toolsForModel<T extends { name: string }>(tools: T[], contextWindow: number): T[] {
		return this.toolSearch ? (this.toolSearch.toolsForModel(tools as never, contextWindow) as unknown as T[]) : tools;
	}

	mcpToolBudget(contextWindow: number): McpToolBudget | undefined {
		return this.toolSearch?.budget(contextWindow);
	}

	/** A new session has loaded no MCP tools; a resumed one those of its file. */
	readonly restoreLoadedTools = (names: readonly string[]): void => {
		this.toolSearch?.restore(names);
	};

	/** The servers' credentials, for the session file's redaction. */
	secrets(): string[] {
		return this.mcp?.secrets() ?? [];
	}

	async dispose(): Promise<void> {
		await this.mcp?.dispose();
	}
}
