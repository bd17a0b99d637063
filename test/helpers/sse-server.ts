// A real HTTP server on 127.0.0.1 for provider tests: it records every request and answers each with
// a scripted reply (SSE bytes written in the given chunks, a status with a body, a stall, or a reset).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
	method: string;
	url: string;
	headers: IncomingMessage["headers"];
	body: any;
	rawBody: string;
}

export type ScriptedReply =
	| {
			kind: "sse";
			/** Body bytes, written one chunk per write; split anywhere (also inside UTF-8 characters). */
			chunks: (string | Uint8Array)[];
			status?: number;
			headers?: Record<string, string>;
			/** Pause between chunks, ms. */
			delayMs?: number;
			/** Leave the connection open after the last chunk (a stalled stream). */
			stallAfter?: boolean;
			/** Destroy the socket after the last chunk (a reset mid-stream). */
			resetAfter?: boolean;
	  }
	| { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
	| { kind: "reset" }
	/** Accept the request and never answer (no status line, no headers). */
	| { kind: "hang" };

export interface ScriptedServer {
	url: string;
	requests: RecordedRequest[];
	/** Sockets currently open; tests assert it drops to 0 after a stream ends or aborts. */
	openSockets(): number;
	/** Connections accepted so far (a kept-alive socket carries several requests). */
	connections(): number;
	enqueue(...replies: ScriptedReply[]): void;
	close(): Promise<void>;
}

/** Splits `text` into byte chunks of `size` bytes (so multi-byte characters get cut). */
export function byteChunks(text: string, size: number): Uint8Array[] {
	const bytes = Buffer.from(text, "utf8");
	const out: Uint8Array[] = [];
	for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
	return out;
}

/** Formats SSE records: each item is a JSON-able data payload, or `{event, data}`. */
export function sse(items: (unknown | { event: string; data: unknown })[], opts: { done?: boolean } = {}): string {
	let out = "";
	for (const item of items) {
		if (item && typeof item === "object" && "event" in (item as object) && "data" in (item as object)) {
			const { event, data } = item as { event: string; data: unknown };
			out += `event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
		} else out += `data: ${typeof item === "string" ? item : JSON.stringify(item)}\n\n`;
	}
	if (opts.done) out += "data: [DONE]\n\n";
	return out;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
	const replies: ScriptedReply[] = [];
	const requests: RecordedRequest[] = [];
	const sockets = new Set<Socket>();
	let connections = 0;
	const server: Server = createServer(async (req, res) => {
		const chunks: Buffer[] = [];
		for await (const c of req) chunks.push(c as Buffer);
		const rawBody = Buffer.concat(chunks).toString("utf8");
		let body: any = rawBody;
		try {
			body = JSON.parse(rawBody);
		} catch {
			// keep raw
		}
		requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, rawBody });
		const reply = replies.shift() ?? { kind: "status", status: 500, body: '{"error":{"message":"no scripted reply"}}' };
		await answer(reply, res);
	});
	server.on("connection", (s) => {
		connections++;
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		openSockets: () => sockets.size,
		connections: () => connections,
		enqueue: (...r) => replies.push(...r),
		close: () =>
			new Promise<void>((resolve) => {
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			}),
	};
}

async function answer(reply: ScriptedReply, res: ServerResponse): Promise<void> {
	if (reply.kind === "hang") return;
	if (reply.kind === "reset") {
		res.socket?.destroy();
		return;
	}
	if (reply.kind === "status") {
		res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
		res.end(reply.body ?? "");
		return;
	}
	res.writeHead(reply.status ?? 200, {
		"content-type": "text/event-stream",
		"cache-control": "no-cache",
		...reply.headers,
	});
	res.flushHeaders();
	for (const chunk of reply.chunks) {
		if (res.destroyed) return;
		res.write(chunk);
		if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
	}
	if (reply.resetAfter) {
		res.socket?.destroy();
		return;
	}
	if (reply.stallAfter) return;
	res.end();
}
