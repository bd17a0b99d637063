// Paced socket reads against real 127.0.0.1 servers (http, and https with a self-signed certificate
// made for the run): the body comes in bursts, byte-identical, and an abort during a pause closes the
// connection at once.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import {
	createServer as createHttpServer,
	request as httpRequest,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer, request as httpsRequest } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pacedBody, post } from "../../../src/ai/providers/http-post.js";
import { createFrameClock, FRAME_MS, type FrameClock } from "../../../src/tui/frame/frame-clock.js";
import { createFrameScheduler } from "../../../src/tui/frame/frame-scheduler.js";

const WRITES = 60;
const GAP_MS = 4;

/** SSE-ish text whose bytes are cut into WRITES pieces, one cut inside a 4-byte character. */
function scriptedBytes(): { text: string; pieces: Buffer[] } {
	let text = "";
	for (let i = 0; i < WRITES; i++) text += `data: {"n":${i},"t":"tok ${i === 30 ? "👋" : "é"}"}\n\n`;
	const bytes = Buffer.from(text, "utf8");
	const emoji = bytes.indexOf(Buffer.from("👋", "utf8"));
	const cuts = new Set<number>([emoji + 2]);
	for (let i = 1; cuts.size < WRITES - 1; i++) cuts.add(Math.floor((i * bytes.length) / WRITES));
	const sorted = [...cuts].sort((a, b) => a - b);
	const pieces: Buffer[] = [];
	let at = 0;
	for (const cut of sorted) {
		pieces.push(bytes.subarray(at, cut));
		at = cut;
	}
	pieces.push(bytes.subarray(at));
	return { text, pieces };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TestServer {
	url: string;
	connections: number;
	/** performance.now() of each server-side socket close. */
	closes: number[];
	close(): Promise<void>;
}

async function listen(server: Server, scheme: "http" | "https"): Promise<TestServer> {
	const sockets = new Set<Socket>();
	const state = { connections: 0, closes: [] as number[] };
	server.on(scheme === "https" ? "secureConnection" : "connection", (socket: Socket) => {
		state.connections++;
		sockets.add(socket);
		socket.on("close", () => {
			state.closes.push(performance.now());
			sockets.delete(socket);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `${scheme}://127.0.0.1:${port}`,
		get connections() {
			return state.connections;
		},
		closes: state.closes,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Answers every request with `pieces`, one write each, GAP_MS apart. */
function writer(pieces: Buffer[], gapMs = GAP_MS) {
	return async (req: IncomingMessage, res: ServerResponse) => {
		for await (const _ of req) {
			// drain the request body
		}
		res.writeHead(200, { "content-type": "text/event-stream" });
		res.flushHeaders();
		for (const piece of pieces) {
			if (res.destroyed) return;
			res.write(piece);
			await sleep(gapMs);
		}
		res.end();
	};
}

/**
 * One POST read through `pacedBody` outside the pool (a fresh parser); `prepare` may alter the response
 * or its socket first. `ca` makes it https.
 */
function pacedGet(url: string, prepare?: (response: IncomingMessage) => void, ca?: Buffer, clock?: FrameClock): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const send = ca ? httpsRequest : httpRequest;
		const request = send(url, { method: "POST", agent: false, ...(ca ? { ca } : {}) }, (response) => {
			prepare?.(response);
			collect(pacedBody(response, clock)).then(resolve, reject);
		});
		request.on("error", reject);
		request.end("{}");
	});
}

/** Counts the body chunks pushed into a response's stream (its end, a null, not counted). */
function pushCounter() {
	let count = 0;
	return {
		install(response: IncomingMessage) {
			const push = response.push.bind(response);
			response.push = (chunk: unknown, encoding?: BufferEncoding) => {
				if (chunk !== null) count++;
				return push(chunk, encoding);
			};
		},
		count: () => count,
	};
}

/** Node's HTTP parser of a response, with its class's slot numbers (node:_http_common). */
function parserOf(response: IncomingMessage) {
	const parser = (response.socket as Socket & { parser: Record<number, unknown> & { constructor: { kOnBody: number } } }).parser;
	return { parser, kOnBody: parser.constructor.kOnBody };
}

async function collect(body: AsyncIterable<string>): Promise<string[]> {
	const chunks: string[] = [];
	for await (const chunk of body) chunks.push(chunk);
	return chunks;
}

describe("post over http: paced reads", () => {
	const { text, pieces } = scriptedBytes();
	let server: TestServer;
	beforeAll(async () => {
		server = await listen(createHttpServer(writer(pieces)), "http");
	});
	afterAll(() => server.close());

	it("hands the body over in far fewer chunks than the server wrote, byte-identical", async () => {
		const response = await post(server.url, {}, "{}", new AbortController().signal);
		const chunks = await collect(response.body);
		expect(chunks.join("")).toBe(text);
		// ~240 ms of writes read every 50 ms: about 6 bursts. Read as it comes it is one chunk per write.
		expect(chunks.length).toBeLessThan(WRITES / 3);
	});

	it("reuses the kept-alive socket for the next request, which streams the same way", async () => {
		const before = server.connections;
		for (let i = 0; i < 2; i++) {
			const response = await post(server.url, {}, "{}", new AbortController().signal);
			const chunks = await collect(response.body);
			expect(chunks.join("")).toBe(text);
			expect(chunks.length).toBeLessThan(WRITES / 3);
		}
		expect(server.connections - before).toBeLessThanOrEqual(1);
	});
});

describe("pacedBody over http: the bytes taken from the parser", () => {
	const { text, pieces } = scriptedBytes();
	let server: TestServer;
	beforeAll(async () => {
		server = await listen(createHttpServer(writer(pieces)), "http");
	});
	afterAll(() => server.close());

	it("leaves the response stream only its end, and gives the parser its own callback back at the end", async () => {
		const pushes = pushCounter();
		let tapped: { parser: Record<number, unknown>; kOnBody: number } | undefined;
		const chunks = await pacedGet(server.url, (response) => {
			pushes.install(response);
			tapped = parserOf(response);
		});
		expect(chunks.join("")).toBe(text);
		expect(chunks.length).toBeLessThan(WRITES / 3);
		expect(pushes.count()).toBe(0);
		const { parser, kOnBody } = tapped as { parser: Record<number, unknown>; kOnBody: number };
		expect((parser[kOnBody] as () => void).name).toBe("parserOnBody");
	});

	it("flows into a 'data' listener, paced the same, when the parser's body callback is not Node's own", async () => {
		const pushes = pushCounter();
		let undo = () => {};
		try {
			const chunks = await pacedGet(server.url, (response) => {
				pushes.install(response);
				const { parser, kOnBody } = parserOf(response);
				const own = parser[kOnBody] as (this: unknown, bytes: Buffer) => void;
				parser[kOnBody] = function wrapped(this: unknown, bytes: Buffer) {
					own.call(this, bytes);
				};
				// Parsers are pooled: the next test's must be Node's own again.
				undo = () => {
					parser[kOnBody] = own;
				};
			});
			expect(chunks.join("")).toBe(text);
			expect(chunks.length).toBeLessThan(WRITES / 3);
			// One push per HTTP chunk the server wrote.
			expect(pushes.count()).toBeGreaterThan(WRITES / 2);
		} finally {
			undo();
		}
	});

	it("reads a content-length body (not chunked) the same way", async () => {
		const fixed = await listen(
			createHttpServer(async (req, res) => {
				for await (const _ of req) {
					// drain the request body
				}
				res.writeHead(200, { "content-length": String(Buffer.concat(pieces).length) });
				for (const piece of pieces) {
					res.write(piece);
					await sleep(GAP_MS);
				}
				res.end();
			}),
			"http",
		);
		try {
			const pushes = pushCounter();
			const chunks = await pacedGet(fixed.url, pushes.install);
			expect(chunks.join("")).toBe(text);
			expect(chunks.length).toBeLessThan(WRITES / 3);
			expect(pushes.count()).toBe(0);
		} finally {
			await fixed.close();
		}
	});

	it("ends a character cut off by the body's end as the stream does (U+FFFD)", async () => {
		const cut = Buffer.concat([Buffer.from("data: a👋"), Buffer.from("👋").subarray(0, 2)]);
		const short = await listen(createHttpServer(writer([cut.subarray(0, 8), cut.subarray(8)])), "http");
		try {
			const viaStream = await post(short.url, {}, "{}", new AbortController().signal).then((r) => r.text());
			const chunks = await pacedGet(short.url);
			expect(chunks.join("")).toBe(viaStream);
			expect(viaStream).toBe("data: a👋\uFFFD");
		} finally {
			await short.close();
		}
	});

	it("leaves the socket unread while the last burst waits for its consumer", async () => {
		const slow = await listen(createHttpServer(writer(pieces, 10)), "http");
		try {
			let starts = 0;
			const response = await new Promise<IncomingMessage>((resolve, reject) => {
				const request = httpRequest(slow.url, { method: "POST", agent: false }, resolve);
				request.on("error", reject);
				request.end("{}");
			});
			const handle = (response.socket as Socket & { _handle: { readStart: () => number } })._handle;
			const readStart = handle.readStart.bind(handle);
			handle.readStart = () => {
				starts++;
				return readStart();
			};
			const body = pacedBody(response);
			const first = await body.next();
			// Nobody asks for the next burst: read at the next boundary, it is held, and the socket with it.
			await sleep(2 * FRAME_MS);
			const before = starts;
			await sleep(5 * FRAME_MS);
			expect(starts).toBe(before);
			let rest = "";
			for (let next = await body.next(); !next.done; next = await body.next()) rest += next.value;
			expect(first.value + rest).toBe(text);
			expect(starts).toBeGreaterThan(before);
		} finally {
			await slow.close();
		}
	});
});

describe("post over http: abort during a pause", () => {
	it("destroys the connection at once: the server sees the close long before the pause would end", async () => {
		const { pieces } = scriptedBytes();
		const server = await listen(createHttpServer(writer(pieces, 10)), "http");
		try {
			const controller = new AbortController();
			const pauseMs = 2000;
			const response = await post(server.url, {}, "{}", controller.signal, createFrameClock({ frameMs: pauseMs }));
			const chunks = response.body[Symbol.asyncIterator]();
			const first = await chunks.next();
			expect(first.done).toBe(false);
			// The socket is now unread for 2 s while the server keeps writing.
			await sleep(100);
			const abortedAt = performance.now();
			controller.abort();
			await expect(chunks.next()).rejects.toThrow();
			while (server.closes.length === 0 && performance.now() - abortedAt < pauseMs) await sleep(2);
			expect(server.closes.length).toBe(1);
			expect((server.closes[0] as number) - abortedAt).toBeLessThan(pauseMs / 4);
		} finally {
			await server.close();
		}
	});
});

/** The process's clock as it runs, with every timer it sets counted and each callback logged. */
function countedClock(log: string[]): FrameClock & { fired: () => number } {
	let fired = 0;
	const clock = createFrameClock({
		frameMs: FRAME_MS,
		setTimer: (fn, ms) =>
			setTimeout(() => {
				fired++;
				log.push("wake");
				fn();
			}, ms),
	});
	return Object.assign(clock, { fired: () => fired });
}

describe("post over http: one clock for reads and frames", () => {
	it("wakes once per frame: each read at a boundary, its frame drawn in the same wake-up, nothing between", async () => {
		// A token every 5 ms for ~1 s, as a model streaming 200 tokens a second.
		const tokens = Array.from({ length: 200 }, (_, i) => Buffer.from(`data: {"n":${i}}\n\n`));
		const server = await listen(createHttpServer(writer(tokens, 5)), "http");
		try {
			const log: string[] = [];
			const clock = countedClock(log);
			const frames = createFrameScheduler({ clock, flush: () => log.push("frame") });
			const response = await post(server.url, {}, "{}", new AbortController().signal, clock);
			let text = "";
			let reads = 0;
			for await (const chunk of response.body) {
				reads++;
				log.push("read");
				text += chunk;
				for (let i = chunk.indexOf("data:"); i >= 0; i = chunk.indexOf("data:", i + 1)) frames.onEvent("message_update");
			}
			// Its last frame was deferred to the end of the turn; let it out.
			await new Promise((resolve) => setImmediate(resolve));
			expect(text).toBe(Buffer.concat(tokens).toString());
			// ~1 s at 20 frames a second (the server's own timers run late under load, so up to ~2 s).
			expect(reads).toBeGreaterThan(10);
			expect(reads).toBeLessThan(45);
			// Every wake-up of the clock resumed a read, and each read drew one frame before the next wake
			// (the last may find only the body's end: no text, no frame).
			expect(clock.fired()).toBeLessThanOrEqual(reads + 1);
			const afterFirst = log.slice(log.indexOf("wake")).join(" ");
			expect(afterFirst).toMatch(/^(wake read frame ?)+(wake)?$/);
		} finally {
			await server.close();
		}
	});
});

describe("pacedBody over https (TLSSocket)", () => {
	const { text, pieces } = scriptedBytes();
	let dir: string;
	let cert: Buffer;
	let server: TestServer;
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "rudder-tls-"));
		execFileSync(
			"openssl",
			[
				"req",
				"-x509",
				"-newkey",
				"rsa:2048",
				"-nodes",
				"-keyout",
				join(dir, "key.pem"),
				"-out",
				join(dir, "cert.pem"),
				"-days",
				"1",
				"-subj",
				"/CN=127.0.0.1",
				"-addext",
				"subjectAltName=IP:127.0.0.1",
			],
			{ stdio: "ignore" },
		);
		cert = readFileSync(join(dir, "cert.pem"));
		const key = readFileSync(join(dir, "key.pem"));
		server = await listen(createHttpsServer({ key, cert }, writer(pieces)), "https");
	}, 30_000);
	afterAll(async () => {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	});

	const get = (prepare?: (response: IncomingMessage) => void) => pacedGet(server.url, prepare, cert);

	it("joins the TLS records of each read burst into one chunk, byte-identical", async () => {
		const chunks = await get();
		expect(chunks.join("")).toBe(text);
		expect(chunks.length).toBeLessThan(WRITES / 3);
	});

	it("takes the bytes from the parser (TLSWrap): the response stream is pushed only its end", async () => {
		const pushes = pushCounter();
		const chunks = await get(pushes.install);
		expect(chunks.join("")).toBe(text);
		expect(pushes.count()).toBe(0);
	});

	it("reads as it comes when the handle lacks readStop/readStart", async () => {
		const chunks = await get((response) => {
			const handle = (response.socket as Socket & { _handle: Record<string, unknown> })._handle;
			handle.readStop = undefined;
			handle.readStart = undefined;
		});
		expect(chunks.join("")).toBe(text);
		// Unpaced: about one chunk per write (a few writes may share a read on a busy machine).
		expect(chunks.length).toBeGreaterThan(WRITES / 3);
	});
});
