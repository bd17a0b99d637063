// The HTTP plumbing every streaming provider shares: POST with retries before the first byte, an idle
// watchdog on the body, SSE framing that survives chunks split anywhere (also inside a UTF-8
// character), and one-line errors that name the provider and the key's env var.
import type { Duplex } from "node:stream";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { redactSecrets } from "../../safety/secrets.js";
import type { Model, ResponseInfo, RetryInfo } from "../types.js";
import { notFoundHint, whereTo } from "./http-error-hint.js";
import { type PostResponse, post } from "./http-post.js";
import { jsonBody } from "./json-body.js";

export interface SseRequest {
	/** Human name used in error text, e.g. "Anthropic". */
	providerName: string;
	/** The env var that holds the key, named in 401/403 errors. */
	apiKeyEnv?: string;
	url: string;
	headers: Record<string, string>;
	body: unknown;
	signal?: AbortSignal;
	/** Retries on 408/429/5xx/connection failure before the first byte. Default 3. */
	maxRetries?: number;
	/** Cap on one wait between retries (also caps retry-after). Default 60000. */
	maxRetryDelayMs?: number;
	/** Base of the exponential backoff. Default 1000. */
	retryBaseDelayMs?: number;
	/** No body byte for this long ends the stream with "stream stalled". Default 120000. */
	idleTimeoutMs?: number;
	/** The connection to use instead of a socket of the pool (the in-memory warm-up, warm-up.ts). */
	connect?: () => Duplex;
	model?: Model;
	onResponse?: (response: ResponseInfo, model: Model) => void;
	/** Told before each wait for a retry. */
	onRetry?: (retry: RetryInfo) => void;
}

export interface SseEvent {
	event?: string;
	data: string;
}

/** An error whose message is already the one line the user should read. */
export class ProviderError extends Error {
	constructor(
		message: string,
		readonly status?: number,
	) {
		super(message);
		this.name = "ProviderError";
	}
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

/**
 * POSTs `body` as JSON and yields the server-sent events of the response, as one batch per read of
 * the body (never empty): a provider handles a read's events in one go, and its builder merges their
 * deltas (assistant-builder.ts), instead of one async step per event. Throws `ProviderError` for HTTP
 * and stream failures; throws the abort reason (an `AbortError`) when `signal` aborts. Breaking out of
 * the iteration closes the connection.
 */
export async function* streamSse(req: SseRequest): AsyncGenerator<SseEvent[]> {
	const controller = new AbortController();
	const onAbort = () => controller.abort(req.signal?.reason);
	if (req.signal?.aborted) throw abortError();
	req.signal?.addEventListener("abort", onAbort, { once: true });
	let stalled = false;
	try {
		const response = await fetchWithRetry(req, controller, () => {
			stalled = true;
		});
		let pending: SseEvent[] = [];
		const parser = createParser({
			onEvent: (e: EventSourceMessage) => pending.push({ event: e.event, data: e.data }),
		});
		const take = () => {
			const batch = pending;
			pending = [];
			return batch;
		};
		const idleTimer = setTimeout(() => {
			stalled = true;
			controller.abort();
		}, req.idleTimeoutMs ?? 120_000);
		try {
			for await (const text of response.body) {
				// Restarts the countdown in place: a new timer and closure per chunk cost ~5x more.
				idleTimer.refresh();
				parser.feed(text);
				if (pending.length > 0) yield take();
			}
			// A body that ends without a trailing blank line still delivers its last event.
			parser.feed("\n\n");
			if (pending.length > 0) yield take();
		} finally {
			clearTimeout(idleTimer);
			// Closes the socket when the consumer stops early (abort, error, or break).
			response.close();
		}
	} catch (error) {
		if (req.signal?.aborted) throw abortError();
		if (stalled) {
			throw new ProviderError(`${req.providerName}: stream stalled (no data for ${formatDuration(req.idleTimeoutMs ?? 120_000)})`);
		}
		if (error instanceof ProviderError) throw error;
		throw new ProviderError(`${req.providerName}: connection failed mid-stream: ${describeNetworkError(error)}`);
	} finally {
		req.signal?.removeEventListener("abort", onAbort);
		controller.abort();
	}
}

/**
 * The idle watchdog also covers the wait for response headers: a server that accepts the connection
 * and never answers would otherwise hang until undici's 300 s header timeout.
 */
async function fetchWithRetry(req: SseRequest, controller: AbortController, onStall: () => void): Promise<PostResponse> {
	const signal = controller.signal;
	const idleMs = req.idleTimeoutMs ?? 120_000;
	const maxRetries = req.maxRetries ?? 3;
	const maxDelay = req.maxRetryDelayMs ?? 60_000;
	const baseDelay = req.retryBaseDelayMs ?? 1000;
	// In chunks, never one string: a long session's body is tens of MiB (json-body.ts).
	const payload = jsonBody(req.body);
	for (let attempt = 0; ; attempt++) {
		let response: PostResponse;
		const headerTimer = setTimeout(() => {
			onStall();
			controller.abort();
		}, idleMs);
		try {
			const headers = { "content-type": "application/json", accept: "text/event-stream", ...req.headers };
			response = await post(req.url, headers, payload, signal, undefined, req.connect);
		} catch (error) {
			clearTimeout(headerTimer);
			if (signal.aborted) throw error;
			if (attempt >= maxRetries) {
				throw new ProviderError(`${req.providerName}: cannot reach ${originOf(req.url)}: ${describeNetworkError(error)}`);
			}
			const wait = Math.min(maxDelay, baseDelay * 2 ** attempt);
			req.onRetry?.({
				attempt: attempt + 2,
				maxAttempts: maxRetries + 1,
				delayMs: wait,
				reason: `connection failed: ${describeNetworkError(error)}`,
			});
			await sleep(wait, signal);
			continue;
		}
		clearTimeout(headerTimer);
		if (req.onResponse && req.model) req.onResponse({ status: response.status, headers: { ...response.headers } }, req.model);
		if (response.ok) return response;
		const text = await response.text().catch(() => "");
		if (RETRYABLE_STATUS.has(response.status) && attempt < maxRetries) {
			const wait = retryDelay(response.headers, baseDelay * 2 ** attempt, maxDelay);
			if (wait !== undefined) {
				const status = response.status;
				req.onRetry?.({
					attempt: attempt + 2,
					maxAttempts: maxRetries + 1,
					delayMs: wait,
					status,
					reason: `${status} ${statusReason(status)}`,
				});
				await sleep(wait, signal);
				continue;
			}
		}
		throw httpError(req, response.status, text);
	}
}

/** A few words for a retryable status, for "retrying in 3 s (429 rate limited)". */
function statusReason(status: number): string {
	if (status === 429) return "rate limited";
	if (status === 529) return "overloaded";
	if (status === 408) return "request timeout";
	if (status === 409 || status === 425) return "conflict";
	return "server error";
}

/** The wait before the next try, or undefined when the server asks for longer than the cap allows. */
function retryDelay(headers: Record<string, string>, backoff: number, cap: number): number | undefined {
	const header = headers["retry-after-ms"];
	let wanted: number | undefined;
	if (header !== undefined && Number.isFinite(Number(header))) wanted = Number(header);
	else {
		const after = headers["retry-after"];
		if (after) {
			const seconds = Number(after);
			if (Number.isFinite(seconds)) wanted = seconds * 1000;
			else {
				const date = Date.parse(after);
				if (!Number.isNaN(date)) wanted = Math.max(0, date - Date.now());
			}
		}
	}
	if (wanted === undefined) return Math.min(backoff, cap);
	return wanted > cap ? undefined : wanted;
}

function httpError(req: SseRequest, status: number, body: string): ProviderError {
	// A server may echo the key it was sent (a 401 "Incorrect API key provided: sk-…").
	const detail = extractErrorMessage(body);
	if (status === 401 || status === 403) {
		const hint = req.apiKeyEnv ? ` Check ${req.apiKeyEnv} or pass --api-key.` : "";
		return new ProviderError(
			// The server's sentence usually ends with its own period; one is enough.
			`${req.providerName} rejected the API key (HTTP ${status})${detail ? `: ${detail.replace(/\.+$/, "")}` : ""}.${hint}`,
			status,
		);
	}
	// Where it went, so a wrong base URL shows; a 404 on a path we call says what to change.
	const line = `${req.providerName} HTTP ${status} from ${whereTo(req.url)}${detail ? `: ${detail}` : ""}`;
	const hint = status === 404 ? notFoundHint(req.url) : "";
	return new ProviderError(hint ? `${line.replace(/\.+$/, "")}.${hint}` : line, status);
}

/** Pulls the human message out of a JSON error body; falls back to a short snippet of the text. */
export function extractErrorMessage(body: string): string {
	const trimmed = body.trim();
	if (!trimmed) return "";
	try {
		const parsed = JSON.parse(trimmed);
		// `detail`: FastAPI servers (vLLM, LiteLLM) answer an unknown route with {"detail":"Not Found"}.
		const candidates = [parsed?.error?.message, parsed?.message, parsed?.error, parsed?.[0]?.error?.message, parsed?.detail];
		// Redacted before it is cut: a key straddling the cut would otherwise leave its first half.
		for (const c of candidates) if (typeof c === "string" && c) return oneLine(redactSecrets(c));
	} catch {
		// not JSON
	}
	return oneLine(redactSecrets(trimmed));
}

export function oneLine(text: string, max = 300): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Parses an SSE data payload; a malformed one becomes an error naming the raw snippet. */
export function parseSseJson<T = any>(providerName: string, data: string): T {
	try {
		return JSON.parse(data) as T;
	} catch {
		throw new ProviderError(`${providerName}: malformed JSON in stream: ${oneLine(data, 200)}`);
	}
}

function describeNetworkError(error: unknown): string {
	const code = (error as { code?: unknown })?.code;
	if (typeof code === "string" && code) return code;
	const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
	if (cause?.code) return cause.code;
	if (cause?.message) return cause.message;
	return error instanceof Error ? error.message : String(error);
}

/** "300ms" below a second (a rounded "0s" would read as no wait at all), else whole seconds. */
function formatDuration(ms: number): string {
	return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 1000)}s`;
}

function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}

function abortError(): Error {
	const error = new Error("Request was aborted");
	error.name = "AbortError";
	return error;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal.aborted) return reject(abortError());
		const timer = setTimeout(() => {
			signal.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(abortError());
		};
		signal.addEventListener("abort", onAbort, { once: true });
	});
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
	return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
