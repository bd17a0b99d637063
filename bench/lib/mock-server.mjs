// One local model server for the benchmarks that speaks four wire protocols, routed by path, so each app
// under test talks its own API: OpenAI chat completions (Rudder, pi), Anthropic Messages (Claude Code),
// OpenAI Responses (Codex) and Gemini generateContent (Gemini CLI). A reply streams the same seeded text
// of N tokens at R tokens/s in every protocol; side calls (a classifier, a model list) get a small answer.
import { createServer } from "node:http";
import { tokenStream } from "./token-stream.mjs";
import { wire } from "./wire-protocols.mjs";

/**
 * Starts the server on 127.0.0.1. `plan(replyIndex, request)` returns {tokens, rate} for each streamed
 * reply; `onProgress(replyIndex, sent, total)` fires every tenth of a reply and at its end;
 * `onClose(replyIndex, at)` when a client closes a socket mid-reply; `onRequest(index, request)` for
 * every request (side calls included). `requests` logs them all, each with its protocol and kind.
 */
export async function startMock({ plan, onProgress, onClose, onRequest } = {}) {
	const requests = [];
	let replies = 0;
	const server = createServer(async (req, res) => {
		let body = "";
		for await (const c of req) body += c;
		const request = { method: req.method, url: req.url ?? "", body: safeJson(body), at: performance.now() };
		const route = wire.route(request);
		request.protocol = route?.protocol;
		request.kind = route?.kind ?? "unknown";
		requests.push(request);
		onRequest?.(requests.length - 1, request);
		if (!route) {
			res.writeHead(404, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: `bench mock: no route for ${req.method} ${req.url}` } }));
			return;
		}
		if (route.kind === "side-stream") {
			const encoder = route.encoder(request, -1);
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			res.end(encoder.head() + encoder.delta(route.text) + encoder.tail(1));
			return;
		}
		if (route.kind !== "reply") {
			const { status = 200, json } = route.side(request);
			res.writeHead(status, { "content-type": "application/json" });
			res.end(JSON.stringify(json));
			return;
		}
		const index = replies++;
		const { tokens, rate } = plan ? plan(index, request) : { tokens: 50, rate: 0 };
		await streamReply(res, route.encoder(request, index), { index, tokens, rate, onProgress, onClose });
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const { port } = server.address();
	const origin = `http://127.0.0.1:${port}`;
	return {
		origin,
		url: `${origin}/v1`,
		port,
		requests,
		close: () =>
			new Promise((r) => {
				server.closeAllConnections?.();
				server.close(() => r());
			}),
	};
}

/** Writes one reply as SSE, paced to `rate` tokens/s (0: as fast as the socket takes it). */
async function streamReply(res, encoder, { index, tokens, rate, onProgress, onClose }) {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	let closed = false;
	res.on("close", () => {
		if (!res.writableFinished) {
			closed = true;
			onClose?.(index, performance.now());
		}
	});
	res.write(encoder.head());
	const start = performance.now();
	let sent = 0;
	const tenth = Math.max(1, Math.floor(tokens / 10));
	let batch = "";
	for (const tok of tokenStream(tokens, 1000 + index)) {
		if (closed) return;
		batch += encoder.delta(tok);
		sent++;
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
		if (sent % tenth === 0 && sent < tokens) onProgress?.(index, sent, tokens);
	}
	if (closed) return;
	res.write(batch);
	res.end(encoder.tail(sent));
	onProgress?.(index, tokens, tokens);
}

function safeJson(t) {
	try {
		return JSON.parse(t);
	} catch {
		return t;
	}
}
