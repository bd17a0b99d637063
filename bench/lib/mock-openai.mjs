// A local OpenAI chat-completions server for benchmarks: streams a seeded markdown-ish reply of N
// tokens at R tokens/s as real SSE, and reports progress and socket closes to the harness.
import { createServer } from "node:http";

/** Deterministic text: ~4.4 characters per token, paragraphs, some lists and code. */
export function* tokenStream(count, seed = 42) {
	let s = seed >>> 0;
	const rand = () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
	const words = [
		"the",
		"agent",
		"runs",
		"a",
		"tool",
		"and",
		"you",
		"steer",
		"it",
		"frame",
		"of",
		"text",
		"to",
		"queue",
		"is",
		"model",
		"row",
		"diff",
		"code",
		"in",
	];
	let inCode = false;
	for (let i = 0; i < count; i++) {
		const r = rand();
		let tok = (i % 12 === 0 ? "" : " ") + words[Math.floor(rand() * words.length)];
		if (r < 0.015) tok = inCode ? "\n```\n\n" : "\n\n```ts\n";
		if (r < 0.015) inCode = !inCode;
		else if (r < 0.05) tok += ".\n\n";
		else if (r < 0.07) tok += "\n- ";
		yield tok;
	}
	if (inCode) yield "\n```\n";
}

/**
 * Starts the server. `plan()` returns {tokens, rate} for each request; `onProgress(sent, total)` is
 * called every tenth of the reply; `onClose(reqIndex)` when a client closes a socket mid-stream.
 */
export async function startMockOpenAI({ plan, onProgress, onClose, onRequest } = {}) {
	const requests = [];
	const server = createServer(async (req, res) => {
		let body = "";
		for await (const c of req) body += c;
		if (req.url?.endsWith("/models")) {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify({ object: "list", data: [{ id: "mock-1", object: "model" }] }));
			return;
		}
		const index = requests.length;
		requests.push({ url: req.url, body: safeJson(body), at: performance.now() });
		onRequest?.(index, requests[index]);
		const { tokens, rate } = plan ? plan(index, requests[index]) : { tokens: 50, rate: 0 };
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
		let closed = false;
		res.on("close", () => {
			if (!res.writableFinished) {
				closed = true;
				onClose?.(index, performance.now());
			}
		});
		const id = `chatcmpl-${index}`;
		const chunk = (delta, finish = null, usage) =>
			`data: ${JSON.stringify({
				id,
				object: "chat.completion.chunk",
				created: 0,
				model: "mock-1",
				choices: [{ index: 0, delta, finish_reason: finish }],
				...(usage ? { usage } : {}),
			})}\n\n`;
		res.write(chunk({ role: "assistant", content: "" }));
		const start = performance.now();
		let sent = 0;
		const tenth = Math.max(1, Math.floor(tokens / 10));
		let batch = "";
		for (const tok of tokenStream(tokens, 1000 + index)) {
			if (closed) return;
			batch += chunk({ content: tok });
			sent++;
			if (sent % tenth === 0) onProgress?.(index, sent, tokens);
			if (rate > 0) {
				const due = start + (sent * 1000) / rate;
				const wait = due - performance.now();
				if (wait > 1) {
					res.write(batch);
					batch = "";
					await new Promise((r) => setTimeout(r, wait));
				}
			} else if (sent % 64 === 0) {
				res.write(batch);
				batch = "";
				await new Promise((r) => setImmediate(r));
			}
		}
		if (closed) return;
		res.write(batch);
		res.write(chunk({}, "stop", { prompt_tokens: 100, completion_tokens: tokens, total_tokens: 100 + tokens }));
		res.end("data: [DONE]\n\n");
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/v1`,
		port,
		requests,
		close: () =>
			new Promise((r) => {
				server.closeAllConnections?.();
				server.close(() => r());
			}),
	};
}

function safeJson(t) {
	try {
		return JSON.parse(t);
	} catch {
		return t;
	}
}
