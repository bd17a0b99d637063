// A long session in Rudder's own format, written through its own writer, with the mix a real coding
// session has: user prompts, assistant text, tool calls and their results (most a few KB, one in ten
// near the tools' 50 KB cap), a little non-ASCII text. For the memory-ceiling benchmark (bench/soak.mjs)
// and anything else that needs a 20,000-message history. Run `npm run build` first.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./apps.mjs";

/** Messages per turn: user, assistant (tool call), tool result, assistant (text). */
const PER_TURN = 4;

/** The usage every generated assistant message carries. */
export const usage = {
	input: 100,
	output: 50,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 150,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Source-like lines, varied per turn so no two results are the same string. */
function codeLines(turn, bytes) {
	const lines = [];
	let size = 0;
	for (let i = 0; size < bytes; i++) {
		const line = `${String(i + 1).padStart(5)}\tconst value${turn}_${i} = compute(input[${i}], options.step ?? ${turn % 97}); // keeps the order`;
		lines.push(line);
		size += line.length + 1;
	}
	return lines.join("\n");
}

/** The messages of turn `t` (PER_TURN of them). */
export function turnMessages(t, timestamp = Date.now()) {
	const id = `call_${t.toString(36).padStart(6, "0")}`;
	const big = t % 10 === 9;
	const path = `src/feature-${t % 50}/module-${t % 7}.ts`;
	const assistant = (content, stopReason) => ({
		role: "assistant",
		content,
		api: "openai-completions",
		provider: "mock",
		model: "mock-1",
		usage,
		stopReason,
		timestamp,
	});
	return [
		{ role: "user", content: `Turn ${t}: look at ${path} and tell me why the step option is ignored — then fix it.`, timestamp },
		assistant(
			[
				{ type: "text", text: `I'll read ${path} first.` },
				{ type: "toolCall", id, name: "read", arguments: { path } },
			],
			"toolUse",
		),
		{
			role: "toolResult",
			toolCallId: id,
			toolName: "read",
			content: [{ type: "text", text: codeLines(t, big ? 45_000 : 2_800) }],
			isError: false,
			timestamp,
		},
		assistant(
			[
				{
					type: "text",
					text: `## Why turn ${t}'s step is ignored\n\n${"The option is read before the defaults are merged, so a caller's value is replaced by the default → the loop always advances by one. ".repeat(6)}\n\n- move the merge up\n- keep the order of the calls\n`,
				},
			],
			"stop",
		),
	];
}

/** Writes a session of `messages` messages (rounded up to whole turns) for `cwd` under `home`; returns its path. */
export async function writeLongSession({ home, cwd, messages }) {
	const { SessionLog } = await import(pathToFileURL(join(root, "dist", "src", "session", "session-log.js")).href);
	const writer = SessionLog.create({ cwd, env: { RUDDER_HOME: home } });
	const turns = Math.ceil(messages / PER_TURN);
	for (let t = 0; t < turns; t++) {
		for (const message of turnMessages(t)) writer.append({ type: "message", message });
	}
	writer.close();
	return writer.path;
}
