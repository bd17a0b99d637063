// One POST over node:http / node:https, for the streaming providers. Not fetch: a streamed reply
// arrives as one small socket read per token, and fetch passes each through undici's web streams
// (several promises and objects per chunk). Measured reading the same 5,000-token SSE reply at 200
// tok/s: fetch ~1.0 CPU-s, node:http ~0.6. Connections are kept alive for the next request (as
// undici does, closed after 4 s idle), so a real API pays its TLS handshake once per session.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export interface PostResponse {
	status: number;
	ok: boolean;
	/** Header names in lower case; repeated headers joined with ", ". */
	headers: Record<string, string>;
	/** The body as UTF-8 text chunks (a character split across reads is kept whole). */
	body: AsyncIterable<string>;
	/** The whole body as text. */
	text(): Promise<string>;
	/** Closes the connection (a consumer that stops reading early). */
	close(): void;
}

/** The undici default: idle connections close after 4 s. */
const IDLE_SOCKET_MS = 4000;
const agents = {
	"http:": new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
	"https:": new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/**
 * POSTs `body`; resolves once the status line and headers are in. `signal` aborting before or during
 * the body destroys the connection; the body's iteration then throws.
 */
export function post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostResponse> {
	return new Promise((resolve, reject) => {
		const target = new URL(url);
		const protocol = target.protocol === "https:" ? "https:" : target.protocol === "http:" ? "http:" : undefined;
		if (!protocol) {
			reject(new Error(`unsupported protocol ${target.protocol}`));
			return;
		}
		const send = protocol === "https:" ? httpsRequest : httpRequest;
		const request = send(target, {
			method: "POST",
			headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
			agent: agents[protocol],
		});
		// Our own listener, removed once the exchange is over: a late abort must never reach a socket
		// that went back to the pool for another request.
		const onAbort = () => request.destroy(signal.reason instanceof Error ? signal.reason : abortError());
		const done = () => signal.removeEventListener("abort", onAbort);
		if (signal.aborted) {
			reject(abortError());
			request.destroy();
			return;
		}
		signal.addEventListener("abort", onAbort, { once: true });
		request.on("error", (error) => {
			done();
			reject(error);
		});
		request.on("close", done);
		request.on("response", (response: IncomingMessage) => {
			response.setEncoding("utf8");
			response.on("error", () => {});
			resolve(wrap(response));
		});
		request.end(body);
	});
}

function wrap(response: IncomingMessage): PostResponse {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(response.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	const status = response.statusCode ?? 0;
	return {
		status,
		ok: status >= 200 && status < 300,
		headers,
		body: response as AsyncIterable<string>,
		async text() {
			let text = "";
			for await (const chunk of response as AsyncIterable<string>) text += chunk;
			return text;
		},
		close: () => response.destroy(),
	};
}

function abortError(): Error {
	const error = new Error("Request was aborted");
	error.name = "AbortError";
	return error;
}
