// The one registry of `/commands`, used by every mode, the UI's own commands included. A command
// reports through session notices, so the interactive app, print and rpc modes show the same text; one
// that needs the UI (a bare `/model` or `/resume`: a picker) returns a `CommandUiRequest` when the caller
// says it can act on one, and answers in text otherwise. No UI keeps its own list of commands.

import { DEMO_PROVIDER, type Model, THINKING_LEVELS, type ThinkingLevel } from "../ai/index.js";
import { shownPath } from "../config/paths.js";
import { formatHookList, type HookListing } from "../extensions/hooks/user-hooks.js";
import { formatMcpServers, type McpServerInfo } from "../extensions/mcp/manager.js";
import { formatToolBudget, type McpToolBudget } from "../extensions/mcp/tool-search.js";
import type { Skill } from "../extensions/skills.js";
import type { RuleAdmin, RuleKind } from "../permissions/rule-admin.js";
import { PERMISSION_MODES, type PermissionMode, type PermissionRule } from "../permissions/types.js";
import { sanitizeTerminalText } from "../safety/sanitize.js";
import { type BackgroundJobs, describeEnd, formatSize, type JobInfo } from "../tools/index.js";
import { initPrompt } from "./init-prompt.js";
import { MEMORY_SCOPES, type MemoryScope, type MemoryTarget } from "./memory-file.js";
import { describeOpenSession, type RewindCommandHost, rewindCommands } from "./rewind-commands.js";
import type { SessionInfo } from "./session-store.js";
import type { AgentDefinition } from "./subagents/agent-definitions.js";
import { formatTodos } from "./todos/todo-list.js";
import type { CommandUiRequest, SessionState, SlashCommandInfo } from "./types.js";

/** What commands need from the session. `AgentSession` implements it. */
export interface SlashCommandHost extends RewindCommandHost {
	getState(): SessionState;
	notify(level: "info" | "warning" | "error", text: string): void;
	availableModels(): Model[];
	findModel(pattern: string): Model | undefined;
	setModel(model: Model): Promise<void>;
	setThinkingLevel(level: ThinkingLevel): void;
	newSession(): Promise<void>;
	listSessions(): SessionInfo[];
	resumeSession(idPrefixOrPath: string, options?: { fork?: boolean }): Promise<void>;
	compact(instructions?: string): Promise<void>;
	exportMarkdown(file: string): string;
	login(provider: string, key: string): void;
	requestQuit(): void;
	commands(): SlashCommandInfo[];
	/** Skills offered to the model (their names, descriptions and SKILL.md paths). */
	skills(): readonly Skill[];
	/** The agent definitions the task tool can start (`/agents`). */
	agentDefinitions(): readonly AgentDefinition[];
	mcpServers(): readonly McpServerInfo[];
	/** The MCP schemas' share of the context window and what is sent (absent: no MCP servers). */
	mcpToolBudget(): McpToolBudget | undefined;
	/** Trusts (or declines) the project's MCP servers; returns the names it applied to. */
	answerMcpTrust(allow: boolean): string[];
	/** Signs in to an http MCP server (the browser opens) and restarts it; reports through notices. */
	mcpSignIn(name: string): Promise<void>;
	/** Deletes the stored sign-in of an http MCP server. */
	mcpSignOut(name: string): Promise<void>;
	hookList(): readonly HookListing[];
	/** Trusts (or declines) the project's hooks that do not run; returns their commands. */
	answerHooksTrust(allow: boolean): string[];
	setPermissionMode(mode: PermissionMode): void;
	/** The rules in force and the workspace folders, for `/permissions`. */
	permissionDetails(): { allow: readonly PermissionRule[]; deny: readonly PermissionRule[]; workspace: readonly string[] };
	permissionRules(): RuleAdmin;
	/** The model's background jobs, for `/ps`. */
	backgroundJobs(): BackgroundJobs;
	/** The AGENTS.md files `/memory` and `#text` add to (memory-file.ts). */
	memoryTargets(): MemoryTarget[];
	/** Adds `- text` to the scope's AGENTS.md; returns the file. Throws one line naming the file. */
	addMemory(scope: MemoryScope, text: string): string;
	/** Starts a run with a command's own prompt (`/init`); rejects while a run is active. */
	promptFromCommand(text: string): void;
}

/** How the command was called: `ui` when the caller can act on a `CommandUiRequest` (the TUI). */
export interface SlashCommandContext {
	ui: boolean;
}

export interface SlashCommand extends SlashCommandInfo {
	/** Reports through notices; a command that needs the UI (a picker) returns what to show instead. */
	run(session: SlashCommandHost, args: string, context: SlashCommandContext): Promise<CommandResult> | CommandResult;
}

type CommandResult = void | { ui: CommandUiRequest };

const money = (n: number) => `$${n.toFixed(4)}`;

function describeSession(s: SessionInfo): string {
	const first = s.firstMessage.replace(/\s+/g, " ").slice(0, 50);
	return `${s.id.slice(0, 8)}  ${s.modified.toISOString().slice(0, 16).replace("T", " ")}  ${s.messageCount} messages${first ? `  "${first}"` : ""}`;
}

/** One `/ps` row: id, status, age, output size, command. */
function describeJob(job: JobInfo, now: number): string {
	const age = Math.round((now - job.startedAt) / 1000);
	const ageText = age >= 60 ? `${Math.floor(age / 60)}m${age % 60}s` : `${age}s`;
	return `${job.id}  ${describeEnd(job)}  ${ageText}  ${formatSize(job.outputBytes)}  ${job.command.replace(/\s+/g, " ").slice(0, 60)}`;
}

async function psCommand(s: SlashCommandHost, args: string): Promise<void> {
	const jobs = s.backgroundJobs();
	const [verb, id] = args.trim().split(/\s+/);
	if (verb === "kill") {
		if (!id) return s.notify("error", "/ps kill needs a job id, e.g. /ps kill bg1");
		const info = await jobs.kill(id);
		return info ? s.notify("info", `${info.id} ${describeEnd(info)}: ${info.command}`) : s.notify("error", `No background job "${id}"`);
	}
	if (verb) return s.notify("error", `/ps takes no argument or "kill <id>", not "${args.trim()}"`);
	const list = jobs.list();
	const now = Date.now();
	s.notify("info", list.length === 0 ? "No background jobs." : list.map((j) => describeJob(j, now)).join("\n"));
}

export const slashCommands: readonly SlashCommand[] = [
	{
		name: "ps",
		args: "[kill <id>]",
		description: "List the background jobs, or stop one",
		run: (s, args) => psCommand(s, args),
	},
	{
		name: "help",
		description: "List the commands (in the app also the keys)",
		run: (s, _args, ctx) =>
			// The app lists its keys too, from its key table: it shows the help itself.
			ctx.ui
				? { ui: "help" }
				: s.notify(
						"info",
						s
							.commands()
							.map((c) => `/${c.name}${c.args ? ` ${c.args}` : ""}  ${c.description}${c.source ? ` (${c.source})` : ""}`)
							.concat(
								"!cmd  Run a shell command; its output goes to the context",
								"!!cmd  Run a shell command, output not sent to the model",
							)
							.join("\n"),
					),
	},
	{
		name: "model",
		description: "Switch model (no argument: list the models you can use)",
		args: "[pattern]",
		run: async (s, args, ctx) => {
			const current = s.getState().model;
			if (!args && ctx.ui) return { ui: "pick-model" };
			if (!args) {
				const lines = s
					.availableModels()
					.map((m) => `${m.provider === current.provider && m.id === current.id ? "*" : " "} ${m.provider}/${m.id}`);
				s.notify("info", `Models (switch with /model <pattern>):\n${lines.join("\n")}`);
				return;
			}
			const model = s.findModel(args);
			if (!model) return s.notify("error", `No model matches "${args}" (list them with /model)`);
			await s.setModel(model);
			s.notify("info", `Model: ${model.provider}/${model.id}`);
		},
	},
	{
		name: "thinking",
		description: "Set the thinking level",
		args: "<off|minimal|low|medium|high|xhigh>",
		run: (s, args) => {
			if (!args) return s.notify("info", `Thinking: ${s.getState().thinkingLevel} (one of ${THINKING_LEVELS.join(", ")})`);
			if (!THINKING_LEVELS.includes(args as ThinkingLevel)) {
				return s.notify("error", `Unknown thinking level "${args}" (one of ${THINKING_LEVELS.join(", ")})`);
			}
			s.setThinkingLevel(args as ThinkingLevel);
			const { thinkingLevel } = s.getState();
			// A level the model cannot use is clamped, and the session's warning says why.
			if (thinkingLevel !== args) return;
			s.notify("info", `Thinking: ${thinkingLevel}`);
		},
	},
	{
		name: "permissions",
		description: "Show the permission mode, rules and workspace, switch mode, or add / remove a rule",
		args: "[<mode>|allow|deny|remove <rule>]",
		run: (s, args, ctx) => {
			const change = /^(allow|deny|remove)\s+(.+)$/s.exec(args);
			if (change) {
				const [, verb, text] = change;
				try {
					if (verb === "remove") {
						const removed = s.permissionRules().remove(text);
						return s.notify("info", removed.map((e) => `Removed ${e.kind} ${e.text} (${e.scope})`).join("\n"));
					}
					const added = s.permissionRules().add(verb as RuleKind, text, { origin: `/permissions ${verb}` });
					return s.notify("info", `Added ${added.kind} ${added.text} (${added.scope}${added.file ? `, ${added.file}` : ""})`);
				} catch (error) {
					return s.notify("error", (error as Error).message);
				}
			}
			if (args) {
				if (!(PERMISSION_MODES as readonly string[]).includes(args)) {
					return s.notify("error", `Unknown permission mode "${args}" (one of ${PERMISSION_MODES.join(", ")})`);
				}
				s.setPermissionMode(args as PermissionMode);
				return s.notify("info", `Permission mode: ${args}`);
			}
			const st = s.getState();
			const { allow, deny, workspace } = s.permissionDetails();
			const rules = (list: readonly PermissionRule[]) =>
				list.length ? list.map((r) => `  ${r.text}  (${r.scope ?? "session"}: ${r.source})`) : ["  (none)"];
			const sandbox = { bwrap: "bwrap (workspace and /tmp writable, .git read-only)", none: "none available", off: "off (yolo)" };
			const about = [
				`Permission mode: ${st.permissionMode ?? "ask"} (Shift+Tab or /permissions <mode> to change; one of ${PERMISSION_MODES.join(", ")})`,
				`Sandbox for bash: ${sandbox[st.sandbox ?? "none"]}`,
				`Workspace: ${workspace.join(", ")}`,
			];
			// The app lists the rules on a screen of its own, where they can be removed and added.
			if (ctx.ui) {
				s.notify("info", about.join("\n"));
				return { ui: "permissions" };
			}
			s.notify(
				"info",
				[
					about[0],
					"Rules: /permissions allow <rule>, /permissions deny <rule>, /permissions remove <rule>; rudder permissions in a shell",
					...about.slice(1),
					"Allow:",
					...rules(allow),
					"Deny:",
					...rules(deny),
				].join("\n"),
			);
		},
	},
	{
		name: "init",
		description: "Have the model look through the repository and write or update AGENTS.md (the change is shown for approval)",
		args: "[what to focus on]",
		run: (s, args) => {
			if (s.getState().isStreaming) return s.notify("error", "/init starts a run: wait for this one to end, or press Esc to stop it");
			s.promptFromCommand(initPrompt(args));
		},
	},
	{
		name: "memory",
		description: "Show the AGENTS.md files #text adds to, or add a line to one",
		args: "[project|global <text>]",
		run: (s, args) => {
			const add = /^(project|global)\s+(.+)$/s.exec(args);
			if (add) {
				try {
					const file = s.addMemory(add[1] as MemoryScope, add[2]);
					return s.notify("info", `Added to ${sanitizeTerminalText(shownPath(file))} (read from the next session on)`);
				} catch (error) {
					return s.notify("error", (error as Error).message);
				}
			}
			if (args) return s.notify("error", `Usage: /memory [${MEMORY_SCOPES.join("|")} <text>]`);
			const rows = s.memoryTargets().map((t) => `  ${t.scope}  ${shownPath(t.file)}${t.exists ? "" : " (created on the first line)"}`);
			s.notify("info", ["Memory files (a line starting with # in the app adds to one of them):", ...rows].join("\n"));
		},
	},
	{
		name: "new",
		description: "Start a new session",
		run: async (s) => {
			await s.newSession();
			s.notify("info", "New session");
		},
	},
	{
		name: "clear",
		description: "Start a new session (the same as /new)",
		run: async (s) => {
			await s.newSession();
			s.notify("info", "New session");
		},
	},
	{
		name: "resume",
		description: "List this folder's sessions, or switch to one by id (--fork: continue in a copy)",
		args: "[--fork] [id]",
		run: async (s, args, ctx) => {
			if (!args) {
				const sessions = s.listSessions();
				if (sessions.length === 0) return s.notify("info", "No saved sessions in this folder yet");
				if (ctx.ui) return { ui: "pick-session" };
				return s.notify("info", `Sessions (resume with /resume <id>):\n${sessions.slice(0, 20).map(describeSession).join("\n")}`);
			}
			const fork = /(^|\s)--fork(\s|$)/.test(args);
			const target = args.replace(/(^|\s)--fork(?=\s|$)/, "").trim();
			if (!target) return s.notify("error", "Usage: /resume [--fork] <id>");
			try {
				await s.resumeSession(target, { fork });
			} catch (error) {
				// The lock's hint names the command line flag; here the way on is this command.
				if (!(error instanceof Error) || error.name !== "SessionLockedError") throw error;
				return s.notify("error", error.message.replace("(--fork)", `(/resume --fork ${target})`));
			}
			s.notify("info", `${fork ? "Forked into" : "Resumed"} ${describeOpenSession(s)}`);
		},
	},
	{
		name: "session",
		description: "Show the session file, message counts, tokens and cost",
		run: (s) => {
			const st = s.getState();
			const count = (role: string) => st.messages.filter((m) => m.role === role).length;
			const t = st.totals;
			s.notify(
				"info",
				[
					`Session: ${st.sessionId}`,
					`File: ${st.sessionFile ?? "(not saved)"}`,
					`Messages: ${st.messages.length} (user ${count("user")}, assistant ${count("assistant")}, tool results ${count("toolResult")})`,
					`Tokens: input ${t.input}, output ${t.output}, cache read ${t.cacheRead}, cache write ${t.cacheWrite}`,
					`Context: ${st.contextTokens} of ${st.contextWindow}`,
					`Cost: ${money(t.cost)}`,
					...(st.todos?.length ? [`Todo list:\n${formatTodos(st.todos)}`] : []),
				].join("\n"),
			);
		},
	},
	{
		name: "compact",
		description: "Summarise older turns to free context",
		args: "[instructions]",
		run: async (s, args) => {
			// Failures are reported by the compaction_end event; nothing more to say here.
			await s.compact(args || undefined).catch(() => undefined);
		},
	},
	{
		name: "export",
		description: "Write the transcript as markdown (default: rudder-session-<date>-<time>.md here)",
		args: "[file]",
		run: (s, args) => {
			s.notify("info", `Exported to ${s.exportMarkdown(args || datedExportName(new Date()))}`);
		},
	},
	{
		name: "login",
		description: "Store an API key for a provider (in the app, without <key>: a masked field asks for it)",
		args: "<provider> <key>",
		run: async (s, args, ctx) => {
			const [provider, key, ...rest] = args.split(/\s+/).filter(Boolean);
			// Typed into a masked field, the key is never on screen nor in the input history.
			if (provider && !key && ctx.ui) return { ui: { kind: "login-key", provider } };
			if (!provider || !key || rest.length > 0) return s.notify("error", "Usage: /login <provider> <key>");
			s.login(provider, key);
			// On the offline demo, a first key means "use this provider now": switch to its first model.
			const next = s.getState().model.provider === DEMO_PROVIDER ? s.availableModels().find((m) => m.provider === provider) : undefined;
			if (!next) return s.notify("info", `Stored the API key for ${provider}`);
			await s.setModel(next);
			s.notify("info", `Stored the API key for ${provider}; now using ${provider}/${next.id} (/model to change)`);
		},
	},
	{
		name: "mcp",
		description: "List MCP servers and their tools; allow or deny this project's servers; sign in to or out of a server",
		args: "[allow|deny|login <server>|logout <server>]",
		run: async (s, args) => {
			const [action, name, ...rest] = args.split(/\s+/).filter(Boolean);
			if (action === "login" || action === "logout") {
				if (!name || rest.length > 0) return s.notify("error", `Usage: /mcp ${action} <server>`);
				// Sign-in waits for the browser (minutes): it goes on in the background and reports in notices.
				if (action === "login") return void s.mcpSignIn(name);
				return await s.mcpSignOut(name);
			}
			if (args === "allow" || args === "deny") {
				const names = s.answerMcpTrust(args === "allow");
				if (names.length === 0) return s.notify("info", "No project MCP servers are waiting for an answer");
				return s.notify(
					"info",
					`${args === "allow" ? "Trusted and starting" : "Declined (not started)"}: ${names.join(", ")}; remembered for this folder`,
				);
			}
			if (args) return s.notify("error", "Usage: /mcp [allow|deny|login <server>|logout <server>]");
			const budget = s.mcpToolBudget();
			s.notify("info", `${formatMcpServers(s.mcpServers())}${budget && budget.total > 0 ? `\n${formatToolBudget(budget)}` : ""}`);
		},
	},
	{
		name: "hooks",
		description: "List the hooks (event, matcher, file, trust); trust or deny this project's hooks",
		args: "[trust|deny]",
		run: (s, args) => {
			if (args === "trust" || args === "deny") {
				const commands = s.answerHooksTrust(args === "trust");
				if (commands.length === 0) return s.notify("info", "No project hooks are waiting for an answer");
				const what = args === "trust" ? "Trusted (they run from now on)" : "Declined (they do not run)";
				return s.notify("info", sanitizeTerminalText(`${what}, remembered for this folder:\n${commands.map((c) => `  ${c}`).join("\n")}`));
			}
			if (args) return s.notify("error", "Usage: /hooks [trust|deny]");
			s.notify("info", formatHookList(s.hookList()));
		},
	},
	{
		name: "agents",
		description: "List the sub-agents the task tool can start, with where each is defined",
		run: (s) => {
			const lines = s.agentDefinitions().map((d) => {
				const tools = d.tools ? d.tools.join(", ") : "all tools";
				const model = d.model ? ` · model ${d.model}` : "";
				return `${d.name}  ${d.description}\n    ${d.path ?? "built in"} (${d.source}) · ${tools}${model}`;
			});
			s.notify("info", `Agents (add Markdown files to .rudder/agents/, .claude/agents/ or the global agents folder):\n${lines.join("\n")}`);
		},
	},
	{
		name: "skills",
		description: "List the skills the model can load",
		run: (s) => {
			const skills = s.skills();
			if (skills.length === 0) {
				return s.notify("info", "No skills (add a folder with SKILL.md to .rudder/skills/, .claude/skills/ or the global skills folder)");
			}
			const lines = skills.map((k) => `${k.name}  ${k.description}\n    ${k.path}${k.shadows ? ` (shadows ${k.shadows})` : ""}`);
			s.notify("info", `Skills (the model reads one when a task matches):\n${lines.join("\n")}`);
		},
	},
	// Checkpoints, rewind and the session tree (rewind-commands.ts).
	...rewindCommands,
	{
		name: "quit",
		description: "Quit Rudder",
		run: (s) => s.requestQuit(),
	},
	{
		name: "exit",
		description: "Quit Rudder (as /quit)",
		run: (s) => s.requestQuit(),
	},
];

/** Splits `/name rest of line`; undefined when the text is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
	const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	return { name: match[1].toLowerCase(), args: (match[2] ?? "").trim() };
}

/** Runs one command line; an unknown name or a failing command becomes one error notice. */
export async function runSlashCommand(
	host: SlashCommandHost,
	text: string,
	commands: readonly SlashCommand[] = slashCommands,
	context: SlashCommandContext = { ui: false },
): Promise<{ name: string; ui?: CommandUiRequest }> {
	const parsed = parseSlashCommand(text);
	const name = parsed?.name ?? text.trim().slice(1).split(/\s/)[0] ?? "";
	const command = parsed && commands.find((c) => c.name === parsed.name);
	if (!command || !parsed) {
		host.notify("error", `Unknown command /${name} (type /help for the list)`);
		return { name };
	}
	try {
		const result = await command.run(host, parsed.args, context);
		if (result) return { name: command.name, ui: result.ui };
	} catch (error) {
		host.notify("error", `/${command.name} failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	return { name: command.name };
}

/** `/export`'s file without a name: `rudder-session-2026-12-04-1742.md`, local time, in the working folder. */
export function datedExportName(at: Date): string {
	const two = (n: number) => String(n).padStart(2, "0");
	const date = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
	return `rudder-session-${date}-${two(at.getHours())}${two(at.getMinutes())}.md`;
}
