// OpenAI chat-completions streaming bodies for the scripted server: a text answer or a tool call, as
// the SSE records a real server sends (role chunk, content or tool-call deltas, finish reason, usage, [DONE]).
import { sse } from "./sse-server.js";

const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_753_804_211, model: "mock-1" };

function chunk(delta: object, finishReason: string | null = null): object {
	return { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

const usage = { ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } };

/** SSE records of a text answer, one record per piece (each piece its own chunk to write). */
export function textRecords(pieces: string[]): string[] {
	return [
		sse([chunk({ role: "assistant", content: "" })]),
		...pieces.map((piece) => sse([chunk({ content: piece })])),
		sse([chunk({}, "stop"), usage], { done: true }),
	];
}

/** The whole body of a text answer. */
export function textBody(text: string): string {
	return textRecords([text]).join("");
}

/** SSE records of an answer that calls one tool, its arguments' JSON text streamed in the given pieces. */
export function toolCallRecords(name: string, argumentPieces: string[], id = "call_1"): string[] {
	return [
		sse([chunk({ role: "assistant", content: null })]),
		...argumentPieces.map((piece, i) =>
			sse([
				chunk({
					tool_calls: [
						{ index: 0, ...(i === 0 ? { id, type: "function" } : {}), function: { ...(i === 0 ? { name } : {}), arguments: piece } },
					],
				}),
			]),
		),
		sse([chunk({}, "tool_calls"), usage], { done: true }),
	];
}

/** The body of an answer that calls one tool, its arguments streamed in two halves. */
export function toolCallBody(name: string, args: object, id = "call_1"): string {
	const json = JSON.stringify(args);
	const half = Math.floor(json.length / 2);
	return sse(
		[
			chunk({ role: "assistant", content: null }),
			chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: json.slice(0, half) } }] }),
			chunk({ tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] }),
			chunk({}, "tool_calls"),
			usage,
		],
		{ done: true },
	);
}
