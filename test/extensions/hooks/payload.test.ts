import { describe, expect, it } from "vitest";
import { hookPayload, matchTargets } from "../../../src/extensions/hooks/payload.js";
import type { HookSession } from "../../../src/extensions/hooks/types.js";

const session: HookSession = { sessionId: "s-1", transcriptPath: "/data/s-1.jsonl", cwd: "/work/p", permissionMode: "auto-edit" };
const common = { session_id: "s-1", transcript_path: "/data/s-1.jsonl", cwd: "/work/p", permission_mode: "acceptEdits" };

describe("hook payload (stdin), in Claude Code's field names", () => {
	it("PreToolUse: tool_name as Claude Code names it, tool_input with its argument names, paths absolute", () => {
		const pre = (tool: string, args: unknown) => hookPayload({ event: "PreToolUse", tool, args, toolCallId: "call-1" }, session);
		expect(pre("bash", { command: "npm test", timeout: 30 })).toEqual({
			...common,
			hook_event_name: "PreToolUse",
			tool_name: "Bash",
			tool_input: { command: "npm test", timeout: 30_000 },
			tool_use_id: "call-1",
		});
		expect(pre("write", { path: "src/a.ts", content: "x" })).toMatchObject({
			tool_name: "Write",
			tool_input: { file_path: "/work/p/src/a.ts", content: "x" },
		});
		expect(pre("edit", { path: "/abs/a.ts", edits: [{ oldText: "a", newText: "b" }] })).toMatchObject({
			tool_name: "Edit",
			tool_input: { file_path: "/abs/a.ts", old_string: "a", new_string: "b" },
		});
		expect(
			pre("edit", {
				path: "a.ts",
				edits: [
					{ oldText: "a", newText: "b" },
					{ oldText: "c", newText: "d" },
				],
			}),
		).toMatchObject({
			tool_name: "MultiEdit",
			tool_input: {
				file_path: "/work/p/a.ts",
				edits: [
					{ old_string: "a", new_string: "b" },
					{ old_string: "c", new_string: "d" },
				],
			},
		});
		expect(pre("read", { path: "a.ts", offset: 3 })).toMatchObject({
			tool_name: "Read",
			tool_input: { file_path: "/work/p/a.ts", offset: 3 },
		});
		expect(pre("grep", { pattern: "TODO", path: "src", ignoreCase: true })).toMatchObject({
			tool_name: "Grep",
			tool_input: { pattern: "TODO", path: "/work/p/src", "-i": true },
		});
		expect(pre("find", { pattern: "*.ts" })).toMatchObject({ tool_name: "Glob", tool_input: { pattern: "*.ts" } });
		expect(pre("ls", {})).toMatchObject({ tool_name: "LS", tool_input: { path: "/work/p" } });
		expect(pre("mcp__fs__read", { file: "x" })).toMatchObject({ tool_name: "mcp__fs__read", tool_input: { file: "x" } });
	});

	it("PostToolUse carries tool_response; the other events their own fields", () => {
		expect(
			hookPayload(
				{ event: "PostToolUse", tool: "write", args: { path: "a.ts", content: "x" }, result: { text: "Wrote 1 line", isError: false } },
				session,
			),
		).toMatchObject({ tool_name: "Write", tool_response: { filePath: "/work/p/a.ts", success: true } });
		expect(
			hookPayload({ event: "PostToolUse", tool: "bash", args: { command: "ls" }, result: { text: "a\nb", isError: false } }, session),
		).toMatchObject({
			tool_response: { stdout: "a\nb", interrupted: false },
		});
		expect(hookPayload({ event: "UserPromptSubmit", prompt: "hi" }, session)).toEqual({
			...common,
			hook_event_name: "UserPromptSubmit",
			prompt: "hi",
		});
		expect(hookPayload({ event: "Stop", stopHookActive: true }, session)).toMatchObject({
			hook_event_name: "Stop",
			stop_hook_active: true,
		});
		const subagentStop = { event: "SubagentStop", stopHookActive: false, agentId: "explore-1", agentType: "explore" } as const;
		expect(hookPayload({ ...subagentStop, lastAssistantMessage: "found it" }, session)).toEqual({
			...common,
			hook_event_name: "SubagentStop",
			stop_hook_active: false,
			agent_id: "explore-1",
			agent_type: "explore",
			agent_transcript_path: "/data/s-1.jsonl",
			last_assistant_message: "found it",
		});
		expect(hookPayload({ event: "SessionStart", source: "resume" }, session)).toMatchObject({ source: "resume" });
		expect(hookPayload({ event: "SessionEnd", reason: "prompt_input_exit" }, session)).toMatchObject({ reason: "prompt_input_exit" });
		expect(hookPayload({ event: "PreCompact", trigger: "manual", customInstructions: "keep tests" }, session)).toMatchObject({
			trigger: "manual",
			custom_instructions: "keep tests",
		});
		expect(
			hookPayload(
				{ event: "Notification", message: "Rudder needs your permission to use bash", notificationType: "permission_prompt" },
				session,
			),
		).toMatchObject({
			message: "Rudder needs your permission to use bash",
			notification_type: "permission_prompt",
		});
		expect(hookPayload({ event: "Stop", stopHookActive: false }, { ...session, permissionMode: "yolo" })).toMatchObject({
			permission_mode: "bypassPermissions",
		});
	});

	it("matchers are tested against tool names, the start source, the compaction trigger, the sub-agent type; Stop has none", () => {
		expect(matchTargets({ event: "PreToolUse", tool: "edit", args: {} })).toEqual(["edit", "Edit", "MultiEdit"]);
		expect(matchTargets({ event: "SessionStart", source: "startup" })).toEqual(["startup"]);
		expect(matchTargets({ event: "PreCompact", trigger: "auto", customInstructions: "" })).toEqual(["auto"]);
		expect(matchTargets({ event: "Stop", stopHookActive: false })).toBeUndefined();
		expect(
			matchTargets({ event: "SubagentStop", stopHookActive: false, agentId: "explore-1", agentType: "explore", lastAssistantMessage: "" }),
		).toEqual(["explore"]);
		expect(matchTargets({ event: "UserPromptSubmit", prompt: "" })).toBeUndefined();
	});
});
