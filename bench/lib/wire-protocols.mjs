// The four wire protocols of the bench mock, as data: how a request is recognised, how a streamed reply
// is framed (head, one event per token, tail), and what a side call gets back. Shapes follow each API's
// documented streaming events; only the fields the clients read are filled in.

const sse = (event, data) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
const MODEL = "mock-1";

/** OpenAI chat completions (Rudder, pi): `data:` chunks, `[DONE]` at the end. */
function chatEncoder(_request, index) {
	const id = `chatcmpl-${index}`;
	const chunk = (delta, finish = null, usage) =>
		sse(undefined, {
			id,
			object: "chat.completion.chunk",
			created: 0,
			model: MODEL,
			choices: [{ index: 0, delta, finish_reason: finish }],
			...(usage ? { usage } : {}),
		});
	return {
		head: () => chunk({ role: "assistant", content: "" }),
		delta: (tok) => chunk({ content: tok }),
		tail: (n) => `${chunk({}, "stop", { prompt_tokens: 100, completion_tokens: n, total_tokens: 100 + n })}data: [DONE]\n\n`,
	};
}

/** Anthropic Messages (Claude Code): message_start, one text block of text_delta events, message_stop. */
function anthropicEncoder(request, index) {
	const model = request.body?.model ?? MODEL;
	return {
		head: () =>
			sse("message_start", {
				type: "message_start",
				message: {
					id: `msg_bench_${index}`,
					type: "message",
					role: "assistant",
					model,
					content: [],
					stop_reason: null,
					stop_sequence: null,
					usage: { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
				},
			}) + sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
		delta: (tok) => sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: tok } }),
		tail: (n) =>
			sse("content_block_stop", { type: "content_block_stop", index: 0 }) +
			sse("message_delta", {
				type: "message_delta",
				delta: { stop_reason: "end_turn", stop_sequence: null },
				usage: { output_tokens: n },
			}) +
			sse("message_stop", { type: "message_stop" }),
	};
}

/** OpenAI Responses (Codex): response.created, an output message item of output_text deltas, response.completed. */
function responsesEncoder(_request, index) {
	const id = `resp_bench_${index}`;
	const item = `msg_bench_${index}`;
	let text = "";
	let seq = 0;
	const ev = (type, data) => sse(type, { type, sequence_number: seq++, ...data });
	const response = (status, output, usage) => ({
		id,
		object: "response",
		created_at: 0,
		status,
		model: MODEL,
		output,
		...(usage ? { usage } : {}),
	});
	const message = (status) => ({
		id: item,
		type: "message",
		status,
		role: "assistant",
		content: status === "completed" ? [{ type: "output_text", text, annotations: [] }] : [],
	});
	const at = { item_id: item, output_index: 0, content_index: 0 };
	return {
		head: () =>
			ev("response.created", { response: response("in_progress", []) }) +
			ev("response.in_progress", { response: response("in_progress", []) }) +
			ev("response.output_item.added", { output_index: 0, item: message("in_progress") }) +
			ev("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } }),
		delta: (tok) => {
			text += tok;
			return ev("response.output_text.delta", { ...at, delta: tok });
		},
		tail: (n) =>
			ev("response.output_text.done", { ...at, text }) +
			ev("response.content_part.done", { ...at, part: { type: "output_text", text, annotations: [] } }) +
			ev("response.output_item.done", { output_index: 0, item: message("completed") }) +
			ev("response.completed", {
				response: response("completed", [message("completed")], {
					input_tokens: 100,
					input_tokens_details: { cached_tokens: 0 },
					output_tokens: n,
					output_tokens_details: { reasoning_tokens: 0 },
					total_tokens: 100 + n,
				}),
			}),
	};
}

/** Gemini streamGenerateContent?alt=sse (Gemini CLI): one candidate chunk per token, finishReason at the end. */
function geminiEncoder(request) {
	const modelVersion = /models\/([^:/?]+)/.exec(request.url)?.[1] ?? MODEL;
	const chunk = (parts, finishReason, n) =>
		sse(undefined, {
			candidates: [{ content: { parts, role: "model" }, index: 0, ...(finishReason ? { finishReason } : {}) }],
			usageMetadata: { promptTokenCount: 100, candidatesTokenCount: n ?? 0, totalTokenCount: 100 + (n ?? 0) },
			modelVersion,
		});
	return {
		head: () => "",
		delta: (tok) => chunk([{ text: tok }]),
		tail: (n) => chunk([{ text: "" }], "STOP", n),
	};
}

/**
 * A value that satisfies a JSON schema (the first enum value, empty strings, false, 0): Gemini CLI's side
 * calls (the model router's classifier, the next-speaker check) ask for JSON in a schema and parse it.
 * Known fields get the answer that keeps the CLI on its plain path.
 */
export function fillSchema(schema, key) {
	const known = { next_speaker: "user", model_choice: "flash", complexity_score: 1 };
	if (key && key in known) return known[key];
	if (!schema || typeof schema !== "object") return "";
	if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
	const type = String(schema.type ?? (schema.properties ? "object" : "string")).toLowerCase();
	if (type === "object") {
		const out = {};
		for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fillSchema(v, k);
		return out;
	}
	if (type === "array") return [];
	if (type === "boolean") return false;
	if (type === "number" || type === "integer") return 0;
	return key === "reasoning" ? "a short plain request" : "Bench reply";
}

function geminiSide(request) {
	const config = request.body?.generationConfig ?? {};
	const schema = config.responseJsonSchema ?? config.responseSchema;
	const text = schema ? JSON.stringify(fillSchema(schema)) : "ok";
	return {
		json: {
			candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
			usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
		},
	};
}

const modelList = () => ({ json: { object: "list", data: [{ id: MODEL, object: "model" }] } });

function anthropicSide(request) {
	if (/count_tokens/.test(request.url)) return { json: { input_tokens: 100 } };
	return {
		json: {
			id: "msg_bench_side",
			type: "message",
			role: "assistant",
			model: request.body?.model ?? MODEL,
			content: [{ type: "text", text: "ok" }],
			stop_reason: "end_turn",
			stop_sequence: null,
			usage: { input_tokens: 10, output_tokens: 1 },
		},
	};
}

/**
 * Request → {protocol, kind, …}; undefined for an unknown route. Kinds: "reply" (streams the planned
 * text through `encoder`), "side-stream" (streams `text` through `encoder`), "side" (`side()` → JSON).
 */
function route(request) {
	const path = request.url.split("?")[0];
	const streaming = request.body && typeof request.body === "object" && request.body.stream === true;
	if (request.method === "GET" && /\/models$/.test(path)) return { protocol: "models", kind: "side", side: modelList };
	if (/\/chat\/completions$/.test(path)) return { protocol: "openai-chat", kind: "reply", encoder: chatEncoder };
	if (/\/messages(\/count_tokens)?$/.test(path)) {
		return streaming
			? { protocol: "anthropic", kind: "reply", encoder: anthropicEncoder }
			: { protocol: "anthropic", kind: "side", side: anthropicSide };
	}
	if (/\/responses$/.test(path)) {
		// Codex asks for a session title in a JSON schema, streamed, beside the reply: a side call.
		const schema = request.body?.text?.format?.type === "json_schema" ? request.body.text.format.schema : undefined;
		return schema
			? { protocol: "openai-responses", kind: "side-stream", encoder: responsesEncoder, text: JSON.stringify(fillSchema(schema)) }
			: { protocol: "openai-responses", kind: "reply", encoder: responsesEncoder };
	}
	if (/:streamGenerateContent$/.test(path)) return { protocol: "gemini", kind: "reply", encoder: geminiEncoder };
	if (/:(generateContent|countTokens)$/.test(path)) {
		const side = /:countTokens$/.test(path) ? () => ({ json: { totalTokens: 100 } }) : geminiSide;
		return { protocol: "gemini", kind: "side", side };
	}
	return undefined;
}

export const wire = { route };
