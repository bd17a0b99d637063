// One POST over node:http / node:https, for the streaming providers. Not fetch: a streamed reply
// arrives as one small socket read per token, and fetch passes each through undici's web streams
// (several promises and objects per chunk). Measured reading the same 5,000-token SSE reply at 200
// tok/s: fetch ~1.0 CPU-s, node:http ~0.6. Connections are kept alive for the next request (as
// undici does, closed after 4 s idle), so a real API pays its TLS handshake once per session.
//
// The body is read in paced bursts (docs/streaming.md, "Paced socket reads"): after a read the
// socket is left unread until the next boundary of the read pace (src/ai/read-pace.ts: the UI's frame clock in the app), the
// kernel gathers what arrives meanwhile, and the next read hands the provider ~10 tokens as one chunk
// instead of ten wake-ups, ten promise hops and ten parse passes; the UI's frame for that chunk is
// drawn in the same wake-up.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { type Duplex, finished } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { type ReadPace, readPace } from "../read-pace.js";
import { tapBody } from "./body-tap.js";
import type { JsonBody } from "./json-body.js";
import { parking, preconnect } from "./preconnect.js";

export interface PostResponse {
	status: number;
	ok: boolean;
	/** Header names in lower case; repeated headers joined with ", ". */
	headers: Record<string, string>;
	/** The body as UTF-8 text chunks (a character split across reads is kept whole). */
	body: AsyncIterable<string>;
	/** The whole body as text. */
	text(): Promise<string>;
	/**
	 * Ends the exchange for a consumer that stops reading: a body that has arrived whole is read out, so
	 * its connection goes back to the keep-alive pool; one cut short is destroyed with its connection.
	 */
	close(): void;
}

/** The undici default: idle connections close after 4 s. */
const IDLE_SOCKET_MS = 4000;
const agents = {
	"http:": parking(new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS })),
	"https:": parking(new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS })),
};

/** Opens the pool's first connection to `url`'s host ahead of its first request (preconnect.ts). */
export const preconnectTo = (url: string): boolean => preconnect(url.startsWith("https:") ? agents["https:"] : agents["http:"], url);

/**
 * POSTs `body`; resolves once the status line and headers are in. `signal` aborting before or during
 * the body destroys the connection; the body's iteration then throws. `clock` paces the body's reads.
 * `connect`, when given, is the connection for this one request instead of one of the pool. A body
 * in chunks (json-body.ts) is written chunk by chunk: no copy of it is made here.
 */
export function post(
	url: string,
	headers: Record<string, string>,
	body: string | JsonBody,
	signal: AbortSignal,
	clock: ReadPace = readPace(),
	connect?: () => Duplex,
): Promise<PostResponse> {
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
			headers: { ...headers, "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.bytes) },
			// A request with `createConnection` and no agent uses that connection alone (agent: false would make an agent).
			...(connect ? { createConnection: connect } : { agent: agents[protocol] }),
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
			// No setEncoding here: the paced body decodes the bytes itself when it takes them from the parser.
			response.on("error", () => {});
			resolve(wrap(response, clock));
		});
		if (typeof body === "string") request.end(body);
		else {
			// Corked: one writev for the chunks, not a write call (and a TCP segment) each; a reused
			// keep-alive socket is written at once, not buffered until connect as a new one is.
			request.cork();
			for (const chunk of body.chunks) request.write(chunk);
			request.uncork();
			request.end();
		}
	});
}

function wrap(response: IncomingMessage, clock: ReadPace): PostResponse {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(response.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	const status = response.statusCode ?? 0;
	return {
		status,
		ok: status >= 200 && status < 300,
		headers,
		// Started by the first iteration only: `text()` reads the same stream its own way.
		body: { [Symbol.asyncIterator]: () => pacedBody(response, clock) },
		async text() {
			response.setEncoding("utf8");
			let text = "";
			for await (const chunk of response as AsyncIterable<string>) text += chunk;
			return text;
		},
		close: () => {
			if (response.complete) response.resume();
			else response.destroy();
		},
	};
}

/**
 * The body of a response (without an encoding set) as UTF-8 text chunks, one per read burst (a
 * character split across reads is kept whole). Ends, throws and closes as the stream's own iterator
 * does (its end and errors come from `finished`, as the iterator's do); only when the socket is read
 * changes.
 *
 * Not the stream's async iterator: that costs, per read, a `readable` event on the next tick, a
 * `read()`, a promise, and our own promise for the wait below. A burst costs one setImmediate and one
 * promise (docs/streaming.md, "Paced socket reads"). The bytes are taken from the HTTP parser
 * (body-tap.ts) where Node's parser and the socket's handle are the ones this was written for; else
 * the stream flows into a 'data' listener.
 */
export function pacedBody(response: IncomingMessage, clock: ReadPace = readPace()): AsyncIterableIterator<string> {
	return new PacedBody(response, clock);
}

const DONE: IteratorResult<string> = Object.freeze({ value: undefined, done: true });

class PacedBody implements AsyncIterableIterator<string> {
	private readonly pacer: ReadPacer;
	/** Text arrived and not yet handed over. */
	private text = "";
	/** Set while the rest of a read may still come (TLS hands each record of one read separately). */
	private burst: NodeJS.Immediate | undefined;
	private waiter: { resolve: (r: IteratorResult<string>) => void; reject: (e: unknown) => void } | undefined;
	private ended = false;
	private failed = false;
	private error: unknown;
	private closed = false;
	/** A burst is ready and nobody has asked for it: the socket (or the stream) is left unread. */
	private held = false;
	private readonly stopFinished: () => void;
	/** Set when the bytes come from the parser (body-tap.ts): its undo, and our own decoder. */
	private readonly untap: (() => void) | undefined;
	private readonly decoder: StringDecoder | undefined;

	constructor(
		private readonly response: IncomingMessage,
		clock: ReadPace,
	) {
		this.pacer = new ReadPacer(response.socket, clock);
		// Tapped only where the pacer can stop the socket: that is also the tap's backpressure.
		this.untap = this.pacer.canPause() ? tapBody(response, this.onBytes) : undefined;
		if (this.untap) {
			this.decoder = new StringDecoder("utf8");
			// Bytes that came in the read of the headers, pushed before the tap.
			if (response.readableLength > 0) this.onBytes(response.read() as Buffer);
			// Flowing with no listener: the stream gets no more data, only its end.
			response.resume();
		} else {
			response.setEncoding("utf8");
			response.on("data", this.onData);
		}
		this.stopFinished = finished(response, { writable: false }, this.onFinished);
	}

	[Symbol.asyncIterator](): AsyncIterableIterator<string> {
		return this;
	}

	next(): Promise<IteratorResult<string>> {
		if (this.failed) {
			this.failed = false;
			this.ended = true;
			return Promise.reject(this.error);
		}
		if (this.text !== "" && this.burst === undefined) return Promise.resolve(this.take());
		if (this.ended && this.burst === undefined) return Promise.resolve(DONE);
		if (this.held) {
			this.held = false;
			if (this.untap) this.pacer.unhold();
			else this.response.resume();
		}
		return new Promise((resolve, reject) => {
			this.waiter = { resolve, reject };
		});
	}

	async return(): Promise<IteratorResult<string>> {
		this.close();
		return DONE;
	}

	private readonly onBytes = (bytes: Buffer): void => {
		this.onData((this.decoder as StringDecoder).write(bytes));
	};

	private readonly onData = (chunk: string): void => {
		this.text += chunk;
		// Once the reply is complete the socket goes back to the keep-alive pool: it is not ours to stop.
		if (!this.response.complete) this.pacer.pause();
		this.burst ??= setImmediate(this.onBurst);
	};

	/** The check phase after a read: every record of it is in `text`. */
	private readonly onBurst = (): void => {
		this.burst = undefined;
		const waiter = this.waiter;
		if (waiter === undefined) {
			if (!this.ended && !this.held) {
				this.held = true;
				// A paused IncomingMessage would never end: with the tap, the socket is held instead.
				if (this.untap) this.pacer.hold();
				else this.response.pause();
			}
			return;
		}
		// A burst can be empty: a read that held only the start of a UTF-8 character.
		if (this.text === "" && !this.ended) return;
		this.waiter = undefined;
		waiter.resolve(this.text !== "" ? this.take() : DONE);
	};

	private readonly onFinished = (error?: Error | null): void => {
		if (error) {
			// An abort or a reset: it is thrown at once, text not yet handed over is dropped.
			this.text = "";
			const waiter = this.waiter;
			this.waiter = undefined;
			this.close();
			if (waiter) {
				this.ended = true;
				waiter.reject(error);
			} else {
				this.failed = true;
				this.error = error;
			}
			return;
		}
		this.ended = true;
		this.untap?.();
		// A character cut off by the end, as the stream's decoder ends it (U+FFFD).
		if (this.decoder) this.text += this.decoder.end();
		this.pacer.release();
		// Text of a burst still gathering goes first; its setImmediate ends the iteration after it.
		if (this.burst !== undefined) return;
		const waiter = this.waiter;
		this.waiter = undefined;
		if (waiter) waiter.resolve(this.text !== "" ? this.take() : DONE);
	};

	private take(): IteratorResult<string> {
		const value = this.text;
		this.text = "";
		return { value, done: false };
	}

	/**
	 * Leaves the body. A consumer usually stops at the stream's last event (OpenAI's `[DONE]`), before
	 * the end of the body has been read; destroying the response would close its connection, and the
	 * next request would connect again (a TLS handshake for a real API). When the body has arrived whole
	 * (`complete`: only buffered text is left), it is read out instead and the connection returns to the
	 * pool. A body still arriving (an abort, an error) is destroyed, as the stream's iterator does.
	 */
	private close(): void {
		if (this.closed) return;
		this.closed = true;
		this.ended = true;
		this.untap?.();
		this.response.off("data", this.onData);
		this.stopFinished();
		if (this.burst !== undefined) clearImmediate(this.burst);
		this.burst = undefined;
		this.pacer.release();
		const waiter = this.waiter;
		this.waiter = undefined;
		waiter?.resolve(DONE);
		if (this.response.complete && !this.response.destroyed) this.response.resume();
		else this.response.destroy();
	}
}

/**
 * Stops and restarts reading on the socket's libuv handle (`readStop`/`readStart`, Node's internal
 * stream-handle API, the same calls `socket.pause()` makes; checked on Node 20 for TCP and TLSWrap
 * handles, docs/streaming.md). Node's own flag `handle.reading` is left alone, so Node neither
 * restarts a socket we paused nor has one it paused (backpressure) restarted by us. A handle without
 * those methods is simply read as it comes.
 */
class ReadPacer {
	private cancel: (() => void) | undefined;
	/** Stopped by us and not restarted yet. */
	private stopped = false;
	/** Not restarted at the boundary: the body's consumer has not asked for the last burst. */
	private holding = false;

	constructor(
		private readonly socket: Socket | null,
		private readonly clock: ReadPace,
	) {}

	canPause(): boolean {
		return this.handle() !== undefined;
	}

	/** Leaves the socket unread until the clock's next frame boundary, unless it is already paused. */
	pause(): void {
		if (this.stopped) return;
		const handle = this.handle();
		if (!handle) return;
		handle.readStop();
		this.stopped = true;
		// Resumed in the boundary's timer callback: the poll phase right after reads what the kernel
		// gathered without sleeping, and the frame for it is drawn before the loop sleeps again.
		this.cancel = this.clock.nextFrame(this.onBoundary);
	}

	/** Keeps a stopped socket stopped past its boundary, until `unhold`. */
	hold(): void {
		this.holding = true;
	}

	unhold(): void {
		this.holding = false;
		if (this.stopped && this.cancel === undefined) this.resume();
	}

	/** Reads again now if paused (the body ended or its consumer stopped). */
	release(): void {
		this.holding = false;
		this.cancel?.();
		this.cancel = undefined;
		if (this.stopped) this.resume();
	}

	private readonly onBoundary = (): void => {
		this.cancel = undefined;
		if (!this.holding) this.resume();
	};

	private resume(): void {
		this.stopped = false;
		// Gone when the connection was destroyed (abort) during the pause: nothing to restart.
		this.handle()?.readStart();
	}

	private handle(): PacedHandle | undefined {
		const socket = this.socket;
		if (!socket || socket.destroyed) return undefined;
		const handle = (socket as Socket & { _handle?: Partial<PacedHandle> | null })._handle;
		if (handle?.reading !== true || typeof handle.readStop !== "function" || typeof handle.readStart !== "function") {
			return undefined;
		}
		return handle as PacedHandle;
	}
}

/** The part of Node's internal TCP/TLS stream handle the pacer uses. */
interface PacedHandle {
	readStop(): number;
	readStart(): number;
	/** Node's own record of whether it wants the socket read. */
	reading: boolean;
}

function abortError(): Error {
	const error = new Error("Request was aborted");
	error.name = "AbortError";
	return error;
}
