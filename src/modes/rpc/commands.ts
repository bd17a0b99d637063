// The rpc command table: one handler per command of pi's RPC protocol (0.73.1), with pi's request
// fields and response data (docs/rpc.md lists them and where we differ). Handlers validate their own
// fields and throw an Error whose message is the one-line answer; `index.ts` does framing and dispatch.
import { resolve } from "node:path";
import type { AgentMessage } from "../../agent/types.js";
import { THINKING_LEVELS } from "../../ai/constants.js";
import type { ImageContent, Model, ThinkingLevel } from "../../ai/types.js";
import { PERMISSION_MODES } from "../../permissions/types.js";
import type { AgentSession } from "../../session/agent-session.js";
import { exportMarkdown, writeExport } from "../../session/export-markdown.js";
import type { CompactionSummaryMessage } from "../../session/session-messages.js";
import type { ApprovalResponse, ElicitAnswer, PermissionMode, PlanResponse, SessionEvent } from "../../session/types.js";
import { maskHeaders as publicModel } from "../json.js";
import { type CompactionResult, lastAssistantText, type QueueMode, sessionStats, toRpcState } from "./shapes.js";

export type Command = { id?: string | number; type: string; [field: string]: unknown };

/** What the handlers share with the loop: the session, run control, and the connection's own state. */
export interface RpcContext {
	session: AgentSession;
	/** Looks a model up by exact provider and id among the models the user can use. */
	findModel(provider: string, modelId: string): Model | undefined;
	/** True while a run (or what follows it: saving, a threshold compaction) is active. */
	busy(): boolean;
	/** Waits for a run whose agent_end has gone out to settle. */
	settled(): Promise<void>;
	/** Starts a run; its failures are reported as notices. */
	startRun(message: string, images?: ImageContent[]): void;
	/** Resolves when the current run has ended. */
	runEnded(): Promise<void>;
	/** The compaction result of the last compaction_end, for `compact`'s answer. */
	lastCompaction?: CompactionResult | null;
}

/** A handler returns the response's `data` (undefined: none) or throws. */
export type Handler = (command: Command, ctx: RpcContext) => unknown | Promise<unknown>;

const QUEUE_MODES: readonly QueueMode[] = ["all", "one-at-a-time"];
/** Levels `cycle_thinking_level` steps through (xhigh only by `set_thinking_level`: few models take it). */
const CYCLED_LEVELS: readonly ThinkingLevel[] = THINKING_LEVELS.filter((l) => l !== "xhigh");

export const rpcHandlers: Record<string, Handler> = {
	prompt: async (command, ctx) => {
		const typed = inputText(command, ctx);
		// An MCP server's prompt (`/mcp__<server>__<prompt> args`) is sent as its messages, like a markdown command.
		const fromServer = typed.startsWith("/mcp__") ? await ctx.session.expandMcpPrompt(typed.trim()) : undefined;
		if (fromServer && "error" in fromServer) throw new Error(fromServer.error);
		const message = fromServer?.text ?? typed;
		const images = [...(optionalImages(command) ?? []), ...(fromServer?.images ?? [])];
		await ctx.settled();
		if (!ctx.busy()) return ctx.startRun(message, images.length > 0 ? images : undefined);
		const behavior = command.streamingBehavior;
		if (behavior === "steer") ctx.session.steer(message, images);
		else if (behavior === "followUp") ctx.session.followUp(message, images);
		else throw new Error('the agent is busy: pass "streamingBehavior": "steer" or "followUp"');
	},
	// Ours: with `agentId` (a `subagent_start` event's), the message goes to that running sub-agent.
	steer: (command, ctx) => {
		const agentId = optionalString(command, "agentId");
		if (agentId) ctx.session.steerAgent(agentId, inputText(command, ctx), optionalImages(command));
		else ctx.session.steer(inputText(command, ctx), optionalImages(command));
	},
	follow_up: (command, ctx) => {
		const agentId = optionalString(command, "agentId");
		if (agentId) ctx.session.followUpAgent(agentId, inputText(command, ctx), optionalImages(command));
		else ctx.session.followUp(inputText(command, ctx), optionalImages(command));
	},
	abort: async (_command, ctx) => {
		ctx.session.abort();
		await ctx.runEnded();
	},
	new_session: async (command, ctx) => {
		const parentSession = optionalString(command, "parentSession");
		await switchAway(ctx);
		await ctx.session.newSession({ parentSession });
		return { cancelled: false, sessionFile: ctx.session.getState().sessionFile };
	},

	get_state: (_command, ctx) => toRpcState(ctx.session.getState(), stateExtras(ctx)),
	get_messages: (_command, ctx) => ({ messages: ctx.session.getState().messages }),

	set_model: async (command, ctx) => {
		const provider = requireString(command, "provider");
		const modelId = requireString(command, "modelId");
		const model = ctx.findModel(provider, modelId);
		if (!model) throw new Error(`Model not found: ${provider}/${modelId}`);
		await ctx.session.setModel(model);
		return publicModel(model);
	},
	cycle_model: async (_command, ctx) => {
		const models = ctx.session.availableModels();
		if (models.length <= 1) return null;
		const current = ctx.session.getState().model;
		const at = models.findIndex((m) => m.provider === current.provider && m.id === current.id);
		await ctx.session.setModel(models[(at + 1) % models.length]);
		const state = ctx.session.getState();
		return { model: publicModel(state.model), thinkingLevel: state.thinkingLevel, isScoped: false };
	},
	get_available_models: (_command, ctx) => ({ models: ctx.session.availableModels().map(publicModel) }),

	set_thinking_level: (command, ctx) => {
		const level = requireString(command, "level");
		if (!THINKING_LEVELS.includes(level as ThinkingLevel)) {
			throw new Error(`unknown thinking level "${level}" (one of ${THINKING_LEVELS.join(", ")})`);
		}
		ctx.session.setThinkingLevel(level as ThinkingLevel);
	},
	cycle_thinking_level: (_command, ctx) => {
		const state = ctx.session.getState();
		if (!state.model.reasoning) return null;
		const next = CYCLED_LEVELS[(CYCLED_LEVELS.indexOf(state.thinkingLevel) + 1) % CYCLED_LEVELS.length];
		ctx.session.setThinkingLevel(next);
		return { level: ctx.session.getState().thinkingLevel };
	},

	set_steering_mode: (command, ctx) => {
		ctx.session.agent.steeringMode = requireQueueMode(command);
	},
	set_follow_up_mode: (command, ctx) => {
		ctx.session.agent.followUpMode = requireQueueMode(command);
	},

	compact: async (command, ctx) => {
		const instructions = optionalString(command, "customInstructions");
		await ctx.settled();
		ctx.lastCompaction = undefined;
		await ctx.session.compact(instructions);
		if (!ctx.lastCompaction) throw new Error("the compaction ended without a result");
		return ctx.lastCompaction;
	},
	set_auto_compaction: (command, ctx) => {
		ctx.session.settings.compaction.enabled = requireBoolean(command, "enabled");
	},

	set_auto_retry: (command, ctx) => {
		ctx.session.settings.retry.enabled = requireBoolean(command, "enabled");
	},
	// Stops a retry's wait by ending the run (its reply is then "aborted"); nothing to stop otherwise.
	abort_retry: async (_command, ctx) => {
		if (ctx.session.getState().phase.kind !== "retrying") return;
		ctx.session.abort();
		await ctx.runEnded();
	},

	bash: async (command, ctx) => {
		const result = await ctx.session.runShell(requireString(command, "command"));
		return {
			output: result.output,
			...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
			cancelled: result.aborted,
			truncated: result.truncated === true,
		};
	},
	abort_bash: (_command, ctx) => ctx.session.abortShells(),
	// Ours: the model's background jobs (bash run_in_background, or moved there with background_bash).
	list_jobs: (_command, ctx) => ({ jobs: ctx.session.backgroundJobs().list() }),
	kill_job: async (command, ctx) => {
		const jobId = requireString(command, "jobId");
		const job = await ctx.session.backgroundJobs().kill(jobId);
		if (!job) throw new Error(`no background job "${jobId}"`);
		return { job };
	},
	background_bash: (_command, ctx) => ({ jobs: ctx.session.moveToBackground() }),

	get_session_stats: (_command, ctx) => sessionStats(ctx.session.getState()),
	export_html: (command, ctx) => {
		const state = ctx.session.getState();
		const path = resolve(state.cwd, optionalString(command, "outputPath") ?? `rudder-session-${state.sessionId}.html`);
		const model = `${state.model.provider}/${state.model.id}`;
		writeExport(path, markdownPage(`Rudder session ${state.sessionId}`, exportMarkdown(state.messages, { cwd: state.cwd, model })));
		return { path };
	},
	switch_session: async (command, ctx) => {
		const path = requireString(command, "sessionPath");
		await switchAway(ctx);
		await ctx.session.resumeSession(path);
		return { cancelled: false };
	},
	fork: async (command, ctx) => {
		const entryId = requireString(command, "entryId");
		await switchAway(ctx);
		const { text } = await ctx.session.forkAt(entryId);
		return { text, cancelled: false };
	},
	clone: async (_command, ctx) => {
		await switchAway(ctx);
		await ctx.session.cloneSession();
		return { cancelled: false };
	},
	get_fork_messages: (_command, ctx) => ({ messages: ctx.session.forkPoints() }),
	get_last_assistant_text: (_command, ctx) => ({ text: lastAssistantText(ctx.session.getState().messages) }),
	set_session_name: (command, ctx) => {
		ctx.session.setSessionName(requireString(command, "name"));
	},
	// Ours (permissions): the answer to an `approval_request` event; `id` is that event's id.
	approve: (command, ctx) => {
		const id = command.id;
		if (typeof id !== "string") throw new Error('"approve" needs the string "id" of the approval_request');
		const reason = typeof command.reason === "string" ? command.reason : undefined;
		const response = approvalResponse(command.decision, reason, command.scope === "project" ? "project" : "session");
		if (response.decision === "allow" && command.network === true) response.network = true;
		if (!ctx.session.respondToApproval(id, response)) throw new Error(`no approval "${id}" is waiting`);
	},
	// Ours (plan mode): the answer to a `plan_request` event; `id` is that event's id.
	plan_response: (command, ctx) => {
		const id = command.id;
		if (typeof id !== "string") throw new Error('"plan_response" needs the string "id" of the plan_request');
		const decision = requireString(command, "decision");
		let response: PlanResponse;
		if (decision === "approve") {
			const mode = command.mode ?? "auto-edit";
			if (mode !== "auto-edit" && mode !== "ask") throw new Error('"mode" must be "auto-edit" or "ask"');
			response = { decision, mode };
		} else if (decision === "revise") {
			response = { decision, feedback: optionalString(command, "feedback") };
		} else throw new Error('"decision" must be "approve" or "revise"');
		if (!ctx.session.respondToPlan(id, response)) throw new Error(`no plan "${id}" is waiting`);
	},
	// Ours (MCP): the answer to an `elicitation_request` event: `action` accept (with `content` for a form),
	// decline or cancel; the content is checked against the form's fields.
	elicitation_response: (command, ctx) => {
		const id = command.id;
		if (typeof id !== "string") throw new Error('"elicitation_response" needs the string "id" of the elicitation_request');
		const answer = { action: command.action, ...(command.content !== undefined ? { content: command.content } : {}) };
		if (!ctx.session.respondToElicitation(id, answer as ElicitAnswer)) throw new Error(`no elicitation "${id}" is waiting`);
	},
	// Ours: opt in to (or out of) answering `approval_request`s; until then a call that would ask fails.
	set_approvals: (command, ctx) => {
		ctx.session.setApprovals(requireBoolean(command, "enabled"));
	},
	set_permission_mode: (command, ctx) => {
		const mode = requireString(command, "mode");
		if (!(PERMISSION_MODES as readonly string[]).includes(mode))
			throw new Error(`unknown permission mode "${mode}" (one of ${PERMISSION_MODES.join(", ")})`);
		ctx.session.setPermissionMode(mode as PermissionMode);
	},
	get_commands: (_command, ctx) => ({
		// Commands a prompt can invoke: the markdown commands (pi's prompt templates), with pi's SourceInfo.
		// Built-in slash commands are the TUI's, as in pi.
		commands: ctx.session.customCommandList().map((c) => ({
			name: c.name,
			description: c.description,
			source: "prompt",
			sourceInfo: { path: c.path, source: "local", scope: c.scope === "project" ? "project" : "user", origin: "top-level" },
		})),
		// Ours: the MCP servers' prompts, invoked the same way (`/mcp__<server>__<prompt> args`).
		mcpPrompts: ctx.session
			.commands()
			.filter((c) => c.name.startsWith("mcp__") && !ctx.session.customCommandList().some((m) => m.name === c.name))
			.map((c) => ({ name: c.name, description: c.description, ...(c.args ? { args: c.args } : {}) })),
	}),
	// Rewind (ours; docs/rpc.md): checkpoints, code and conversation restores, the session tree.
	rewind: async (command, ctx) => {
		const entryId = requireString(command, "entryId");
		const restore = command.restore ?? "both";
		if (restore !== "code" && restore !== "conversation" && restore !== "both") {
			throw new Error('"restore" must be "code", "conversation" or "both"');
		}
		await ctx.settled();
		return ctx.session.rewindTo(entryId, restore);
	},
	undo: async (_command, ctx) => {
		await ctx.settled();
		return ctx.session.undo();
	},
	branch: async (command, ctx) => {
		await ctx.settled();
		return ctx.session.rewindTo(requireString(command, "entryId"), "conversation");
	},
	get_rewind_points: async (_command, ctx) => ({ points: await ctx.session.rewind.points() }),
	get_tree: (_command, ctx) => ctx.session.rewind.tree(),
	switch_branch: async (command, ctx) => {
		await ctx.settled();
		ctx.session.switchBranch(requireString(command, "leafId"));
	},
};

/** Called on compaction_end: keeps the result `compact` answers with (null when it failed). */
function approvalResponse(decision: unknown, reason: string | undefined, scope: "session" | "project"): ApprovalResponse {
	if (decision === "allow") return { decision };
	if (decision === "always") return { decision, scope };
	if (decision === "deny") return reason ? { decision, reason } : { decision };
	throw new Error('"decision" must be "allow", "always" or "deny"');
}

export function compactionResultOf(
	event: Extract<SessionEvent, { type: "compaction_end" }>,
	session: AgentSession,
): CompactionResult | null {
	if (event.summary === undefined) return null;
	// The transcript is now the summary, then the kept messages (already in the file).
	const [first, kept] = session.getState().messages as [CompactionSummaryMessage | undefined, AgentMessage | undefined];
	const firstKeptEntryId = kept ? session.entryIdOf(kept) : undefined;
	return {
		summary: event.summary,
		...(firstKeptEntryId ? { firstKeptEntryId } : {}),
		tokensBefore: first?.role === "compactionSummary" ? first.tokensBefore : 0,
		details: {},
	};
}

function stateExtras(ctx: RpcContext) {
	const { agent, settings } = ctx.session;
	return {
		steeringMode: agent.steeringMode,
		followUpMode: agent.followUpMode,
		autoCompactionEnabled: settings.compaction.enabled,
	};
}

/** Before leaving the session: the run settles, or the command fails while it runs. */
async function switchAway(ctx: RpcContext): Promise<void> {
	await ctx.settled();
	if (ctx.busy()) throw new Error("the agent is busy: abort first");
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A self-contained page showing the transcript's markdown as text: nothing in it is interpreted. */
function markdownPage(title: string, markdown: string): string {
	return [
		"<!doctype html>",
		'<html><head><meta charset="utf-8">',
		`<title>${escapeHtml(title)}</title>`,
		"<style>body{font:14px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;word-break:break-word}</style>",
		`</head><body><h1>${escapeHtml(title)}</h1><pre>${escapeHtml(markdown)}</pre></body></html>`,
		"",
	].join("\n");
}

/** The `message` to send: a line naming a markdown command (`/name args`) is sent as its expanded prompt, as in pi. */
function inputText(command: Command, ctx: RpcContext): string {
	const message = requireString(command, "message");
	return (message.startsWith("/") && ctx.session.expandCustomCommand(message.trim())) || message;
}

function requireString(command: Command, field: string): string {
	const value = command[field];
	if (typeof value !== "string") throw new Error(`"${command.type}" needs a string "${field}"`);
	return value;
}

function optionalString(command: Command, field: string): string | undefined {
	const value = command[field];
	if (value !== undefined && typeof value !== "string") throw new Error(`"${command.type}": "${field}" must be a string`);
	return value;
}

function requireBoolean(command: Command, field: string): boolean {
	const value = command[field];
	if (typeof value !== "boolean") throw new Error(`"${command.type}" needs a boolean "${field}"`);
	return value;
}

function requireQueueMode(command: Command): QueueMode {
	const mode = command.mode;
	if (!QUEUE_MODES.includes(mode as QueueMode)) throw new Error(`"${command.type}" needs "mode": "all" or "one-at-a-time"`);
	return mode as QueueMode;
}

function optionalImages(command: Command): ImageContent[] | undefined {
	const images = command.images;
	if (images === undefined) return undefined;
	const valid =
		Array.isArray(images) &&
		images.every((i) => i && typeof i === "object" && i.type === "image" && typeof i.data === "string" && typeof i.mimeType === "string");
	if (!valid) throw new Error(`"${command.type}": "images" must be a list of {"type":"image","data","mimeType"}`);
	return (images as ImageContent[]).map(({ data, mimeType }) => ({ type: "image", data, mimeType }));
}
