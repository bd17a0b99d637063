// The first reply of a process runs Node's HTTP client, its response parser, the SSE parser and the
// builder for the first time: each function then gets its baseline code, feedback and inline caches
// (none of which a code cache holds), a few milliseconds of CPU that land on the first reply. Here
// that path runs once, while the user types, over a connection that never leaves the process: a
// stream in memory that answers the POST with a short SSE reply. Nothing is sent anywhere.
import { Duplex } from "node:stream";
import type { Model } from "../types.js";
import { AssistantBuilder } from "./assistant-builder.js";
import { parseSseJson, streamSse } from "./http.js";
import { preconnectTo } from "./http-post.js";
import { readEventBatches } from "./provider-request.js";

const chunk = (content: string) => `data: ${JSON.stringify({ id: "w", choices: [{ index: 0, delta: { content } }] })}\n\n`;

/** The SSE reply, in two reads. */
const BODY = [chunk("warm ") + chunk("up "), `${chunk("done")}data: [DONE]\n\n`];

/** An HTTP/1.1 response to any request: status and headers, then BODY's parts a turn apart. */
export function cannedConnection(parts: string[] = BODY): () => Duplex {
	return () => {
		let answered = false;
		const length = parts.reduce((n, part) => n + Buffer.byteLength(part), 0);
		const head = `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
		const connection: Duplex = new Duplex({
			read() {},
			write(_chunk, _encoding, done) {
				done();
				if (answered) return;
				answered = true;
				const send = (index: number) => {
					if (connection.destroyed) return;
					if (index === parts.length) return void connection.push(null);
					connection.push(index === 0 ? head + parts[0] : parts[index]);
					setImmediate(send, index + 1);
				};
				setImmediate(send, 0);
			},
		});
		return connection;
	};
}

/**
 * Streams the canned reply through `streamSse`, `readEventBatches` and an `AssistantBuilder` for
 * `model`, to its end. Resolves with the reply's text ("warm up done"); rejects only on a bug.
 */
export async function warmUpTransport(model: Model): Promise<string> {
	// The real connection too, to the model's own host, parked in the pool for the first request.
	preconnectTo(model.baseUrl);
	const controller = new AbortController();
	const builder = new AssistantBuilder(model);
	const batches = streamSse({
		providerName: "warm-up",
		url: "http://127.0.0.1/warm-up",
		headers: {},
		body: { model: model.id, stream: true },
		signal: controller.signal,
		maxRetries: 0,
		connect: cannedConnection(),
	});
	builder.start();
	await readEventBatches(builder, batches, (event) => {
		if (event.data === "[DONE]") return true;
		const content = parseSseJson<{ choices: { delta: { content?: string } }[] }>("warm-up", event.data).choices[0]?.delta.content;
		if (content) builder.text(content);
	});
	builder.finish("stop");
	for await (const _ of builder.stream);
	const text = builder.output.content[0];
	return text?.type === "text" ? text.text : "";
}
