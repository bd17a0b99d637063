// A tool's output goes to the model, the screen and the session file. A command or a file can print a
// key (`cat ~/.config/rudder/auth.json`, a server echoing its token), so every result and progress
// update leaves the tool with the process's known secrets redacted, and so does a failure's message.
import type { AgentTool, AgentToolResult } from "../agent/types.js";
import { processSecrets, redactSecrets } from "../safety/secrets.js";

function redactResult<T>(result: AgentToolResult<T>): AgentToolResult<T> {
	if (processSecrets.size === 0) return result;
	return { ...result, content: result.content.map((c) => (c.type === "text" ? { ...c, text: redactSecrets(c.text) } : c)) };
}

/** `tool`, with its results, updates and error messages redacted. */
export function withRedactedResults<T extends AgentTool>(tool: T): T {
	return {
		...tool,
		execute: async (toolCallId, params, signal, onUpdate) => {
			try {
				const result = await tool.execute(toolCallId, params, signal, onUpdate && ((partial) => onUpdate(redactResult(partial))));
				return redactResult(result);
			} catch (error) {
				if (!(error instanceof Error)) throw error;
				const message = redactSecrets(error.message);
				if (message === error.message) throw error;
				throw Object.assign(new Error(message), { name: error.name });
			}
		},
	};
}
