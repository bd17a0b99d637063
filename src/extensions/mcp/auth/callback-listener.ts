// The redirect target of a sign-in: an HTTP listener on 127.0.0.1 (a free port, or the one a
// pre-registered client was registered with) that waits for `/callback?code=…&state=…`. It takes only
// the exact state value it was made for (another page cannot feed it a code of its own), answers once
// and closes; anything else gets a 400 and the listener keeps waiting.
import { createServer, type Server } from "node:http";

export const CALLBACK_PATH = "/callback";

export interface CallbackListener {
	/** `http://127.0.0.1:<port>/callback`. */
	redirectUrl: string;
	/** The authorization code; rejects when the server answered an error, on timeout or on abort. */
	code: Promise<string>;
	close(): void;
}

const PAGE = (text: string) =>
	`<!doctype html><meta charset="utf-8"><title>Rudder</title><body style="font-family:sans-serif"><p>${text}</p></body>`;

/** Error text from the query, kept short and plain: it came from a web page. */
const plain = (text: string | null) => (text ?? "").replace(/[^\x20-\x7e]/g, " ").slice(0, 200);

export async function startCallbackListener(options: {
	state: string;
	port?: number;
	timeoutMs: number;
	signal?: AbortSignal;
}): Promise<CallbackListener> {
	let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
	const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
	// Never an unhandled rejection when the caller stops listening first.
	code.catch(() => undefined);
	let server: Server | undefined;
	let timer: NodeJS.Timeout | undefined;
	const finish = (outcome: { code: string } | { error: Error }) => {
		clearTimeout(timer);
		options.signal?.removeEventListener("abort", onAbort);
		server?.close();
		server?.closeAllConnections?.();
		if ("code" in outcome) settle?.resolve(outcome.code);
		else settle?.reject(outcome.error);
	};
	const onAbort = () => finish({ error: new Error("sign-in cancelled") });
	server = createServer((request, response) => {
		const url = new URL(request.url ?? "/", "http://127.0.0.1");
		const answer = (status: number, text: string) => {
			response.writeHead(status, { "content-type": "text/html; charset=utf-8", connection: "close" });
			response.end(PAGE(text));
		};
		if (request.method !== "GET" || url.pathname !== CALLBACK_PATH || url.searchParams.get("state") !== options.state) {
			answer(400, "This is not the sign-in Rudder is waiting for.");
			return;
		}
		const error = url.searchParams.get("error");
		const received = url.searchParams.get("code");
		if (error || !received) {
			answer(400, "Sign-in failed. You can close this tab.");
			const detail = plain(url.searchParams.get("error_description"));
			finish({ error: new Error(`the authorization server answered ${plain(error) || "without a code"}${detail ? `: ${detail}` : ""}`) });
			return;
		}
		answer(200, "Signed in. You can close this tab and return to Rudder.");
		finish({ code: received });
	});
	await new Promise<void>((resolve, reject) => {
		server?.once("error", (error: NodeJS.ErrnoException) =>
			reject(
				new Error(
					error.code === "EADDRINUSE" ? `port ${options.port} on 127.0.0.1 is in use (the sign-in's redirect port)` : error.message,
				),
			),
		);
		server?.listen(options.port ?? 0, "127.0.0.1", () => resolve());
	});
	const address = server.address();
	const port = typeof address === "object" && address ? address.port : 0;
	timer = setTimeout(
		() => finish({ error: new Error(`no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s`) }),
		options.timeoutMs,
	);
	timer.unref();
	if (options.signal?.aborted) onAbort();
	else options.signal?.addEventListener("abort", onAbort, { once: true });
	return { redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`, code, close: () => finish({ error: new Error("sign-in stopped") }) };
}
