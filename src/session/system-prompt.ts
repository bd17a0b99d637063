// The system prompt: who the assistant is, the tools it has (one line each), where and when it runs,
// and the project's context files under headings naming their paths.
import type { ContextFile } from "./context-files.js";

export interface SystemPromptInput {
	cwd: string;
	tools: readonly { name: string; description: string }[];
	contextFiles: readonly ContextFile[];
	/** The skills section (names, descriptions, paths), already formatted; empty for none. */
	skills?: string;
	/** The sub-agents the task tool can start (names and descriptions), already formatted; empty for none. */
	agents?: string;
	/** Replaces the built-in role and guidelines; tools, environment and context files still follow. */
	customPrompt?: string;
	/** What the permission mode lets tools do (and the sandbox), so the model knows what will ask. */
	permissions?: string;
	/** Added at the very end. */
	appendSystemPrompt?: string;
	/** Injected for tests; default now. */
	date?: Date;
	/** Injected for tests; default `process.platform`. */
	os?: string;
}

const role = `You are Rudder, a coding assistant working in the user's terminal. You read files, run commands, edit code and write new files to complete the user's task.

Guidelines:
- Read the relevant files before changing them; prefer small, precise edits.
- Run commands to check your work (tests, type checks) when the project has them.
- Be concise. Show file paths when you talk about code.
- If a request is ambiguous or risky (deleting data, force-pushing), ask first.`;

/** The first line of a tool description: the prompt lists tools, their schemas say the rest. */
function oneLine(description: string): string {
	const first = description.trim().split("\n")[0] ?? "";
	return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}

export function buildSystemPrompt(input: SystemPromptInput): string {
	const parts: string[] = [input.customPrompt?.trim() || role];
	if (input.tools.length > 0) {
		parts.push(`Available tools:\n${input.tools.map((t) => `- ${t.name}: ${oneLine(t.description)}`).join("\n")}`);
	}
	if (input.skills) parts.push(input.skills);
	if (input.agents) parts.push(input.agents);
	const date = (input.date ?? new Date()).toISOString().slice(0, 10);
	parts.push(`Current working directory: ${input.cwd}\nCurrent date: ${date}\nOperating system: ${input.os ?? process.platform}`);
	if (input.permissions) parts.push(input.permissions);
	if (input.contextFiles.length > 0) {
		const files = input.contextFiles.map((f) => `## ${f.path}\n\n${f.content.trim()}`).join("\n\n");
		parts.push(`# Project context\n\nInstructions from context files (later files are closer to the working directory):\n\n${files}`);
	}
	if (input.appendSystemPrompt?.trim()) parts.push(input.appendSystemPrompt.trim());
	return parts.join("\n\n");
}
