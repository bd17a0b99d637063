// What a hook reads on stdin: one JSON object in Claude Code's field names, so a script written for
// Claude Code reads `tool_name`, `tool_input.file_path` or `prompt` here unchanged. And what a matcher
// is tested against for each event.
import { EVENT_FACTS } from "./events.js";
import { claudeToolCall, matchNames } from "./tool-names.js";
import type { HookInput, HookSession } from "./types.js";

/** Rudder's permission modes by Claude Code's names for them. */
const PERMISSION_MODES: Readonly<Record<string, string>> = Object.freeze({
	ask: "default",
	"auto-edit": "acceptEdits",
	plan: "plan",
	yolo: "bypassPermissions",
});

/** `tool_response` as Claude Code shapes it for the tools scripts look at most; the text for the rest. */
function toolResponse(tool: string, args: unknown, cwd: string, result: { text: string; isError: boolean }): unknown {
	const input = claudeToolCall(tool, args, cwd).input as Record<string, unknown>;
	if (tool === "bash") return { stdout: result.text, stderr: "", interrupted: false, isError: result.isError };
	if (typeof input.file_path === "string") return { filePath: input.file_path, success: !result.isError, output: result.text };
	return { output: result.text, success: !result.isError };
}

export function hookPayload(input: HookInput, session: HookSession): Record<string, unknown> {
	const mode = session.permissionMode;
	const base: Record<string, unknown> = {
		session_id: session.sessionId,
		transcript_path: session.transcriptPath,
		cwd: session.cwd,
		...(mode !== undefined ? { permission_mode: Object.hasOwn(PERMISSION_MODES, mode) ? PERMISSION_MODES[mode] : mode } : {}),
		hook_event_name: input.event,
	};
	switch (input.event) {
		case "PreToolUse": {
			const call = claudeToolCall(input.tool, input.args, session.cwd);
			return { ...base, tool_name: call.name, tool_input: call.input, ...(input.toolCallId ? { tool_use_id: input.toolCallId } : {}) };
		}
		case "PostToolUse": {
			const call = claudeToolCall(input.tool, input.args, session.cwd);
			return {
				...base,
				tool_name: call.name,
				tool_input: call.input,
				tool_response: toolResponse(input.tool, input.args, session.cwd, input.result),
				...(input.toolCallId ? { tool_use_id: input.toolCallId } : {}),
			};
		}
		case "UserPromptSubmit":
			return { ...base, prompt: input.prompt };
		case "Stop":
			return { ...base, stop_hook_active: input.stopHookActive };
		case "SubagentStop":
			// A sub-agent's messages are a side branch of the session's file, so its transcript is that file too.
			return {
				...base,
				stop_hook_active: input.stopHookActive,
				agent_id: input.agentId,
				agent_type: input.agentType,
				agent_transcript_path: session.transcriptPath,
				last_assistant_message: input.lastAssistantMessage,
			};
		case "SessionStart":
			return { ...base, source: input.source };
		case "SessionEnd":
			return { ...base, reason: input.reason };
		case "PreCompact":
			return { ...base, trigger: input.trigger, custom_instructions: input.customInstructions };
		case "Notification":
			return { ...base, message: input.message, notification_type: input.notificationType };
	}
}

/** The names a matcher is tested against for this input; undefined when the event has no matcher. */
export function matchTargets(input: HookInput): string[] | undefined {
	switch (EVENT_FACTS[input.event].matches) {
		case "tool":
			return "tool" in input ? matchNames(input.tool) : [];
		case "source":
			return input.event === "SessionStart" ? [input.source] : [];
		case "reason":
			return input.event === "SessionEnd" ? [input.reason] : [];
		case "trigger":
			return input.event === "PreCompact" ? [input.trigger] : [];
		case "agent type":
			return input.event === "SubagentStop" ? [input.agentType] : [];
		case "notification type":
			return input.event === "Notification" ? [input.notificationType] : [];
		default:
			return undefined;
	}
}
